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
