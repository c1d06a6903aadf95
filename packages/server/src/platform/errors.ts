import { MESSAGES } from '@guildhall/shared';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors, isResponseSerializationError } from 'fastify-type-provider-zod';

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
    const pgCode = postgresCode(err);
    if (pgCode?.startsWith('22')) {
      return reply.code(400).send({ message: 'A value in the request is not valid.' });
    }
    if (pgCode === '23505') return reply.code(409).send({ message: 'That record exists already.' });
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

/** The SQLSTATE of a PostgreSQL error, also when wrapped by the query builder. */
function postgresCode(err: unknown): string | undefined {
  for (let e: unknown = err, depth = 0; e && depth < 4; depth++) {
    const code = (e as { code?: unknown }).code;
    if (typeof code === 'string' && /^[0-9A-Z]{5}$/.test(code)) return code;
    e = (e as { cause?: unknown }).cause;
  }
  return undefined;
}
