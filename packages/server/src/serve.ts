import { openDatabase } from '@guildhall/db';
import { DEMO_ACCOUNTS, seedDemo, seedDemoFiles } from '@guildhall/seed/demo';
import { buildApp } from './app.ts';
import { loadConfig } from './platform/config.ts';
import { demoApi } from './platform/demo-api.ts';

const started = Date.now();
const config = loadConfig();
const database = await openDatabase({
  databaseUrl: config.databaseUrl,
  dataDir: config.databaseUrl ? undefined : config.dataDir,
});
await database.migrate();
const seeded = config.seedDemo ? await seedDemo(database, { databaseUrl: config.databaseUrl }) : null;
const app = await buildApp({ database, config, logger: { level: config.logLevel } });
if (seeded) {
  // Files and images go through the app's own API, as the demo staff user's uploads would.
  const staff = DEMO_ACCOUNTS[0];
  await seedDemoFiles(await demoApi(app, staff.username, staff.password), seeded);
}
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
