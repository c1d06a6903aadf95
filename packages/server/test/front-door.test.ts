/** The front door: a new user opening the site's address gets the app, not JSON. */
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, testApp } from './helpers.ts';

const PAGE = '<!doctype html><html><body><div id="root"></div></body></html>';
let ctx: TestContext;
let webDist: string;

beforeAll(async () => {
  // A web build of its own, so the test runs whether or not the real one was built.
  webDist = mkdtempSync(join(tmpdir(), 'guildhall-web-'));
  writeFileSync(join(webDist, 'index.html'), PAGE);
  mkdirSync(join(webDist, 'assets'));
  writeFileSync(join(webDist, 'assets', 'app-1234.js'), 'export {};');
  ctx = await testApp({ webDist });
});
afterAll(async () => {
  await ctx.close();
  rmSync(webDist, { recursive: true, force: true });
});

describe('GET /', () => {
  it('answers the app page, revalidated on every visit', async () => {
    for (const url of ['/', '/?next=%2Fa%2Fusers']) {
      const res = await ctx.app.inject({ method: 'GET', url });
      expect(res.statusCode, url).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.headers['cache-control']).toBe('no-cache');
      expect(res.body).toBe(PAGE);
    }
  });

  it('still answers app routes with the page, assets as files, and a missing asset or API route with a 404', async () => {
    const page = await ctx.app.inject({ method: 'GET', url: '/micronet/list/contacts/list' });
    expect(page.statusCode).toBe(200);
    expect(page.body).toBe(PAGE);
    const asset = await ctx.app.inject({ method: 'GET', url: '/assets/app-1234.js' });
    expect(asset.statusCode).toBe(200);
    expect(asset.headers['cache-control']).toContain('immutable');
    expect((await ctx.app.inject({ method: 'GET', url: '/assets/gone.js' })).statusCode).toBe(404);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/not-a-route' })).statusCode).toBe(404);
  });
});
