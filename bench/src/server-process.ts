/**
 * The server's process as `npm start` starts it: the Node flags of the `start` script in package.json (memory
 * settings, decision 0086) before the entry, so that what the benches measure is what a user runs.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';

export function serverArgs(root: string): string[] {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = /\bnode((?:\s+--\S+)*)\s+(packages\/server\/src\/main\.ts)/.exec(pkg.scripts.start);
  if (!match) throw new Error('the start script does not run packages/server/src/main.ts with node');
  return [...(match[1] ?? '').trim().split(/\s+/).filter(Boolean), join(root, match[2] as string)];
}
