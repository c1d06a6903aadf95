/**
 * Runs every test suite and ends with one line `N passed, N failed`.
 *   1. unit tests (shared rules, web units)
 *   2. API tests through app.inject() on cloned PGlite databases
 *   3. browser tests in Chromium against the built app
 *   4. with TEST_POSTGRES_ADMIN_URL (CI sets it): the API tests again on a fresh real PostgreSQL database
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import pg from 'pg';

const root = join(import.meta.dirname, '..');
const out = join(root, '.tmp', 'test-results');
rmSync(out, { recursive: true, force: true });
mkdirSync(out, { recursive: true });

interface Step {
  name: string;
  args: string[];
  env?: Record<string, string>;
}

const only = process.argv.slice(2);
const steps: Step[] = [
  { name: 'unit', args: ['run', '--project', 'shared', '--coverage'] },
  { name: 'db-unit', args: ['run', '--project', 'db', '--project', 'seed'] },
  { name: 'web-unit', args: ['run', '--project', 'web'] },
  { name: 'api', args: ['run', '--project', 'server'] },
  { name: 'e2e', args: ['run', '--config', 'e2e/vitest.config.ts'] },
];

const adminUrl = process.env.TEST_POSTGRES_ADMIN_URL;
let pgDatabase: string | undefined;
if (adminUrl) {
  pgDatabase = `guildhall_test_${Date.now()}_${process.pid}`;
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`create database ${pgDatabase}`);
  await c.end();
  const url = new URL(adminUrl);
  url.pathname = `/${pgDatabase}`;
  steps.push({
    name: 'api-postgres',
    args: ['run', '--project', 'server'],
    env: { TEST_DATABASE_URL: url.toString() },
  });
}

let passed = 0;
let failed = 0;
let broken = false;
for (const step of steps) {
  if (only.length && !only.includes(step.name)) continue;
  if (step.name === 'e2e') {
    const build = spawnSync('npm', ['run', 'build'], { cwd: root, stdio: 'inherit' });
    if (build.status !== 0) {
      console.error('The web build failed; the browser tests cannot run.');
      broken = true;
      continue;
    }
  }
  console.log(`\n=== ${step.name} ===`);
  const json = join(out, `${step.name}.json`);
  const r = spawnSync(
    join(root, 'node_modules/.bin/vitest'),
    [...step.args, '--reporter=default', '--reporter=json', `--outputFile.json=${json}`],
    { cwd: root, stdio: 'inherit', env: { ...process.env, ...step.env } },
  );
  if (existsSync(json)) {
    const report = JSON.parse(readFileSync(json, 'utf8')) as {
      numPassedTests: number;
      numFailedTests: number;
      numFailedTestSuites: number;
    };
    passed += report.numPassedTests;
    failed += report.numFailedTests;
    if (report.numFailedTestSuites > 0 && report.numFailedTests === 0) failed += report.numFailedTestSuites;
    // A run that failed for another reason (a coverage threshold, an error outside tests) counts as one failure.
    if (r.status !== 0 && report.numFailedTests === 0 && report.numFailedTestSuites === 0) {
      console.error(`${step.name} exited with ${r.status} although its tests passed.`);
      failed += 1;
    }
  } else if (r.status !== 0) {
    broken = true;
  }
  if (r.status !== 0 && !existsSync(json)) console.error(`${step.name} did not report (exit ${r.status}).`);
}

if (adminUrl && pgDatabase) {
  const c = new pg.Client({ connectionString: adminUrl });
  await c.connect();
  await c.query(`drop database if exists ${pgDatabase} with (force)`).catch(() => undefined);
  await c.end();
}

if (broken) failed += 1;
console.log(`\n${passed} passed, ${failed} failed`);
process.exit(failed > 0 ? 1 : 0);
