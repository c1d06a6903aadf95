import { MESSAGES } from '@guildhall/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';
import { registerConnectionClose } from './connection.ts';

/** An error with an HTTP status and a message meant for the user. */
export class HttpError extends Error {
  readonly status: number;
  readonly errors: Record<string, string[]> | undefined;
  readonly extra: Record<string, unknown> | undefined;
  constructor(
    status: number,
    message: string,
    errors?: Record<string, string[]>,
    extra?: Record<string, unknown>,
  ) {
    super(message);
    this.status = status;
    this.errors = errors;
    this.extra = extra;
  }
}

export const notFound = (): HttpError => new HttpError(404, MESSAGES.notFound);
export const badRequest = (message: string, errors?: Record<string, string[]>): HttpError =>
  new HttpError(400, message, errors);

interface Issue {
  instancePath?: string;
  message?: string;
  params?: { issue?: { path?: PropertyKey[] } };
}

/** Every error answers JSON `{message, errors?}` and never a stack trace. */
export function registerErrorHandling(app: FastifyInstance): void {
  registerConnectionClose(app);
  app.setErrorHandler((err: FastifyError, request, reply) => {
    if (hasZodFastifySchemaValidationErrors(err)) {
      const errors: Record<string, string[]> = {};
      for (const v of err.validation as unknown as Issue[]) {
        const path =
          v.params?.issue?.path?.map(String).join('.') ||
          v.instancePath?.replace(/^\//, '').replaceAll('/', '.') ||
          '_';
        errors[path] = [...(errors[path] ?? []), v.message ?? 'Invalid value.'];
      }
      const message = Object.entries(errors)
        .map(([k, m]) => (k === '_' ? m.join(', ') : `${k}: ${m.join(', ')}`))
        .join('; ');
      return reply.code(400).send({ message: message || 'The request is not valid.', errors });
    }
    if (err instanceof HttpError) {
      return reply
        .code(err.status)
        .send({ message: err.message, ...(err.errors ? { errors: err.errors } : {}), ...err.extra });
    }
    // Database data exceptions (a value PostgreSQL cannot take) are the caller's input, not our failure.
    const pg = postgresError(err);
    if (pg?.code.startsWith('22')) {
      return reply.code(400).send({ message: 'A value in the request is not valid.' });
    }
    // A value too large or too deeply nested for PostgreSQL (program limits): the caller's input too.
    if (pg?.code.startsWith('54')) {
      return reply.code(400).send({ message: 'A value in the request is too large or too deeply nested.' });
    }
    if (pg?.code.startsWith('23')) {
      const { status, message, errors } = constraintViolation(pg);
      return reply.code(status).send({ message, ...(errors ? { errors } : {}) });
    }
    if (isResponseSerializationError(err)) {
      request.log.error({ err }, 'response did not match its schema');
      return reply.code(500).send({ message: 'Something went wrong on our side. It has been logged.' });
    }
    const status = typeof err.statusCode === 'number' ? err.statusCode : 500;
    if (status >= 400 && status < 500) {
      const message =
        err.code === 'FST_ERR_CTP_INVALID_JSON_BODY' || err.name === 'SyntaxError'
          ? 'The request body is not valid JSON.'
          : err.code === 'FST_ERR_CTP_BODY_TOO_LARGE'
            ? 'The request body is too large.'
            : err.message;
      return reply.code(status).send({ message });
    }
    request.log.error({ err }, 'unhandled error');
    return reply.code(500).send({ message: 'Something went wrong on our side. It has been logged.' });
  });
}

interface PostgresError {
  code: string;
  message?: string | undefined;
  column?: string | undefined;
  constraint?: string | undefined;
  detail?: string | undefined;
}

/** The PostgreSQL error (SQLSTATE and its fields), also when wrapped by the query builder. */
function postgresError(err: unknown): PostgresError | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return e as PostgresError;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}

/** `owner_user_id` → `OwnerUserId`: the payload's name of a column (the resource layer's convention). */
export function fieldOfColumn(column: string): string {
  return column
    .split('_')
    .filter(Boolean)
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
}

/**
 * The columns a constraint's detail names: `Key (tenant_id, owner_user_id)=(…)` → [owner_user_id];
 * `Key (tenant_id, lower(email::text))=(…)` → [email]. The tenant is never the caller's field.
 */
function keyColumns(detail: string | undefined): string[] {
  const m = /^Key \((.*?)\)=\(/.exec(detail ?? '');
  if (!m?.[1]) return [];
  return m[1]
    .split(',')
    .map((c) =>
      c
        .trim()
        .replace(/::[a-z ]+/g, '')
        .replace(/^(lower|upper)\(/, '')
        .replace(/[()]/g, ''),
    )
    .filter((c) => /^[a-z_][a-z0-9_]*$/.test(c) && c !== 'tenant_id');
}

/**
 * An integrity constraint the request broke, as a 400 (409 for a duplicate) naming the payload's field, never a
 * 500: a missing required value, a reference to a record that does not exist or is still used, a duplicate, a
 * check.
 */
export function constraintViolation(pg: PostgresError): {
  status: number;
  message: string;
  errors?: Record<string, string[]>;
} {
  const fields = (columns: string[]) => columns.map(fieldOfColumn);
  const named = (names: string[], text: string) =>
    names.length > 0 ? Object.fromEntries(names.map((n) => [n, [text]])) : undefined;
  switch (pg.code) {
    case '23502': {
      // PGlite's errors carry no column field; PostgreSQL's message names it in both.
      const column = pg.column ?? /null value in column "([a-z0-9_]+)"/.exec(pg.message ?? '')?.[1];
      const names = column ? fields([column]) : [];
      const message = names[0] ? `${names[0]} is required.` : 'A required value is missing.';
      return { status: 400, message, errors: named(names, 'This value is required.') };
    }
    case '23503': {
      const names = fields(keyColumns(pg.detail));
      if (/still referenced/.test(pg.detail ?? ''))
        return { status: 400, message: 'The record is still used by other records.' };
      const message = names.length
        ? `${names.join(', ')}: the record it names does not exist.`
        : 'The request names a record that does not exist.';
      return { status: 400, message, errors: named(names, 'The record it names does not exist.') };
    }
    case '23505': {
      const names = fields(keyColumns(pg.detail));
      return {
        status: 409,
        message: 'That record exists already.',
        errors: named(names, 'Another record has this value.'),
      };
    }
    default: {
      const names = pg.column ? fields([pg.column]) : [];
      return {
        status: 400,
        message: names[0]
          ? `${names[0]} is not valid.`
          : 'A value in the request breaks a rule of the record.',
        errors: named(names, 'This value is not valid.'),
      };
    }
  }
}
