/**
 * Migrates once per run. On PGlite the migrated data folder is dumped to a file that every test file clones
 * (under a second, where a fresh PGlite costs several). With TEST_DATABASE_URL, the API suite runs on that real
 * PostgreSQL database instead: it is migrated here and shared, each test creating tenants of its own, and so is
 * one file storage folder (`dataDir`), as the instances of one deployment share theirs. What the run wrote in the
 * temporary folder is removed at its end.
 */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@guildhall/db';
import type { TestProject } from 'vitest/node';
import { adminQuery, withDatabase } from './admin-db.ts';

export default async function setup(project: TestProject): Promise<() => void> {
  const provide = project.provide.bind(project) as unknown as (
    key: 'databaseUrl' | 'pgliteDump' | 'dataDir' | 'templateUrl',
    value: string,
  ) => void;
  const databaseUrl = process.env.TEST_DATABASE_URL ?? '';
  const folder = mkdtempSync(join(tmpdir(), 'gh-test-'));
  const removeFolder = () => rmSync(folder, { recursive: true, force: true });
  provide('databaseUrl', databaseUrl);
  if (databaseUrl) {
    const database = await openDatabase({ databaseUrl });
    await database.migrate();
    await database.close();
    // A copy of the migrated database that nobody connects to, from which a test file that must be the only one
    // running jobs on its database gets one of its own (testApp's `ownDatabase`).
    const migrated = new URL(databaseUrl).pathname.slice(1);
    const template = `${migrated}_template`;
    await adminQuery(databaseUrl, `drop database if exists ${template} with (force)`);
    await adminQuery(databaseUrl, `create database ${template} template ${migrated}`);
    provide('templateUrl', withDatabase(databaseUrl, template));
    provide('pgliteDump', '');
    provide('dataDir', join(folder, 'data'));
    return async () => {
      await adminQuery(databaseUrl, `drop database if exists ${template} with (force)`);
      removeFolder();
    };
  }
  provide('templateUrl', '');
  const database = await openDatabase({});
  await database.migrate();
  const dump = await database.pglite!.dumpDataDir('none');
  const file = join(folder, 'migrated.tar');
  writeFileSync(file, Buffer.from(await dump.arrayBuffer()));
  await database.close();
  provide('pgliteDump', file);
  provide('dataDir', '');
  return removeFolder;
}
