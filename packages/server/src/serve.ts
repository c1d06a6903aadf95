import { openDatabase } from '@guildhall/db';
import { DEMO_ACCOUNTS, seedDemo } from '@guildhall/seed/demo';
import { buildApp } from './app.ts';
import { loadConfig } from './platform/config.ts';

const started = Date.now();
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
});
await database.migrate();
if (config.seedDemo) await seedDemo(database, { databaseUrl: config.databaseUrl });
const app = await buildApp({ database, config, logger: { level: config.logLevel } });
await app.listen({ port: config.port, host: config.host });

const where = config.databaseUrl ? 'PostgreSQL (DATABASE_URL)' : `embedded PGlite in ${config.dataDir}`;
console.log(
  `\nGuildhall is ready at http://localhost:${config.port} (${where}), started in ${Date.now() - started} ms.`,
);
if (config.seedDemo) {
  console.log('Demo sign-in:');
  for (const a of DEMO_ACCOUNTS)
    console.log(`  ${a.tenant.padEnd(18)} ${a.username.padEnd(12)} ${a.password}`);
}

let closing = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, async () => {
    if (closing) return;
    closing = true;
    await app.close();
    await database.close();
    process.exit(0);
  });
}
