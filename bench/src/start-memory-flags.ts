/**
 * The server as `npm start` runs it (bench/src/server-process.ts) on a demo data folder, under V8 flag sets added
 * before the start script's own (decision 0198): time to a served sign-in page, resident memory after the start,
 * its peak (and when, in seconds from the spawn) and after `--idle` seconds at rest, the requests of P7's memory
 * figure (bench/src/memory.ts) asked once after the start. The sets run in turns so that the machine's load moves
 * them alike.
 *
 * `node bench/src/start-memory-flags.ts [--idle 90] [--rounds 1] [--set name=--flag,--flag …]`
 * (`--set default=` is the start script alone).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { idleMemory } from './memory.ts';

const { values: args } = parseArgs({
  options: {
    idle: { type: 'string', default: '90' },
    rounds: { type: 'string', default: '1' },
    set: { type: 'string', multiple: true, default: ['default='] },
  },
});
const root = join(import.meta.dirname, '../..');
const sets = args.set.map((s) => {
  const at = s.indexOf('=');
  return {
    name: at < 0 ? s : s.slice(0, at),
    flags:
      at < 0
        ? []
        : s
            .slice(at + 1)
            .split(',')
            .filter(Boolean),
  };
});
const dataDir = mkdtempSync(join(tmpdir(), 'gh-flags-'));
try {
  // The first start makes the demo data folder, as `npm start` does.
  await idleMemory(root, dataDir, 3991, {}, { idleMs: 0 });
  for (let round = 0; round < Number(args.rounds); round++) {
    for (const { name, flags } of sets) {
      const loadBefore = loadavg().map((n) => +n.toFixed(1));
      const m = await idleMemory(
        root,
        dataDir,
        3991,
        {},
        { nodeFlags: flags, idleMs: Number(args.idle) * 1000 },
      );
      console.log(JSON.stringify({ round, set: name, flags, loadBefore, ...m }));
    }
  }
  console.log(
    JSON.stringify({ commit: execFileSync('git', ['rev-parse', '--short', 'HEAD']).toString().trim() }),
  );
} finally {
  rmSync(dataDir, { recursive: true, force: true });
}
