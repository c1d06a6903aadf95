import { afterAll, beforeAll, expect } from 'vitest';
import type { AppConfig } from '../../packages/server/src/platform/config.ts';
import { boot, type Running } from './boot.ts';

/**
 * The app and the browser of one spec file: booted before its tests (after the hooks registered before this call,
 * so `overrides` may read what they started, e.g. a test SMTP server) and closed after them. The answer stands for
 * the booted app from the first test on.
 */
export function bootForFile(overrides?: () => Partial<AppConfig>): Running {
  let booted: Running | undefined;
  beforeAll(async () => {
    booted = await boot(overrides?.());
  });
  afterAll(async () => {
    await booted?.close();
  });
  return new Proxy({} as Running, {
    get(_, key) {
      if (!booted) throw new Error('The app is not booted yet: use it inside a test or a hook');
      const value = Reflect.get(booted, key);
      return typeof value === 'function' ? value.bind(booted) : value;
    },
  });
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
