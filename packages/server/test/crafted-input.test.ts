/**
 * Crafted input answered with a 400 (or 413) and a clear message, never a 500: JSON nested thousands deep, a save
 * that breaks a database constraint, an `in` filter with more values than a statement can carry, a body too large
 * (answered with Connection: close, since the rest of it was never read).
 */
import { MAX_FILTER_VALUES } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_JSON_DEPTH } from '../src/platform/security.ts';
import { client, seedTenant, signIn, type TenantWithUsers, type TestContext, testApp } from './helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let api: ReturnType<typeof client>;
let cookie = '';

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  cookie = (await signIn(ctx.app, t.admin)).cookie;
  api = client(ctx.app, cookie);
});
afterAll(() => ctx.close());

/** `{"a":{"a":…{"a":1}}}`, `levels` objects deep, written as text (JSON.stringify would recurse as deep). */
function nested(levels: number): string {
  return `${'{"a":'.repeat(levels - 1)}{"a":1}${'}'.repeat(levels - 1)}`;
}

const post = (url: string, body: string) =>
  ctx.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/json' },
    payload: body,
  });

describe('JSON nested too deep', () => {
  it.each([
    [
      'contactSave',
      '/api/contacts/contacts/contactSave',
      (inner: string) => `{"FirstName":"Ada","Notes":${inner}}`,
    ],
    [
      'UserWidgetSettings',
      '/api/settings/UserWidgetSettings',
      (inner: string) => `{"ScreenName":"Dashboard","Settings":${inner}}`,
    ],
    [
      'sampleDuplicateCheck',
      '/api/setup/samples/sampleDuplicateCheck',
      (inner: string) => `{"Name":"x","Extra":${inner}}`,
    ],
  ])('%s: 5,000 and 3,000 levels are refused with a 400', async (_name, url, wrap) => {
    for (const levels of [5000, 3000, MAX_JSON_DEPTH + 1]) {
      const res = await post(url, wrap(nested(levels)));
      expect(res.statusCode, `${levels}: ${res.body}`).toBe(400);
      expect(res.json().message).toBe(
        `The request body is nested too deeply (at most ${MAX_JSON_DEPTH} levels).`,
      );
    }
  });

  it('accepts widget settings nested as deep as the limit allows', async () => {
    const res = await post(
      '/api/settings/UserWidgetSettings',
      `{"ScreenName":"Dashboard","Settings":${nested(MAX_JSON_DEPTH - 1)}}`,
    );
    expect(res.statusCode, res.body).toBe(200);
  });
});

describe('database constraints', () => {
  it('answers a help text saved without Content with a 400 naming the field', async () => {
    const res = await api.post('/api/setup/helpTexts/helpTextSave', {
      StateName: 'NoContent',
      Title: 'No content',
    });
    expect(res.statusCode, res.body).toBe(400);
    expect(res.json().errors).toHaveProperty('Content');
    expect(res.json().message).toMatch(/Content/);
  });
});

describe('list filters', () => {
  it('refuses an in filter with 65,534 values, and with one more than the cap, with a clear 400', async () => {
    for (const n of [65_534, MAX_FILTER_VALUES + 1]) {
      const res = await api.post('/api/setup/samples/sampleData?$skip=0&$top=10', {
        Id: 9999,
        Criteria: [{ PropertyName: 'Price', Operator: 'in', Value: Array.from({ length: n }, (_, i) => i) }],
      });
      expect(res.statusCode, res.body.slice(0, 200)).toBe(400);
      expect(res.json().message).toMatch(/at most 1,000 values/);
      expect(res.json().errors).toHaveProperty('Price');
    }
  });

  it('accepts an in filter at the cap', async () => {
    const res = await api.post('/api/setup/samples/sampleData?$skip=0&$top=10', {
      Id: 9999,
      Criteria: [
        {
          PropertyName: 'Price',
          Operator: 'in',
          Value: Array.from({ length: MAX_FILTER_VALUES }, (_, i) => i),
        },
      ],
    });
    expect(res.statusCode, res.body.slice(0, 200)).toBe(200);
  });
});

describe('bodies too large', () => {
  it('answers 413 with Connection: close', async () => {
    const res = await post(
      '/api/settings/UserWidgetSettings',
      `{"ScreenName":"x","Settings":"${'a'.repeat(2 * 1024 * 1024)}"}`,
    );
    expect(res.statusCode).toBe(413);
    expect(res.headers.connection).toBe('close');
    expect(res.json().message).toBe('The request body is too large.');
  });
});

describe('upload names', () => {
  /** One file part named `name`, the name sent as UTF-8 as browsers do. */
  const uploadNamed = (url: string, name: string, bytes: string) => {
    const boundary = '----guildhall-names';
    return ctx.app.inject({
      method: 'POST',
      url,
      headers: { cookie, 'content-type': `multipart/form-data; boundary=${boundary}` },
      payload: Buffer.from(
        `--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="${name}"\r\nContent-Type: text/plain\r\n\r\n${bytes}\r\n--${boundary}--\r\n`,
        'utf8',
      ),
    });
  };
  const invisible = /[\u202a-\u202e\u2066-\u2069\u200b-\u200f\u061c\ufeff]/;

  it('keep no right-to-left override or other bidi and zero-width characters (file library)', async () => {
    const res = await uploadNamed(
      '/api/files/upload',
      'minutes\u202Etxt.\u200Bexe\u2066.txt',
      'Minutes of the board',
    );
    expect(res.statusCode, res.body).toBe(200);
    const [file] = res.json();
    expect(file.Name).toBe('minutestxt.exe.txt');
    expect(file.Name).not.toMatch(invisible);
  });

  it('keep no right-to-left override or other bidi and zero-width characters (contacts import)', async () => {
    const res = await uploadNamed(
      '/api/contacts/import/upload',
      'members\u202Evsc.csv',
      'FirstName,LastName\nAda,Lovelace\n',
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().FileName).toBe('membersvsc.csv');
  });
});
