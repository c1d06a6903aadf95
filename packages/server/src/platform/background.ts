import type { FastifyBaseLogger } from 'fastify';

/**
 * Work that runs after the answer has gone (a mail whose sending must not show in the answer's timing). Failures
 * are logged; closing the app waits for the work still running.
 */
export interface Background {
  run(name: string, work: () => Promise<unknown>): void;
  /** Resolves when every piece of work started so far has ended. */
  settled(): Promise<void>;
}

export function createBackground(log: FastifyBaseLogger): Background {
  const pending = new Set<Promise<unknown>>();
  return {
    run(name, work) {
      const p = Promise.resolve()
        .then(work)
        .catch((err: unknown) => log.error({ err }, `background work failed: ${name}`))
        .finally(() => pending.delete(p));
      pending.add(p);
    },
    async settled() {
      while (pending.size > 0) await Promise.allSettled([...pending]);
    },
  };
}
