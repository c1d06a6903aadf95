/**
 * `npm start` runs the server compiled to JavaScript (decision 0191): `npm run build:server` compiles it, and the
 * start script's Node flags turn type stripping off, so a TypeScript module that the compiled server still loaded
 * (an import, a worker, a discovered declaration) would fail here rather than load Node's type stripper.
 */
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { isReport } from '@guildhall/shared';
import { isQuery } from '@guildhall/shared/query-tool/query';
import { beforeAll, describe, expect, inject, it } from 'vitest';
import { MODULE_EXTENSION, moduleUrl } from '../src/platform/module-files.ts';
import { discover, discoverResources } from '../src/platform/resources/registry.ts';

const root = join(import.meta.dirname, '../../..');
const node = join(root, 'node_modules/.bin/node');
const provided = inject as unknown as (key: 'databaseUrl' | 'pgliteDump') => string;

/** The Node flags and the entry of the `start` script. */
function startCommand(): { flags: string[]; entry: string } {
  const pkg = JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as { scripts: { start: string } };
  const match = /\bnode((?:\s+--\S+)*)\s+(\S+)$/.exec(pkg.scripts.start);
  if (!match) throw new Error('the start script does not end with node and an entry');
  return { flags: (match[1] ?? '').trim().split(/\s+/), entry: match[2] as string };
}

/** What the compiled app finds and builds, in a process started with the start script's flags. */
const probe = `
import { readFileSync } from 'node:fs';
import { openDatabase } from '@guildhall/db';
import { buildApp } from '@guildhall/server';
import { isReport } from '@guildhall/shared';
import { isQuery } from '@guildhall/shared/query-tool/query';
import { loadConfig } from './packages/server/dist/platform/config.js';
import { discover, discoverResources } from './packages/server/dist/platform/resources/registry.js';
import { parseSql } from './packages/server/dist/features/query-tool/query-parser.js';
const database = process.env.PROBE_DATABASE_URL
  ? await openDatabase({ databaseUrl: process.env.PROBE_DATABASE_URL, poolSize: 2 })
  : await openDatabase({ loadDataDir: new Blob([readFileSync(process.env.PROBE_DUMP)]) });
const app = await buildApp({ database, config: { ...loadConfig({}), dataDir: process.env.PROBE_DATA, smtpUrl: undefined } });
await app.ready();
const res = await app.inject({ method: 'GET', url: '/api/audit' });
const tree = await parseSql('select 1');
console.log(JSON.stringify({
  resources: (await discoverResources()).length,
  queries: (await discover('.query', isQuery)).length,
  reports: (await discover('.report', isReport)).length,
  audit: res.statusCode,
  parsed: JSON.stringify(tree).includes('SelectStmt'),
  typescript: process.features.typescript,
  entry: import.meta.resolve('@guildhall/server'),
}));
await app.close();
await database.close();
process.exit(0);
`;

describe('the compiled server (npm start)', () => {
  beforeAll(() => {
    const built = spawnSync(node, ['scripts/build-server.ts'], { cwd: root, encoding: 'utf8' });
    expect(built.status, built.stderr).toBe(0);
  }, 180_000);

  it('starts from dist with type stripping off and finds every declaration the sources declare', async () => {
    const { flags, entry } = startCommand();
    expect(flags).toContain('--no-experimental-strip-types');
    expect(entry).toBe('packages/server/dist/main.js');
    const data = mkdtempSync(join(tmpdir(), 'gh-compiled-'));
    // A file of the root folder (its imports resolve as the server's do); `--eval` would pass to the workers' flags.
    const script = join(root, `.probe-${process.pid}.mjs`);
    writeFileSync(script, probe);
    try {
      const run = spawnSync(node, [...flags, script], {
        cwd: root,
        encoding: 'utf8',
        env: {
          ...process.env,
          PROBE_DATABASE_URL: provided('databaseUrl'),
          PROBE_DUMP: provided('pgliteDump'),
          PROBE_DATA: data,
          LOG_LEVEL: 'warn',
        },
        timeout: 150_000,
      });
      expect(run.status, run.stderr).toBe(0);
      const found = JSON.parse(run.stdout.trim().split('\n').at(-1) as string);
      expect(found).toEqual({
        resources: (await discoverResources()).length,
        queries: (await discover('.query', isQuery)).length,
        reports: (await discover('.report', isReport)).length,
        audit: 401,
        parsed: true,
        typescript: false,
        entry: `file://${root}/packages/server/dist/app.js`,
      });
      expect(found.resources).toBeGreaterThan(30);
    } finally {
      rmSync(data, { recursive: true, force: true });
      rmSync(script, { force: true });
    }
  }, 180_000);

  it('names module files with the extension of the modules running (TypeScript here)', () => {
    expect(MODULE_EXTENSION).toBe('.ts');
    expect(moduleUrl('./query-check.worker', import.meta.url).pathname).toMatch(/\/query-check\.worker\.ts$/);
  });
});
