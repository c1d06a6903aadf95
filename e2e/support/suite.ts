import { afterAll, beforeAll, expect } from 'vitest';
import type { AppConfig } from '../../packages/server/src/platform/config.ts';
import { type Inbox, startInbox } from '../../packages/server/test/smtp-inbox.ts';
import { boot, type Running } from './boot.ts';

/**
 * Something a spec file starts once before its tests and closes after them (the app, a test SMTP server, a fake
 * payment provider), in the order of the calls, so a later one may read an earlier one (`() => ({ smtpUrl:
 * inbox.url })`). The answer stands for the started thing from the first test (or later hook) on.
 */
export function forFile<T extends { close(): Promise<void> }>(start: () => Promise<T>): T {
  let started: T | undefined;
  beforeAll(async () => {
    started = await start();
  });
  afterAll(async () => {
    await started?.close();
  });
  return new Proxy({} as T, {
    get(_, key) {
      if (!started) throw new Error('Not started yet: use it inside a test or a hook');
      const value = Reflect.get(started, key);
      return typeof value === 'function' ? value.bind(started) : value;
    },
  });
}

/** The app and the browser of one spec file (`overrides`: read when it starts, e.g. a test SMTP server's address). */
export function bootForFile(overrides?: () => Partial<AppConfig>): Running {
  return forFile(() => boot(overrides?.()));
}

/** A test SMTP server for the spec file, started before the app that mails to it. */
export function inboxForFile(): Inbox {
  return forFile(startInbox);
}

/** Retries an assertion until it holds (15 s at most). */
export const poll = <T>(fn: () => T | Promise<T>, timeout = 15_000) => expect.poll(fn, { timeout });

/** A record as the generic routes read and write it. */
export type Model = Record<string, unknown>;

/** `days` from now at `hourUtc`:00 UTC, as ISO text. */
export const inDays = (days: number, hourUtc: number) => {
  const d = new Date(Date.now() + days * 86_400_000);
  d.setUTCHours(hourUtc, 0, 0, 0);
  return d.toISOString();
};
