import { mkdtempSync, rmSync } from 'node:fs';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Database } from '@guildhall/db';
import { type App, buildApp } from '@guildhall/server';
import { type Browser, type BrowserContext, chromium, type Page } from 'playwright-core';
import { type AppConfig, loadConfig } from '../../packages/server/src/platform/config.ts';
import { testDatabase } from '../../packages/server/test/helpers.ts';

export interface Running {
  baseUrl: string;
  app: App;
  database: Database;
  browser: Browser;
  /** A fresh browser context (own cookies) with a page open. */
  /** A page in a fresh context; `timezoneId` sets the browser's time zone (the default is the machine's). */
  newPage(
    viewport?: { width: number; height: number },
    options?: { timezoneId?: string; locale?: string },
  ): Promise<{ context: BrowserContext; page: Page }>;
  close(): Promise<void>;
}

export const CHROMIUM_ARGS = [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-quic',
  '--no-first-run',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
];

/** Boots the built app on its own database and port, and a Chromium to drive it (`overrides`: e.g. a test SMTP server). */
export async function boot(overrides: Partial<AppConfig> = {}): Promise<Running> {
  const database = await testDatabase();
  // Files the spec uploads (and exports) live in a folder of its own, removed at the end: never the project's data.
  const dataDir = mkdtempSync(join(tmpdir(), 'gh-e2e-'));
  const config = { ...loadConfig({}), dataDir, smtpUrl: undefined, ...overrides };
  const app = await buildApp({ database, config });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const port = (app.server.address() as AddressInfo).port;
  const baseUrl = `http://127.0.0.1:${port}`;
  app.config.publicUrl = baseUrl;
  const browser = await chromium.launch({
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    args: CHROMIUM_ARGS,
  });
  return {
    baseUrl,
    app,
    database,
    browser,
    async newPage(viewport = { width: 1280, height: 800 }, options = {}) {
      const context = await browser.newContext({ baseURL: baseUrl, viewport, ...options });
      const page = await context.newPage();
      return { context, page };
    },
    async close() {
      await browser.close();
      await app.close();
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
