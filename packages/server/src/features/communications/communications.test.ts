import { MERGE_FLAGS, mergeChipHtml, mergeFieldByName, NO_MERGE_FIELDS } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { compileTemplate, Parametrised, SafeHtml } from './render.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;
const base = '/api/communication/templates';

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
});
afterAll(() => ctx.close());

/** Markup that must never survive a save: scripts, event handlers, javascript: and data: URLs, frames, styles. */
const XSS_CORPUS = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<img src="javascript:alert(1)">',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="JaVaScRiPt:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<a href=" javascript:alert(1)">x</a>',
  '<a href="vbscript:msgbox(1)">x</a>',
  '<a href="data:text/html;base64,PHNjcmlwdD5hbGVydCgxKTwvc2NyaXB0Pg==">x</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<svg onload=alert(1)>',
  '<svg><script>alert(1)</script></svg>',
  '<iframe src="https://evil.example"></iframe>',
  '<object data="x.swf"></object>',
  '<embed src="x.swf">',
  '<body onload=alert(1)>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<div style="width: expression(alert(1))">x</div>',
  '<style>@import "https://evil.example/x.css";</style>',
  '<link rel=stylesheet href="https://evil.example/x.css">',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
  '<form action="https://evil.example"><input name=a></form>',
  '<p onclick="alert(1)" onmouseover="alert(1)">x</p>',
  '<math><mtext><table><mglyph><style><img src=x onerror=alert(1)>',
  '<noscript><p title="</noscript><img src=x onerror=alert(1)>">',
  '"><script>alert(1)</script>',
  '<span data-merge-field="Contact.FirstName" onmouseover="alert(1)" data-merge-params="{}">x</span>',
  '<base href="javascript:alert(1)//">',
];
const FORBIDDEN = [
  /<script/i,
  /\son\w+\s*=/i,
  /javascript:/i,
  /vbscript:/i,
  /data:/i,
  /<iframe/i,
  /<object/i,
  /<embed/i,
  /<style/i,
  /<link/i,
  /<meta/i,
  /<form/i,
  /<svg/i,
  /<base/i,
  /expression\(/i,
  /alert\(1\)<\/script/i,
];

function assertClean(html: string) {
  for (const re of FORBIDDEN) expect(html, `${re} in ${html}`).not.toMatch(re);
}

describe('merge fields', () => {
  it('lists the fields of a context with their parameters; the designer gets its block fields', async () => {
    const res = await api.get(`/api/communication/mergefields/${MERGE_FLAGS.RichText}/1/contact`);
    expect(res.statusCode, res.body).toBe(200);
    const fields = res.json() as {
      Name: string;
      GroupName: string;
      IsUber: boolean;
      Parameters: unknown[];
    }[];
    const names = fields.map((f) => f.Name);
    expect(names).toContain('Contact.FirstName');
    expect(names).toContain('Association.Name');
    expect(names).not.toContain('Events.Upcoming');
    const salutation = fields.find((f) => f.Name === 'Contact.Salutation');
    expect(salutation?.Parameters).toContainEqual(
      expect.objectContaining({ Name: 'Style', Type: 'Select', Default: 'informal' }),
    );
    const designer = (
      await api.get(`/api/communication/mergefields/${MERGE_FLAGS.Designer}/2/contact`)
    ).json();
    expect(designer.find((f: { Name: string }) => f.Name === 'Events.Upcoming')?.IsUber).toBe(true);
    // A signature knows no recipient: no contact fields there.
    const sig = (await api.get('/api/communication/mergefields/1/4/signature')).json();
    expect(sig.some((f: { GroupName: string }) => f.GroupName === 'Contact')).toBe(false);
    expect(sig.length).toBeGreaterThan(0);
    // Members do not reach staff tools.
    const member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
    expect((await member.get('/api/communication/mergefields/1/1/contact')).statusCode).toBe(403);
  });

  it('resolves a field with its parameters to its tag, its chip label and its chip', async () => {
    const res = await api.post('/api/communication/resolvemergefield/Contact.Salutation', {
      Style: 'formal',
      Default: 'Dear "member"',
    });
    expect(res.statusCode, res.body).toBe(200);
    const [tag, label, chip] = res.json() as string[];
    expect(tag).toBe('{{ Contact.Salutation | param: "Style", "formal" | default: "Dear \\"member\\"" }}');
    expect(label).toBe('Contact.Salutation (Style: formal)');
    expect(chip).toContain('data-merge-field="Contact.Salutation"');
    const bad = await api.post('/api/communication/resolvemergefield/Contact.Salutation', { Style: 'rude' });
    expect(bad.statusCode).toBe(400);
    expect(bad.json().errors.Style[0]).toMatch(/must be one of informal, formal/);
    const unknown = await api.post('/api/communication/resolvemergefield/Contact.ShoeSize', {});
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toBe(
      'Merge field "Contact.ShoeSize" is not available within the current context',
    );
    expect(NO_MERGE_FIELDS).toBe('No merge fields are available within the current context');
  });

  it('renders strictly: a missing value gives the default, values are escaped, typed braces stay text', () => {
    const first = mergeFieldByName('Contact.FirstName');
    const sal = mergeFieldByName('Contact.Salutation');
    if (!first || !sal) throw new Error('catalogue');
    const html = `<p>Hi ${mergeChipHtml(first, { Default: 'Friend' })}, {{ Contact.Email }} {% endraw %}{{ 7 }}</p><p>${mergeChipHtml(sal, { Style: 'formal', Default: 'Dear member' })}</p><a href="merge:Mailing.UnsubscribeUrl">Unsubscribe</a>`;
    const tpl = compileTemplate(html);
    const salutation = (style: string) => (style === 'formal' ? 'Dear Ms Lovelace' : 'Dear Ada');
    const out = tpl.render({
      'Contact.FirstName': '<b>Ada</b>',
      'Contact.Salutation': new Parametrised((p: Record<string, string>) => salutation(p.Style ?? '')),
      'Mailing.UnsubscribeUrl': 'https://x.test/u/abc?x=1&y=2',
    });
    expect(out).toContain('Hi &lt;b&gt;Ada&lt;/b&gt;,');
    expect(out).toContain('{{ Contact.Email }}');
    expect(out).toContain('{{ 7 }}');
    expect(out).toContain('Dear Ms Lovelace');
    expect(out).toContain('href="https://x.test/u/abc?x=1&amp;y=2"');
    expect(tpl.render({})).toContain('Hi Friend,');
    expect(tpl.render({ 'Contact.FirstName': new SafeHtml('') })).toContain('Hi Friend,');
    expect(() =>
      compileTemplate('<span data-merge-field="Contact.Nope" data-merge-params="{}">x</span>'),
    ).toThrow('Merge field "Contact.Nope" is not available within the current context');
  });
});

describe('templates', () => {
  it('sanitizes every save against an XSS corpus, keeps formatting and chips, refuses unknown merge fields', async () => {
    const body = `<h2 style="color: #1c7ed6">Hello</h2><p><strong>Bold</strong> <a href="https://guildhall.test">link</a> <a href="https://ok.example" target="_blank">ok</a> <img src="https://guildhall.test/a.png" alt="A"> ${mergeChipHtml(mergeFieldByName('Contact.FirstName') as never, { Default: 'Friend' })}</p>${XSS_CORPUS.join('\n')}`;
    const res = await api.post(`${base}/templateSave`, {
      Name: 'Welcome',
      Kind: 'template',
      Purpose: 'general',
      Subject: 'Welcome to the association',
      BodyHtml: body,
    });
    expect(res.statusCode, res.body).toBe(200);
    const saved = (res.json() as { Data: Record<string, unknown> }).Data;
    const got = (await api.post(`${base}/templateGet`, { id: saved.TemplateId })).json() as {
      BodyHtml: string;
    };
    assertClean(got.BodyHtml);
    expect(got.BodyHtml).toContain('<h2 style="color:#1c7ed6">Hello</h2>');
    expect(got.BodyHtml).toContain('<strong>Bold</strong>');
    expect(got.BodyHtml).toContain('<a href="https://guildhall.test">link</a>');
    expect(got.BodyHtml).toContain('<img src="https://guildhall.test/a.png" alt="A" />');
    expect(got.BodyHtml).toContain('data-merge-field="Contact.FirstName"');
    expect(got.BodyHtml).toContain('rel="noopener noreferrer"');

    // Every corpus entry alone, through the generic save and the signature manager.
    for (const attack of XSS_CORPUS) {
      const r = await api.post('/api/signatures', { Name: 'S', SignatureHtml: attack });
      expect(r.statusCode, r.body).toBe(201);
      assertClean(r.json().SignatureHtml);
      await api.delete(`/api/signatures/${r.json().SignatureId}`);
    }

    const unknown = await api.post(`${base}/templateSave`, {
      Name: 'Bad',
      Kind: 'template',
      Purpose: 'general',
      Subject: 'x',
      BodyHtml: '<p><span data-merge-field="Contact.ShoeSize" data-merge-params="{}">x</span></p>',
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().errors.BodyHtml[0]).toBe(
      'Merge field "Contact.ShoeSize" is not available within the current context',
    );
  });

  it('duplicates, archives and restores a template; another association sees none of it', async () => {
    const res = await api.post(`${base}/templateSave`, {
      Name: 'Renewal',
      Kind: 'template',
      Purpose: 'renewal',
      Subject: 'Time to renew',
      BodyHtml: '<p>Renew now.</p>',
    });
    const id = res.json().Data.TemplateId as number;
    const dup = await api.post(`${base}/${id}/duplicate`);
    expect(dup.statusCode, dup.body).toBe(200);
    const copyId = dup.json().Data.TemplateId as number;
    const copy = (await api.post(`${base}/templateGet`, { id: copyId })).json();
    expect(copy).toMatchObject({
      Name: 'Copy of Renewal',
      Subject: 'Time to renew',
      BodyHtml: '<p>Renew now.</p>',
    });

    expect((await api.post(`${base}/${id}/archive`)).json().message).toBe('"Renewal" is archived.');
    const archived = (await api.post(`${base}/templateData`, { Id: 2 })).json();
    expect(archived.Results.map((r: { TemplateId: number }) => r.TemplateId)).toEqual([id]);
    await api.post(`${base}/${id}/restore`);
    expect((await api.post(`${base}/templateGet`, { id })).json().IsArchived).toBe(false);

    expect((await apiOther.post(`${base}/${id}/duplicate`)).statusCode).toBe(404);
    expect((await apiOther.post(`${base}/templateGet`, { id })).statusCode).toBe(404);
  });

  it('serves the email template example', async () => {
    const res = await ctx.app.inject({ method: 'GET', url: '/GZContent/EmailTemplates/template-1.html' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toMatch(/text\/html/);
    expect(res.body).toContain('<!DOCTYPE html>');
    expect(res.body).toContain('max-width: 520px');
    expect(res.body).toContain('data-merge-field="Contact.Salutation"');
  });
});

describe('signatures', () => {
  it('keeps each user their own signatures, one default', async () => {
    const staff = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
    const a = (
      await api.post('/api/signatures', { Name: 'Formal', SignatureHtml: '<p>Regards, <b>Admin</b></p>' })
    ).json();
    expect(a.IsDefault).toBe(true);
    const b = (await api.post('/api/signatures', { Name: 'Short', SignatureHtml: '<p>A.</p>' })).json();
    expect(b.IsDefault).toBe(false);
    expect((await staff.get('/api/signatures/currentUserSignatures')).json()).toEqual([]);
    expect(
      (await staff.put(`/api/signatures/${a.SignatureId}`, { Name: 'x', SignatureHtml: '' })).statusCode,
    ).toBe(404);

    await api.post(`/api/signatures/${b.SignatureId}/default`);
    let mine = (await api.get('/api/signatures/currentUserSignatures')).json();
    expect(mine.map((s: { Name: string; IsDefault: boolean }) => [s.Name, s.IsDefault])).toEqual([
      ['Short', true],
      ['Formal', false],
    ]);
    const edited = await api.put(`/api/signatures/${a.SignatureId}`, {
      Name: 'Formal',
      SignatureHtml: '<p onclick="x()">Kind regards</p>',
    });
    expect(edited.json().SignatureHtml).toBe('<p>Kind regards</p>');
    await api.delete(`/api/signatures/${b.SignatureId}`);
    mine = (await api.get('/api/signatures/currentUserSignatures')).json();
    expect(mine).toEqual([
      { SignatureId: a.SignatureId, Name: 'Formal', SignatureHtml: '<p>Kind regards</p>', IsDefault: true },
    ]);
    expect((await api.post('/api/signatures', { Name: '', SignatureHtml: '' })).statusCode).toBe(400);
  });
});

describe('demo templates', () => {
  it('compile and render: every chip of the demo names a field of the catalogue', async () => {
    const { DEMO_TEMPLATES } = await import('@guildhall/seed/demo-communications');
    for (const t of DEMO_TEMPLATES) {
      const out = compileTemplate(t.bodyHtml).render({ 'Contact.FirstName': 'Ada' });
      expect(out).toMatch(/Ada|Dear member/);
      expect(out).not.toContain('data-merge-field');
      expect(out).not.toContain('{{');
    }
  });
});
