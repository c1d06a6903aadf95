import { apiErrorSchema } from '@guildhall/shared';

/** Shown when the server gave no usable message (network failure, 5xx, a body that is not ours). */
export const GENERIC_ERROR_MESSAGE = 'Something went wrong on our side. Try again in a moment.';

export type FieldErrors = Record<string, string[]>;

/**
 * A failed API call: the server's `{ message, errors? }` answer (spec 000 section 8) plus the HTTP status.
 * `isKnown` tells the error block whether the message is meant for the user (a 4xx the server explained)
 * or must be replaced by a generic one.
 */
export class ApiError extends Error {
  readonly status: number;
  readonly errors: FieldErrors;
  readonly retryAfterSeconds: number | undefined;
  readonly isKnown: boolean;

  constructor(
    status: number,
    message: string,
    opts: { errors?: FieldErrors; retryAfterSeconds?: number | undefined; isKnown?: boolean } = {},
  ) {
    super(message);
    this.name = 'ApiError';
    this.status = status;
    this.errors = opts.errors ?? {};
    this.retryAfterSeconds = opts.retryAfterSeconds;
    this.isKnown = opts.isKnown ?? (status >= 400 && status < 500);
  }

  /** Messages of one field (also looked up under `settings.` and similar prefixes), joined for display. */
  fieldError(...names: string[]): string | undefined {
    for (const name of names) {
      const messages = this.errors[name];
      if (messages && messages.length > 0) return messages.join(', ');
    }
    return undefined;
  }

  /** All messages of the errors map joined (spec 000 section 5: a 400 with an errors map shows them joined). */
  joinedErrors(): string {
    return Object.values(this.errors).flat().join(' ');
  }
}

export function isApiError(error: unknown): error is ApiError {
  return error instanceof ApiError;
}

type UnauthorizedHandler = () => void;
let onUnauthorized: UnauthorizedHandler = () => {};

/** The app decides what a 401 means (go to sign-in); the client only reports it. */
export function setUnauthorizedHandler(handler: UnauthorizedHandler): void {
  onUnauthorized = handler;
}

export interface RequestOptions {
  method?: 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';
  body?: unknown;
  signal?: AbortSignal | undefined;
  /** A 401 is an expected answer of this call (sign-in, identity probe): do not send the user to sign-in. */
  expectUnauthorized?: boolean;
}

/** Parses an error answer into an ApiError; exported for tests. */
export function toApiError(status: number, body: unknown): ApiError {
  const parsed = apiErrorSchema.safeParse(body);
  if (!parsed.success) {
    return new ApiError(status, GENERIC_ERROR_MESSAGE, { isKnown: false });
  }
  const { message, errors, retryAfterSeconds } = parsed.data;
  return new ApiError(status, message, {
    errors: errors ?? {},
    retryAfterSeconds,
    isKnown: status >= 400 && status < 500,
  });
}

async function readBody(response: Response): Promise<unknown> {
  if (response.status === 204) return undefined;
  const text = await response.text();
  if (text === '') return undefined;
  const type = response.headers.get('content-type') ?? '';
  if (!type.includes('json')) return text;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}

/** One fetch for every API call: same-origin cookie, JSON both ways, typed errors. */
export async function request<T>(path: string, options: RequestOptions = {}): Promise<T> {
  const { method = 'GET', body, signal, expectUnauthorized = false } = options;
  const headers: Record<string, string> = { Accept: 'application/json' };
  const init: RequestInit = { method, credentials: 'same-origin', headers, signal: signal ?? null };
  if (body !== undefined) {
    headers['Content-Type'] = 'application/json';
    init.body = JSON.stringify(body);
  }

  let response: Response;
  try {
    response = await fetch(path, init);
  } catch (cause) {
    if (cause instanceof DOMException && cause.name === 'AbortError') throw cause;
    throw new ApiError(0, 'We could not reach the server. Check your connection and try again.', {
      isKnown: true,
    });
  }

  const payload = await readBody(response);
  if (response.ok) return payload as T;

  const error = toApiError(response.status, payload);
  if (response.status === 401 && !expectUnauthorized) onUnauthorized();
  throw error;
}

export const api = {
  get: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'GET' }),
  post: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'POST', body }),
  put: <T>(path: string, body?: unknown, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'PUT', body }),
  delete: <T>(path: string, options?: Omit<RequestOptions, 'method' | 'body'>) =>
    request<T>(path, { ...options, method: 'DELETE' }),
};
