/**
 * Rate limits are counted in the database: two instances of one deployment (two apps on one database) share each
 * limit, while another deployment's counters are its own.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { testDatabase } from '../../test/helpers.ts';
import { buildApp } from '../app.ts';
import { loadConfig } from './config.ts';

const database = await testDatabase(4);
const deployment = `rl-test-${process.pid}-${Date.now()}`;
const config = { ...loadConfig({}), smtpUrl: undefined, rateLimitNamespace: deployment };
const first = await buildApp({ database, config });
const second = await buildApp({ database, config });
const elsewhere = await buildApp({
  database,
  config: { ...config, rateLimitNamespace: `${deployment}-other` },
});
beforeAll(() => Promise.all([first.ready(), second.ready(), elsewhere.ready()]));
afterAll(async () => {
  await Promise.all([first.close(), second.close(), elsewhere.close()]);
  await database.close();
});

const ask = (app: typeof first) =>
  app.inject({
    method: 'POST',
    url: '/api/auth/forgot-password',
    payload: { usernameOrEmail: 'nobody@example.org' },
    remoteAddress: '203.0.113.9',
  });

describe('rate limits across instances', () => {
  it('the forgot-password limit (5 a minute) holds for the deployment, whichever instance answers', async () => {
    const codes: number[] = [];
    for (const app of [first, second, first, second, first, second, first])
      codes.push((await ask(app)).statusCode);
    expect(codes).toEqual([200, 200, 200, 200, 200, 429, 429]);
    const refused = await ask(second);
    expect(Number(refused.headers['retry-after'])).toBeGreaterThan(0);
    expect(Number(refused.headers['retry-after'])).toBeLessThanOrEqual(60);
    // Another deployment on the same database counts its own.
    expect((await ask(elsewhere)).statusCode).toBe(200);
  });

  it('parallel requests are counted exactly: 20 at once get 5 answers and 15 refusals', async () => {
    const other = { ...config, rateLimitNamespace: `${deployment}-parallel` };
    const apps = [await buildApp({ database, config: other }), await buildApp({ database, config: other })];
    try {
      const codes = await Promise.all(Array.from({ length: 20 }, (_, i) => ask(apps[i % 2] as typeof first)));
      const byCode = codes.reduce<Record<number, number>>((m, r) => {
        m[r.statusCode] = (m[r.statusCode] ?? 0) + 1;
        return m;
      }, {});
      expect(byCode).toEqual({ 200: 5, 429: 15 });
    } finally {
      await Promise.all(apps.map((a) => a.close()));
    }
  });
});
