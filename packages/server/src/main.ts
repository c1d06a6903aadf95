/**
 * The process's entry. It keeps V8's compiled code of every module on disk between starts (Node's compile cache, in
 * the system's temporary folder), which makes a restart about a second faster, then starts the server: `serve.ts`
 * is imported only after the cache is on, so that its whole module graph is read through it.
 */
import { enableCompileCache } from 'node:module';

enableCompileCache();
await import('./serve.ts');
