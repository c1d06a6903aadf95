import { defineConfig } from 'vitest/config';

/** Browser tests: each spec file boots the built app on a clone of a migrated database and drives Chromium. */
export default defineConfig({
  test: {
    name: 'e2e',
    root: import.meta.dirname,
    include: ['specs/**/*.spec.ts'],
    globalSetup: ['../packages/server/test/global-setup.ts'],
    testTimeout: 60_000,
    hookTimeout: 90_000,
    pool: 'forks',
    maxWorkers: 2,
    // A screen that waits on the server takes longer than Vitest's default second when two specs share two cores.
    expect: { poll: { timeout: 15_000 } },
  },
});
