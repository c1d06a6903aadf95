/**
 * The store of @fastify/rate-limit kept in the database (`rate_limits`), so that a limit holds for the whole
 * deployment: with the plugin's default in-memory store, each instance behind a load balancer counted on its own and a
 * limit of 5 a minute became 5 per instance. One statement per request increments the caller's counter atomically
 * (a new window starts when the last one has ended) and answers the count and the time left.
 */
import { type Database, rowsOf } from '@guildhall/db';
import { sql } from 'drizzle-orm';

interface Counted {
  current: number;
  ttl: number;
}
type Callback = (error: Error | null, result?: Counted) => void;

/** How often an increment also clears windows that ended more than an hour ago (about one call in 200). */
const SWEEP_EVERY = 200;

export function databaseRateLimitStore(database: Database, namespace = '') {
  let calls = 0;
  return class DatabaseRateLimitStore {
    readonly prefix: string;
    constructor(_options?: unknown, prefix = namespace) {
      this.prefix = prefix;
    }

    incr(key: string, callback: Callback, timeWindow: number): void {
      const id = `${this.prefix}${key}`;
      const sweep = ++calls % SWEEP_EVERY === 0;
      void (async () => {
        if (sweep)
          await database.db.execute(sql`delete from rate_limits where reset_at < now() - interval '1 hour'`);
        const [row] = rowsOf<{ hits: number; ttl: string | number }>(
          await database.db.execute(sql`
            insert into rate_limits (key, hits, reset_at)
            values (${id}, 1, now() + make_interval(secs => ${timeWindow / 1000}))
            on conflict (key) do update set
              hits = case when rate_limits.reset_at <= now() then 1 else rate_limits.hits + 1 end,
              reset_at = case when rate_limits.reset_at <= now() then excluded.reset_at else rate_limits.reset_at end
            returning hits, greatest(0, ceil(extract(epoch from reset_at - now()) * 1000))::bigint as ttl`),
        );
        return { current: Number(row?.hits ?? 1), ttl: Number(row?.ttl ?? timeWindow) };
      })().then(
        (counted) => callback(null, counted),
        (error: Error) => callback(error),
      );
    }

    child(routeOptions: { routeInfo: { method: string; url: string } }): DatabaseRateLimitStore {
      return new DatabaseRateLimitStore(
        undefined,
        `${this.prefix}${routeOptions.routeInfo.method}${routeOptions.routeInfo.url}-`,
      );
    }
  };
}
