/**
 * R3: requests of two tenants interleaved over a pool of 2 connections (on real PostgreSQL with
 * TEST_DATABASE_URL; on PGlite the single connection is shared the same way) never see the other tenant's rows.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, seedTenant, signIn, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';

let ctx: TestContext;
let a: TenantWithUsers;
let b: TenantWithUsers;

beforeAll(async () => {
  ctx = await testApp({}, 2);
  a = await seedTenant(ctx.database);
  b = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

describe('R3: interleaved tenants over a small pool', () => {
  it('answers each tenant only its own rows under concurrency', async () => {
    const apiA = client(ctx.app, (await signIn(ctx.app, a.admin)).cookie);
    const apiB = client(ctx.app, (await signIn(ctx.app, b.admin)).cookie);
    const names = (t: TenantWithUsers) => [t.admin.username, t.staff.username, t.member.username];
    const rounds = 150;
    const calls: Promise<void>[] = [];
    for (let i = 0; i < rounds; i++) {
      for (const [api, own, other] of [
        [apiA, a, b],
        [apiB, b, a],
      ] as const) {
        const url = i % 3 === 0 ? '/api/setup/users' : i % 3 === 1 ? '/api/auth/me' : '/api/audit?limit=50';
        calls.push(
          api.get(url).then((res) => {
            expect(res.statusCode).toBe(200);
            for (const n of names(other)) expect(res.body).not.toContain(n);
            expect(res.body).not.toContain(other.tenant.id);
            if (url === '/api/setup/users') for (const n of names(own)) expect(res.body).toContain(n);
          }),
        );
      }
    }
    await Promise.all(calls);
    expect(calls).toHaveLength(rounds * 2);
  });
});
