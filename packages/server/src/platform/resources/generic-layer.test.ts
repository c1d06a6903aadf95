/** The generic layer's smaller contracts: list window names, open decimal ranges, view templates. */
import {
  DECIMAL_RANGE_OPEN_END,
  DECIMAL_RANGE_OPEN_START,
  fillServerCall,
  type ListResponse,
  VIEW_TEMPLATE_COMPONENTS,
  VIEW_TEMPLATES,
} from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { client, seedTenant, signIn, type TestContext, testApp } from '../../../test/helpers.ts';

let ctx: TestContext;
let api: ReturnType<typeof client>;
const base = '/api/setup/samples';
const sample = (Name: string, over: Record<string, unknown> = {}) => ({
  Name,
  Status: 'open',
  IsActive: true,
  Quantity: 1,
  Price: 100,
  ...over,
});

beforeAll(async () => {
  ctx = await testApp();
  const a = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, a.admin)).cookie);
  for (const name of ['Ant', 'Bee', 'Cat', 'Dog', 'Eel']) {
    const res = await api.post(`${base}/sampleSave`, sample(name));
    expect(res.statusCode, res.body).toBe(200);
  }
});
afterAll(() => ctx.close());

describe('list window', () => {
  const names = (res: { json(): unknown }) => (res.json() as ListResponse).Results.map((r) => r.Name);

  it('takes skip and pageSize as it takes $skip and $top', async () => {
    const plain = await api.get(`${base}?skip=1&pageSize=2&$orderby=Name`);
    expect(plain.statusCode, plain.body).toBe(200);
    expect(names(plain)).toEqual(['Bee', 'Cat']);
    const dollar = await api.get(`${base}?$skip=1&$top=2&$orderby=Name`);
    expect(names(dollar)).toEqual(['Bee', 'Cat']);
    const posted = await api.post(`${base}/sampleData?skip=3&pageSize=5&$orderby=Name`, {});
    expect(names(posted)).toEqual(['Dog', 'Eel']);
    expect((posted.json() as ListResponse).TotalRecordAvailable).toBe(5);
  });

  it('refuses the two names of one value when they disagree, and agrees when they match', async () => {
    const clash = await api.get(`${base}?skip=1&$skip=2`);
    expect(clash.statusCode).toBe(400);
    expect(clash.json().message).toBe('Give $skip or skip, not both with different values.');
    const top = await api.get(`${base}?pageSize=1&$top=3`);
    expect(top.statusCode).toBe(400);
    const same = await api.get(`${base}?skip=4&$skip=4&$orderby=Name`);
    expect(names(same)).toEqual(['Eel']);
  });
});

describe('decimal ranges', () => {
  it('stores open bounds as the specification writes them (-2147483647 and 2147483647)', async () => {
    for (const range of [
      { StartValue: DECIMAL_RANGE_OPEN_START, EndValue: DECIMAL_RANGE_OPEN_END },
      { StartValue: DECIMAL_RANGE_OPEN_START, EndValue: 12.5 },
      { StartValue: 0.25, EndValue: DECIMAL_RANGE_OPEN_END },
    ]) {
      const res = await api.post(
        `${base}/sampleSave`,
        sample(`Range ${range.StartValue} ${range.EndValue}`, { ScoreRange: range }),
      );
      expect(res.statusCode, res.body).toBe(200);
      const id = res.json().Data.SampleId;
      const got = await api.post(`${base}/sampleGet`, { id });
      expect(got.json().ScoreRange).toEqual(range);
    }
  });

  it('takes an open bound sent empty (null) as open, and still refuses a start after the end', async () => {
    const res = await api.post(
      `${base}/sampleSave`,
      sample('Open by null', { ScoreRange: { StartValue: null, EndValue: 3 } }),
    );
    expect(res.statusCode, res.body).toBe(200);
    expect(res.json().Data.ScoreRange).toEqual({ StartValue: DECIMAL_RANGE_OPEN_START, EndValue: 3 });
    const bad = await api.post(
      `${base}/sampleSave`,
      sample('Backwards', { ScoreRange: { StartValue: 5, EndValue: 2 } }),
    );
    expect(bad.statusCode).toBe(400);
    const beyond = await api.post(
      `${base}/sampleSave`,
      sample('Beyond', { ScoreRange: { StartValue: -3e9, EndValue: 2 } }),
    );
    expect(beyond.statusCode).toBe(400);
  });
});

describe('view templates', () => {
  it('name only dialog components the web has', async () => {
    for (const [key, template] of Object.entries(VIEW_TEMPLATES)) {
      expect(VIEW_TEMPLATE_COMPONENTS, key).toContain(template.Component);
      const res = await api.get(`/a/ViewTemplates/Index/${encodeURIComponent(key)}`);
      expect(res.statusCode, key).toBe(200);
    }
  });
});

describe('server call with confirm', () => {
  it("describes the users list's row action, and the path it fills from a row answers as the action expects", async () => {
    const list = await api.post('/api/setup/users/userData?$top=10', {});
    expect(list.statusCode, list.body).toBe(200);
    const actions =
      (list.json() as ListResponse).ListViewItems.find((c) => c.type === 'Actions')?.actions ?? [];
    const reset = actions.find((a) => a.key === 'sendPasswordReset');
    expect(reset).toMatchObject({
      kind: 'serverCall',
      permission: 'users.manage',
      call: { method: 'POST', path: '/api/users/{UserId}/send-password-reset' },
    });
    const row = (list.json() as ListResponse).Results[0] as Record<string, unknown>;
    const path = fillServerCall(reset?.call?.path ?? '', row);
    expect(path).toBe(`/api/users/${row.UserId}/send-password-reset`);
    const answer = await api.post(path ?? '');
    expect(answer.statusCode, answer.body).toBe(200);
  });
});
