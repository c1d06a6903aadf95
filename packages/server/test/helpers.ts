import { mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Database, openDatabase } from '@guildhall/db';
import {
  createTenant,
  createUser,
  type TenantRecord,
  type UserInput,
  type UserRecord,
} from '@guildhall/db/seed/factories';
import type { Me } from '@guildhall/shared';
import type { LightMyRequestResponse } from 'fastify';
import { inject } from 'vitest';
import { type App, type BuildOptions, buildApp } from '../src/app.ts';
import { type AppConfig, loadConfig } from '../src/platform/config.ts';
import { adminQuery, withDatabase } from './admin-db.ts';

/** Values the global setup provides (see global-setup.ts). */
const provided = inject as unknown as (
  key: 'databaseUrl' | 'pgliteDump' | 'dataDir' | 'templateUrl',
) => string;

/** A database for one test file: a clone of the migrated PGlite, or the shared real PostgreSQL database. */
export async function testDatabase(poolSize = 4): Promise<Database> {
  const databaseUrl = provided('databaseUrl');
  if (databaseUrl) return openDatabase({ databaseUrl, poolSize });
  const dump = readFileSync(provided('pgliteDump'));
  return openDatabase({ loadDataDir: new Blob([dump]) });
}

/**
 * A database no other test file uses: on PostgreSQL a copy of the migrated template, dropped by `drop`. For a file
 * that must see a queued job stay queued: on the shared database any other file's worker may claim it.
 */
async function ownTestDatabase(poolSize: number): Promise<{ database: Database; drop(): Promise<void> }> {
  const templateUrl = provided('templateUrl');
  if (!templateUrl) return { database: await testDatabase(poolSize), drop: async () => undefined };
  const template = new URL(templateUrl).pathname.slice(1);
  const name = unique(`${template}_own_`).toLowerCase();
  await adminQuery(templateUrl, `create database ${name} template ${template}`);
  const database = await openDatabase({ databaseUrl: withDatabase(templateUrl, name), poolSize });
  return { database, drop: () => adminQuery(templateUrl, `drop database if exists ${name} with (force)`) };
}

export interface TestContext {
  app: App;
  database: Database;
  config: AppConfig;
  close(): Promise<void>;
}

/**
 * The data folder (and so the file storage) of a test app. The apps of a run on the shared PostgreSQL database share
 * one, as the instances of one deployment share their storage: any of them may run a job another one queued (an
 * export written by one, downloaded through another). A cloned PGlite database has a folder of its own, removed
 * when its app closes. Never the project's own `data` folder.
 */
function testDataDir(): { dir: string; own: boolean } {
  const shared = provided('dataDir');
  if (shared) {
    mkdirSync(shared, { recursive: true });
    return { dir: shared, own: false };
  }
  return { dir: mkdtempSync(join(tmpdir(), 'guildhall-test-')), own: true };
}

export async function testApp(
  overrides: Partial<AppConfig> = {},
  poolSize = 4,
  build: Pick<BuildOptions, 'modules' | 'logger'> & {
    /** A database of the file's own, where no other file's worker claims its jobs (see ownTestDatabase). */
    ownDatabase?: boolean;
  } = {},
): Promise<TestContext> {
  const { ownDatabase, ...buildOptions } = build;
  const own = ownDatabase ? await ownTestDatabase(poolSize) : null;
  const database = own ? own.database : await testDatabase(poolSize);
  const data = testDataDir();
  const config = {
    ...loadConfig({}),
    dataDir: data.dir,
    publicUrl: 'http://guildhall.test',
    smtpUrl: undefined,
    // Each test app counts its rate limits apart, as a deployment of its own on the shared database.
    rateLimitNamespace: unique('rl-'),
    ...overrides,
  };
  const app = await buildApp({ database, config, ...buildOptions });
  await app.ready();
  return {
    app,
    database,
    config,
    async close() {
      await app.close();
      await database.close();
      await own?.drop();
      if (data.own) rmSync(data.dir, { recursive: true, force: true });
    },
  };
}

let counter = 0;
/** A unique suffix, so tests on a shared database never collide. */
export function unique(prefix: string): string {
  counter += 1;
  return `${prefix}${Date.now().toString(36)}${process.pid.toString(36)}${counter}`;
}

export interface TenantWithUsers {
  tenant: TenantRecord;
  admin: UserRecord;
  staff: UserRecord;
  member: UserRecord;
}

/** A tenant of its own with an admin, a staff user and a member, all past every sign-in prompt. */
export async function seedTenant(database: Database, name = unique('Assoc ')): Promise<TenantWithUsers> {
  const tenant = await createTenant(database.db, { name });
  const mk = (role: 'admin' | 'staff' | 'member', extra: Partial<UserInput> = {}) =>
    createUser(database.db, {
      tenantId: tenant.id,
      username: unique(`${role}.`),
      password: `${role}-password-2026`,
      role,
      ...extra,
    });
  return { tenant, admin: await mk('admin'), staff: await mk('staff'), member: await mk('member') };
}

export function cookieOf(res: LightMyRequestResponse): string {
  const c = res.cookies.find((x) => x.name === 'gh_session');
  if (!c) throw new Error(`no session cookie in ${res.statusCode} ${res.body}`);
  return `gh_session=${c.value}`;
}

export async function signIn(
  app: App,
  user: { username: string; password: string },
): Promise<{ cookie: string; me: Me }> {
  const res = await app.inject({
    method: 'POST',
    url: '/api/auth/login',
    payload: { username: user.username, password: user.password },
  });
  if (res.statusCode !== 200) throw new Error(`sign-in failed: ${res.statusCode} ${res.body}`);
  return { cookie: cookieOf(res), me: res.json() as Me };
}

/** A small client bound to one session cookie. */
export function client(app: App, cookie: string) {
  const call = (method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, payload?: unknown) =>
    app.inject({
      method,
      url,
      headers: { cookie },
      ...(payload === undefined ? {} : { payload: payload as Record<string, unknown> }),
    });
  return {
    get: (url: string) => call('GET', url),
    post: (url: string, payload?: unknown) => call('POST', url, payload ?? {}),
    put: (url: string, payload?: unknown) => call('PUT', url, payload ?? {}),
    delete: (url: string) => call('DELETE', url),
  };
}

/** The multipart framing of one file part in field `file`, as a browser sends it (name and type as given). */
export const UPLOAD_BOUNDARY = '----guildhall-test';
export const UPLOAD_CONTENT_TYPE = `multipart/form-data; boundary=${UPLOAD_BOUNDARY}`;
export function filePartHead(fileName = 'contacts.csv', type = 'text/csv'): Buffer {
  return Buffer.from(
    `--${UPLOAD_BOUNDARY}\r\nContent-Disposition: form-data; name="file"; filename="${fileName}"\r\nContent-Type: ${type}\r\n\r\n`,
    'latin1',
  );
}
export const FILE_PART_TAIL = Buffer.from(`\r\n--${UPLOAD_BOUNDARY}--\r\n`);

/** Uploads one file through `app.inject` with the session cookie. */
export function uploadFile(
  app: App,
  cookie: string,
  url: string,
  bytes: Buffer | string,
  fileName = 'contacts.csv',
  type = 'text/csv',
) {
  return app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': UPLOAD_CONTENT_TYPE },
    payload: Buffer.concat([filePartHead(fileName, type), Buffer.from(bytes), FILE_PART_TAIL]),
  });
}
