/**
 * Requests to the app as one signed-in user, without the network (`app.inject`): how the demo's files and images are
 * seeded through the product's own API at the first start. JSON bodies, or a FormData for multipart uploads.
 */
import type { FastifyInstance } from 'fastify';

export type DemoCall = (
  method: 'GET' | 'POST',
  url: string,
  body?: FormData | Record<string, unknown>,
) => Promise<{ status: number; json: unknown }>;

function cookieOf(setCookie: string | string[] | undefined): string {
  const all = Array.isArray(setCookie) ? setCookie : setCookie ? [setCookie] : [];
  return all.map((c) => c.split(';')[0]).join('; ');
}

export async function demoApi(app: FastifyInstance, username: string, password: string): Promise<DemoCall> {
  const login = await app.inject({ method: 'POST', url: '/api/auth/login', payload: { username, password } });
  if (login.statusCode !== 200) throw new Error(`Demo sign-in of ${username} failed: ${login.statusCode}`);
  const cookie = cookieOf(login.headers['set-cookie']);
  return async (method, url, body) => {
    let payload: string | Buffer | undefined;
    const headers: Record<string, string> = { cookie };
    if (body instanceof FormData) {
      // The platform's own multipart encoding of the form, as a browser would send it.
      const request = new Request('http://localhost/', { method: 'POST', body });
      payload = Buffer.from(await request.arrayBuffer());
      headers['content-type'] = request.headers.get('content-type') ?? '';
    } else if (body !== undefined) {
      payload = JSON.stringify(body);
      headers['content-type'] = 'application/json';
    }
    const res = await app.inject({ method, url, headers, ...(payload === undefined ? {} : { payload }) });
    let json: unknown = null;
    try {
      json = res.json();
    } catch {
      json = res.body;
    }
    return { status: res.statusCode, json };
  };
}
