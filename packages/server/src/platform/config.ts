import { resolve } from 'node:path';

export interface AppConfig {
  port: number;
  host: string;
  /** PGlite data folder (ignored when databaseUrl is set). */
  dataDir: string;
  databaseUrl: string | undefined;
  seedDemo: boolean;
  /** smtp://user:pass@host:port — without it mail is kept in the outbox only. */
  smtpUrl: string | undefined;
  mailFrom: string;
  /** Address users reach the app at; used in links sent by email. */
  publicUrl: string;
  /** Folder of the built web app; served when present. */
  webDist: string;
  logLevel: string;
  /** Session lifetime. */
  sessionTtlMs: number;
  /**
   * The proxies whose forwarded headers (X-Forwarded-For, -Proto, -Host) are believed: addresses, CIDR ranges or
   * the names `loopback`, `linklocal`, `uniquelocal`. Empty: none, the client is the connection's peer.
   */
  trustProxy: string[];
  /** `s3://bucket?endpoint=…&region=…`: files in S3-compatible object storage instead of the data folder. */
  storageUrl?: string | undefined;
  /**
   * The rate limits' counters are shared by every instance that names the same namespace (all of one deployment:
   * empty by default). Tests give each app one of its own, as separate deployments on one database.
   */
  rateLimitNamespace?: string | undefined;
  /**
   * A change of a custom field's definition that its records' search documents read (made searchable, published,
   * deleted) rewrites them at once when at most this many records have a value, else in a background job (200).
   */
  searchRefreshInlineLimit?: number | undefined;
  /** Another Stripe API server for the card gateway (a local fake in tests and demos); absent: Stripe's own. */
  stripeApiUrl?: string | undefined;
}

const root = resolve(import.meta.dirname, '../../../..');

export function loadConfig(env: NodeJS.ProcessEnv = process.env): AppConfig {
  const port = Number(env.PORT ?? 3000);
  return {
    port,
    host: env.HOST ?? '0.0.0.0',
    dataDir: resolve(env.DATA_DIR ?? resolve(root, 'data')),
    databaseUrl: env.DATABASE_URL || undefined,
    seedDemo: env.SEED_DEMO !== 'false',
    smtpUrl: env.SMTP_URL || undefined,
    mailFrom: env.MAIL_FROM ?? 'Guildhall <no-reply@guildhall.local>',
    publicUrl: env.PUBLIC_URL ?? `http://localhost:${port}`,
    webDist: env.WEB_DIST ?? resolve(root, 'packages/web/dist'),
    logLevel: env.LOG_LEVEL ?? 'info',
    sessionTtlMs: Number(env.SESSION_TTL_HOURS ?? 12) * 3_600_000,
    trustProxy: (env.TRUST_PROXY ?? '')
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean),
    storageUrl: env.STORAGE_URL || undefined,
    stripeApiUrl: env.STRIPE_API_URL || undefined,
    searchRefreshInlineLimit: env.SEARCH_REFRESH_INLINE_LIMIT
      ? Number(env.SEARCH_REFRESH_INLINE_LIMIT)
      : undefined,
  };
}
