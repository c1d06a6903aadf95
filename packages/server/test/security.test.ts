import Fastify from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { registerApiSecurity } from '../src/platform/security.ts';
import { client, seedTenant, signIn, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
});
afterAll(() => ctx.close());

describe('security basics', () => {
  it('sends CSP with frame-ancestors, nosniff and HSTS headers on every answer, errors included', async () => {
    const { cookie } = await signIn(ctx.app, t.admin);
    const list = '/api/contacts/contacts/contactData?$top=5&$skip=0';
    const answers = [
      await ctx.app.inject({ method: 'POST', url: list, payload: {}, headers: { cookie } }),
      await ctx.app.inject({ method: 'GET', url: '/api/no-such-thing' }),
      await ctx.app.inject({ method: 'POST', url: list, payload: {} }),
    ];
    expect(answers.map((r) => r.statusCode)).toEqual([200, 404, 401]);
    for (const res of answers) {
      expect(res.headers['content-security-policy']).toBe(
        "default-src 'self';script-src 'self' https://js.stripe.com https://*.js.stripe.com;" +
          "style-src 'self' 'unsafe-inline';img-src 'self' data: blob:;font-src 'self' data:;" +
          "connect-src 'self' https://api.stripe.com;" +
          'frame-src https://js.stripe.com https://*.js.stripe.com https://hooks.stripe.com;' +
          "object-src 'none';base-uri 'self';form-action 'self';frame-ancestors 'none'",
      );
      expect(res.headers['x-content-type-options']).toBe('nosniff');
      expect(res.headers['strict-transport-security']).toBe('max-age=15552000; includeSubDomains');
      expect(res.headers['x-frame-options']).toBe('SAMEORIGIN');
      expect(res.headers['referrer-policy']).toBe('no-referrer');
      expect(res.headers['cross-origin-opener-policy']).toBe('same-origin');
    }
  });

  it('refuses state-changing requests from another origin, and accepts same-origin ones', async () => {
    const { cookie } = await signIn(ctx.app, t.admin);
    const body = { Message: 'from elsewhere', Level: 'info' };
    const cross = await ctx.app.inject({
      method: 'PUT',
      url: '/api/status',
      headers: { cookie, origin: 'https://evil.example', host: 'guildhall.test' },
      payload: body,
    });
    expect(cross.statusCode).toBe(403);
    const site = await ctx.app.inject({
      method: 'PUT',
      url: '/api/status',
      headers: { cookie, 'sec-fetch-site': 'cross-site' },
      payload: body,
    });
    expect(site.statusCode).toBe(403);
    const garbage = await ctx.app.inject({
      method: 'PUT',
      url: '/api/status',
      headers: { cookie, origin: 'not a url' },
      payload: body,
    });
    expect(garbage.statusCode).toBe(403);
    const same = await ctx.app.inject({
      method: 'PUT',
      url: '/api/status',
      headers: { cookie, origin: 'http://guildhall.test', host: 'guildhall.test' },
      payload: body,
    });
    expect(same.statusCode).toBe(200);
  });

  it('answers malformed JSON, wrong types and oversize bodies with a clear 4xx and no stack trace', async () => {
    const bad = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"username":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ message: 'The request body is not valid JSON.' });
    const types = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      payload: { username: 42, password: [] },
    });
    expect(types.statusCode).toBe(400);
    expect(Object.keys(types.json().errors)).toEqual(expect.arrayContaining(['username', 'password']));
    const huge = await ctx.app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ username: 'x'.repeat(2 * 1024 * 1024), password: 'y' }),
    });
    expect(huge.statusCode).toBe(413);
    for (const r of [bad, types, huge]) expect(r.body).not.toMatch(/at .*\.ts:\d+/);
  });

  it('answers unknown API paths with a JSON 404', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/api/nothing/here' });
    expect(res.statusCode).toBe(404);
    expect(res.json()).toEqual({ message: 'Not found.' });
  });

  it('requires a session on every non-public route', async () => {
    for (const r of ctx.app.apiRoutes.filter((x) => x.permission !== 'public')) {
      const res = await ctx.app.inject({
        method: r.method as 'GET',
        url: r.url.replace(/:(\w+)/g, '1'),
        payload: r.method === 'GET' ? undefined : {},
      });
      expect(res.statusCode, `${r.method} ${r.url}`).toBe(401);
    }
  });

  it('refuses to register a route that declares no permission', async () => {
    const app = Fastify();
    await expect(
      app
        .register(async (api) => {
          registerApiSecurity(api, { oneTrip: 0, usual: 0 });
          api.get('/api/unguarded', async () => 'open');
        })
        .ready(),
    ).rejects.toThrow(/declares no permission/);
  });

  it('describes every API route in the OpenAPI document at /api/docs', async () => {
    const doc = (await ctx.app.inject({ method: 'GET', url: '/api/docs/json' })).json();
    for (const r of ctx.app.apiRoutes) {
      const path = r.url.replace(/:(\w+)/g, '{$1}');
      expect(doc.paths[path]?.[r.method.toLowerCase()], `${r.method} ${r.url}`).toBeDefined();
    }
    const ui = await ctx.app.inject({ method: 'GET', url: '/api/docs' });
    expect(ui.statusCode).toBeLessThan(400);
  });

  it('keeps the member out of back-office routes', async () => {
    const api = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    for (const url of [
      '/api/setup/users',
      '/api/audit',
      '/api/mail/outbox',
      '/api/setup/terms/current',
      '/api/Setup/TermsofUse',
    ]) {
      expect((await api.get(url)).statusCode, url).toBe(403);
    }
  });
});

describe('serving the web app', () => {
  it('answers app routes with the page, and a missing asset with a 404', async () => {
    const { existsSync } = await import('node:fs');
    const { join } = await import('node:path');
    if (!existsSync(join(ctx.config.webDist, 'index.html'))) return; // the web app is built by npm start and npm test
    const page = await ctx.app.inject({ method: 'GET', url: '/a/users' });
    expect(page.statusCode).toBe(200);
    expect(page.headers['content-type']).toContain('text/html');
    const missing = await ctx.app.inject({ method: 'GET', url: '/assets/chunk-that-does-not-exist.js' });
    expect(missing.statusCode).toBe(404);
    const api = await ctx.app.inject({ method: 'GET', url: '/api/not-a-route' });
    expect(api.statusCode).toBe(404);
    expect(api.json()).toEqual({ message: 'Not found.' });
  });
});
