import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  ApiError,
  GENERIC_ERROR_MESSAGE,
  request,
  setUnauthorizedHandler,
  toApiError,
} from './api-client.ts';
import { toErrorInfo } from './error-block.tsx';

describe('toApiError', () => {
  it('keeps the server’s message and errors map of a 4xx as known', () => {
    const error = toApiError(400, {
      message: 'Check the fields.',
      errors: { name: ['Required.', 'Too short.'] },
    });
    expect(error.isKnown).toBe(true);
    expect(error.fieldError('name')).toBe('Required., Too short.');
    expect(error.fieldError('missing', 'name')).toBe('Required., Too short.');
    expect(error.joinedErrors()).toBe('Required. Too short.');
  });
  it('treats a 5xx as unknown', () => {
    expect(toApiError(500, { message: 'boom' }).isKnown).toBe(false);
  });
  it('replaces a body that is not an error answer by the generic message', () => {
    const error = toApiError(502, '<html>Bad gateway</html>');
    expect(error.message).toBe(GENERIC_ERROR_MESSAGE);
    expect(error.isKnown).toBe(false);
  });
  it('carries the retry time of a 429', () => {
    expect(toApiError(429, { message: 'Too many', retryAfterSeconds: 900 }).retryAfterSeconds).toBe(900);
  });
});

describe('toErrorInfo', () => {
  it('shows the joined errors map of a known error (spec 000 section 5)', () => {
    const info = toErrorInfo(new ApiError(400, 'Invalid', { errors: { a: ['One.'], b: ['Two.'] } }));
    expect(info).toEqual({ message: 'One. Two.', isKnown: true });
  });
  it('never marks a thrown Error as known', () => {
    expect(toErrorInfo(new TypeError('x is undefined')).isKnown).toBe(false);
  });
});

describe('request', () => {
  afterEach(() => {
    vi.unstubAllGlobals();
    setUnauthorizedHandler(() => {});
  });

  const respond = (status: number, body: unknown) =>
    vi.fn(
      async () =>
        new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } }),
    );

  it('sends JSON with the same-origin cookie and returns the parsed answer', async () => {
    const fetchMock = respond(200, { ok: true });
    vi.stubGlobal('fetch', fetchMock);
    await expect(request('/api/x', { method: 'POST', body: { a: 1 } })).resolves.toEqual({ ok: true });
    const [, init] = fetchMock.mock.calls[0] as unknown as [string, RequestInit];
    expect(init.credentials).toBe('same-origin');
    expect(init.body).toBe('{"a":1}');
    expect((init.headers as Record<string, string>)['Content-Type']).toBe('application/json');
  });

  it('reports a 401 to the app unless the call expects it', async () => {
    const onUnauthorized = vi.fn();
    setUnauthorizedHandler(onUnauthorized);
    vi.stubGlobal('fetch', respond(401, { message: 'You are not signed in.' }));
    await expect(request('/api/users')).rejects.toBeInstanceOf(ApiError);
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
    await expect(request('/api/auth/login', { expectUnauthorized: true })).rejects.toMatchObject({
      status: 401,
    });
    expect(onUnauthorized).toHaveBeenCalledTimes(1);
  });

  it('turns a network failure into a known, explained error', async () => {
    vi.stubGlobal(
      'fetch',
      vi.fn(async () => {
        throw new TypeError('Failed to fetch');
      }),
    );
    await expect(request('/api/status')).rejects.toMatchObject({ status: 0, isKnown: true });
  });
});
