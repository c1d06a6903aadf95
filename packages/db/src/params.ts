import { createRequire } from 'node:module';

/**
 * node-postgres' own conversion of a value to a parameter (null, bytes, dates, arrays, JSON, text), as its queries
 * use. Both drivers' transactions send parameters this way, so a value means the same on PGlite and PostgreSQL.
 */
export const prepareValue = (
  createRequire(import.meta.url)('pg/lib/utils.js') as {
    prepareValue: (value: unknown) => string | Buffer | null;
  }
).prepareValue;
