/**
 * The renewal run in a process of its own (bench/src/memberships.ts kills it halfway): `node
 * bench/src/memberships-renew-child.ts <database url> <tenant id>`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '@guildhall/db';
import { buildApp } from '@guildhall/server';
import { runRenewals } from '../../packages/server/src/features/memberships/memberships.billing.ts';
import { loadConfig } from '../../packages/server/src/platform/config.ts';

const [url, tenantId] = process.argv.slice(2) as [string, string];
const database = await openDatabase({ databaseUrl: url, poolSize: 4 });
const dataDir = mkdtempSync(join(tmpdir(), 'gh-bench-renew-child-'));
const config = { ...loadConfig({}), dataDir, publicUrl: 'http://bench.local', smtpUrl: undefined };
const app = await buildApp({ database, config });
await runRenewals(database, app.services, tenantId);
await app.close();
await database.close();
