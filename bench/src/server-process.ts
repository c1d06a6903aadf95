/**
 * The server's process as `npm start` starts it: the Node flags of the `start` script in package.json (memory
 * settings, decision 0086; the compiled modules' condition, decision 0191) before its entry, the compiled server
 * (`dist/`, built once per bench run by `npm run build:server`), so that what the benches measure is what a user runs.
 */
import { execSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

let built = false;

export function serverArgs(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = /\bnode((?:\s+--\S+)*)\s+(packages\/server\/dist\/main\.js)/.exec(pkg.scripts.start);
  if (!match) throw new Error('the start script does not run packages/server/dist/main.js with node');
  if (!built) {
    execSync('npm run build:server', { cwd: root, stdio: 'ignore' });
    built = true;
  }
  return [...(match[1] ?? '').trim().split(/\s+/).filter(Boolean), join(root, match[2] as string)];
}
