/**
 * One log line per request, at its answer (request-log.ts, decision 0195): the request's method, URL, host and remote
 * address with the answer's status and time, and no "incoming request" line.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type TestContext, testApp } from '../../test/helpers.ts';

const lines: Record<string, unknown>[] = [];
let ctx: TestContext;
beforeAll(async () => {
  ctx = await testApp({}, 4, {
    logger: {
      level: 'info',
      stream: { write: (line: string) => void lines.push(JSON.parse(line) as Record<string, unknown>) },
    },
  });
});
afterAll(() => ctx.close());

describe('the request log', () => {
  it('writes one line per request, at its answer, with the request and the answer', async () => {
    lines.length = 0;
    const res = await ctx.app.inject({ method: 'GET', url: '/api/auth/me?probe=1' });
    const mine = lines.filter((l) => (l.req as { url?: string } | undefined)?.url === '/api/auth/me?probe=1');
    expect(mine).toHaveLength(1);
    const [line] = mine;
    expect(line?.msg).toBe('request completed');
    expect(line?.req).toMatchObject({ method: 'GET', url: '/api/auth/me?probe=1' });
    expect(line?.res).toEqual({ statusCode: res.statusCode });
    expect(typeof line?.responseTime).toBe('number');
    expect(line?.reqId).toBeTypeOf('string');
    expect(lines.some((l) => l.msg === 'incoming request')).toBe(false);
  });
});
