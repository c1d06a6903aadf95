import { type Design, emptyDesign, mergeChipHtml, mergeFieldByName } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: ReturnType<typeof client>;
let apiOther: ReturnType<typeof client>;

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
});
afterAll(() => ctx.close());

const first = () => mergeChipHtml(mergeFieldByName('Contact.FirstName') as never, { Default: 'Friend' });

function design(blocks: Design['Blocks']): Design {
  return { ...emptyDesign(), Blocks: blocks };
}

async function newTemplate(name = 'Spring newsletter') {
  const res = await api.post('/api/communication/designer/newTemplate', {
    Name: name,
    Subject: 'Spring news',
  });
  expect(res.statusCode, res.body).toBe(200);
  return res.json().Data.TemplateId as number;
}

/** What the designer's rich text and attributes must never carry into the email HTML. */
const XSS_TEXT = [
  '<script>alert(1)</script>',
  '<img src=x onerror=alert(1)>',
  '<a href="javascript:alert(1)">x</a>',
  '<a href="&#106;avascript:alert(1)">x</a>',
  '<img src="data:image/svg+xml;base64,PHN2ZyBvbmxvYWQ9YWxlcnQoMSk+">',
  '<svg onload=alert(1)>',
  '<iframe src="https://evil.example"></iframe>',
  '<div style="background:url(javascript:alert(1))">x</div>',
  '<style>@import "https://evil.example/x.css";</style>',
  '</mj-text><mj-raw><script>alert(1)</script></mj-raw><mj-text>',
  '<p onclick="alert(1)">x</p>',
  '<form action="https://evil.example"><input name=a></form>',
  '<meta http-equiv="refresh" content="0;url=javascript:alert(1)">',
];
/** Every tag of the HTML with its attributes (values decoded), as a mail client would read them. */
function tagsOf(html: string): { name: string; attrs: [string, string][] }[] {
  const decode = (v: string) =>
    v
      .replace(/&#(\d+);/g, (_m, n: string) => String.fromCharCode(Number(n)))
      .replace(/&quot;/g, '"')
      .replace(/&amp;/g, '&');
  return [...html.matchAll(/<([a-zA-Z][\w:-]*)((?:[^>"']|"[^"]*"|'[^']*')*)>/g)].map((m) => ({
    name: (m[1] ?? '').toLowerCase(),
    attrs: [...(m[2] ?? '').matchAll(/([^\s=/]+)(?:\s*=\s*(?:"([^"]*)"|'([^']*)'|([^\s>]+)))?/g)].map(
      (a) => [(a[1] ?? '').toLowerCase(), decode(a[2] ?? a[3] ?? a[4] ?? '')] as [string, string],
    ),
  }));
}

/** What no designed message may carry, whatever was typed into the design. */
function expectHarmless(html: string) {
  for (const tag of tagsOf(html)) {
    expect([
      'script',
      'iframe',
      'object',
      'embed',
      'form',
      'input',
      'svg',
      'base',
      'link',
      'math',
    ]).not.toContain(tag.name);
    expect(tag.name.startsWith('mj-'), tag.name).toBe(false);
    for (const [name, value] of tag.attrs) {
      expect(name.startsWith('on'), `${tag.name} ${name}`).toBe(false);
      expect(value, `${tag.name} ${name}`).not.toMatch(/^\s*(javascript|vbscript|data):/i);
      expect(value, `${tag.name} ${name}`).not.toMatch(/evil\.example|expression\(|url\(/i);
      if (tag.name === 'meta') expect(value.toLowerCase()).not.toBe('refresh');
    }
  }
  // Only MJML's own style sheets: nothing typed into a block reaches one.
  for (const m of html.matchAll(/<style[^>]*>([\s\S]*?)<\/style>/gi))
    expect(m[1]).not.toMatch(/@import|javascript|evil/i);
}

describe('email designer', () => {
  it('saves a design, renders responsive email HTML from it, and reopens it exactly', async () => {
    const id = await newTemplate();
    const opened = await api.get(`/api/communication/designer/templates/${id}`);
    expect(opened.statusCode, opened.body).toBe(200);
    expect(opened.json().DesignJson.Blocks.map((b: { Type: string }) => b.Type)).toEqual([
      'heading',
      'text',
      'footer',
    ]);

    const d = design([
      { Id: 'b1', Type: 'heading', Text: 'Spring <news> & more', Level: 1, Align: 'center' },
      { Id: 'b2', Type: 'text', Html: `<p>Dear ${first()}, welcome.</p>` },
      {
        Id: 'b3',
        Type: 'image',
        Src: '/api/files/download/1/?open=true',
        Alt: 'Our hall',
        Align: 'center',
        Width: 400,
      },
      {
        Id: 'b4',
        Type: 'button',
        Label: 'Register',
        Href: 'https://example.org/register',
        BackgroundColor: '#1c7ed6',
        Color: '#ffffff',
        Align: 'center',
      },
      { Id: 'b5', Type: 'columns', Columns: ['<p>Left</p>', '<p>Right</p>'] },
      { Id: 'b6', Type: 'divider', Color: '#dee2e6' },
      { Id: 'b7', Type: 'spacer', Height: 24 },
      {
        Id: 'b8',
        Type: 'footer',
        Html: '<p><a href="merge:Mailing.UnsubscribeUrl">Unsubscribe</a></p>',
      },
    ]);
    const saved = await api.put(`/api/communication/designer/templates/${id}`, {
      DesignJson: d,
      Subject: 'Spring news',
    });
    expect(saved.statusCode, saved.body).toBe(200);
    const html = saved.json().Html as string;
    expect(html).toMatch(/^<!doctype html>/i);
    // MJML's responsive layout: Outlook conditional tables and the 520 px breakpoint.
    expect(html).toContain('<!--[if mso | IE]>');
    expect(html).toContain('min-width:520px');
    expect(html).toContain('Spring &lt;news&gt; &amp; more');
    expect(html).toContain('data-merge-field="Contact.FirstName"');
    expect(html).toContain('href="https://example.org/register"');
    expect(html).toContain('href="merge:Mailing.UnsubscribeUrl"');

    const again = (await api.get(`/api/communication/designer/templates/${id}`)).json();
    expect(again.DesignJson).toEqual(d);
    expect(again.Html).toBe(html);

    // The template is now a designed one (a newsletter) on the generic screens too.
    const row = (await api.post('/api/communication/templates/templateGet', { id })).json();
    expect(row.Kind).toBe('newsletter');
    expect(row.BodyHtml).toBe(html);

    // The generic form cannot replace a designed body with HTML of its own.
    const generic = await api.post('/api/communication/templates/templateSave', {
      ...row,
      BodyHtml: '<p>Replaced</p><script>alert(1)</script>',
    });
    expect(generic.statusCode, generic.body).toBe(200);
    const after = (await api.post('/api/communication/templates/templateGet', { id })).json();
    expect(after.BodyHtml).toBe(html);

    // Another association sees none of it.
    expect((await apiOther.get(`/api/communication/designer/templates/${id}`)).statusCode).toBe(404);
    expect(
      (await apiOther.put(`/api/communication/designer/templates/${id}`, { DesignJson: d })).statusCode,
    ).toBe(404);
  });

  it('sanitizes every block of a design: no script, handler, javascript: or data: URL survives', async () => {
    const id = await newTemplate('Hostile');
    const blocks: Design['Blocks'] = XSS_TEXT.flatMap((x, i) => [
      { Id: `t${i}`, Type: 'text' as const, Html: x },
      { Id: `c${i}`, Type: 'columns' as const, Columns: [x, `<p>${x}</p>`] as [string, string] },
      { Id: `f${i}`, Type: 'footer' as const, Html: x },
      { Id: `h${i}`, Type: 'heading' as const, Text: x, Level: 2 as const, Align: 'left' as const },
    ]);
    const res = await api.put(`/api/communication/designer/templates/${id}`, { DesignJson: design(blocks) });
    expect(res.statusCode, res.body).toBe(200);
    const html = res.json().Html as string;
    expectHarmless(html);
    // Headings are plain text: the markup shows as text, escaped.
    expect(html).toContain('&lt;script&gt;alert(1)&lt;/script&gt;');
  });

  it('refuses attributes outside the schema: links, image addresses, colours and unknown merge fields', async () => {
    const id = await newTemplate('Refused');
    const bad: Design['Blocks'][number][] = [
      {
        Id: 'x',
        Type: 'button',
        Label: 'Go',
        Href: 'javascript:alert(1)',
        BackgroundColor: '#000',
        Color: '#fff',
        Align: 'left',
      },
      { Id: 'x', Type: 'image', Src: 'data:image/png;base64,AAAA', Alt: '', Align: 'left' },
      { Id: 'x', Type: 'image', Src: 'https://x.example/a.png" onerror="alert(1)', Alt: '', Align: 'left' },
      { Id: 'x', Type: 'divider', Color: 'red;background:url(javascript:alert(1))' },
      {
        Id: 'x',
        Type: 'button',
        Label: 'Go',
        Href: 'https://ok.example',
        BackgroundColor: '#000" onclick="x',
        Color: '#fff',
        Align: 'left',
      },
    ];
    for (const b of bad) {
      const res = await api.put(`/api/communication/designer/templates/${id}`, { DesignJson: design([b]) });
      expect(res.statusCode, `${JSON.stringify(b)} ${res.body}`).toBe(400);
    }
    const unknown = await api.put(`/api/communication/designer/templates/${id}`, {
      DesignJson: design([
        {
          Id: 'x',
          Type: 'text',
          Html: '<p><span data-merge-field="Contact.Shoe" data-merge-params="{}">x</span></p>',
        },
      ]),
    });
    expect(unknown.statusCode).toBe(400);
    expect(unknown.json().message).toContain(
      'Merge field "Contact.Shoe" is not available within the current context',
    );
    // An alt text with quotes is escaped, not an attribute break-out.
    const quoted = await api.put(`/api/communication/designer/templates/${id}`, {
      DesignJson: design([
        { Id: 'x', Type: 'image', Src: 'https://x.example/a.png', Alt: '" onerror="alert(1)', Align: 'left' },
      ]),
    });
    expect(quoted.statusCode, quoted.body).toBe(200);
    expectHarmless(quoted.json().Html);
  });

  it('offers the design tags and the custom content tools from the association data', async () => {
    const tags = await api.get('/api/communication/emaildesigner/designTags');
    expect(tags.statusCode, tags.body).toBe(200);
    const first = tags.json().find((x: { Name: string }) => x.Name === 'Contact.FirstName');
    expect(first).toMatchObject({ GroupName: 'Contact' });
    expect(first.Value).toMatch(/^\{\{ Contact\.FirstName/);
    expect(first.Html).toContain('data-merge-field="Contact.FirstName"');
    expect(tags.json().some((x: { Name: string }) => x.Name === 'Mailing.UnsubscribeUrl')).toBe(true);

    for (const tool of ['NewMembers', 'events', 'webcontent', 'forumstopics']) {
      const res = await api.get(`/api/unlayercustomtools/${tool}`);
      expect(res.statusCode, `${tool} ${res.body}`).toBe(200);
      expect(res.headers['content-type']).toContain('text/html');
      expect(res.body).toMatch(/^<h3>/);
    }
    expect((await api.get('/api/unlayercustomtools/nothing')).statusCode).toBe(400);
    expect((await ctx.app.inject({ method: 'GET', url: '/api/unlayercustomtools/events' })).statusCode).toBe(
      401,
    );
  });

  it('a designed mailing is sent as its design with the merge fields of each recipient', async () => {
    const contact = await api.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Grace',
      LastName: 'Designer',
      Email: 'grace.designer@example.org',
    });
    expect(contact.statusCode, contact.body).toBe(200);
    const contactId = contact.json().Data.ContactId as number;
    const d = design([
      { Id: 'b1', Type: 'text', Html: `<p>Hello ${first()}!</p>` },
      { Id: 'b2', Type: 'image', Src: '/api/files/download/7/?open=true', Alt: 'Logo', Align: 'center' },
    ]);
    const created = await api.post('/api/communication/mailings', {
      Name: 'Designed news',
      Subject: 'Designed news',
      BodyHtml: '<p>ignored</p>',
      DesignJson: d,
      Audience: { Kind: 'contacts', ContactIds: [contactId] },
    });
    expect(created.statusCode, created.body).toBe(201);
    const m = created.json();
    expect(m.DesignJson).toEqual(d);
    expect(m.BodyHtml).toMatch(/^<!doctype html>/i);
    expect(m.BodyHtml).not.toContain('ignored');

    // The designer reopens the mailing's design and saves a change.
    const changed = design([...d.Blocks, { Id: 'b3', Type: 'divider', Color: '#cccccc' }]);
    const put = await api.put(`/api/communication/designer/mailings/${m.MailingId}`, { DesignJson: changed });
    expect(put.statusCode, put.body).toBe(200);
    expect((await api.get(`/api/communication/designer/mailings/${m.MailingId}`)).json().DesignJson).toEqual(
      changed,
    );

    const preview = await api.post(`/api/communication/mailings/${m.MailingId}/preview`, {
      ContactId: contactId,
    });
    expect(preview.statusCode, preview.body).toBe(200);
    expect(preview.json().Html).toContain('Hello Grace!');
    expect(preview.json().Html).toContain('src="http://guildhall.test/api/files/download/7/?open=true"');
    // One document, not a document inside another; the compliance footer added since the design had none.
    expect(preview.json().Html.match(/<html/gi)).toHaveLength(1);
    expect(preview.json().Html).toContain('Unsubscribe</a>');

    const test = await api.post(`/api/communication/mailings/${m.MailingId}/test`, {
      To: 'me.designer@example.org',
      ContactId: contactId,
    });
    expect(test.statusCode, test.body).toBe(200);
    await ctx.app.background.settled();
    const outbox = (await api.get('/api/mail/outbox')).json() as { id: number; subject: string }[];
    const msg = outbox.find((o) => o.subject === '[Test] Designed news');
    expect(msg).toBeDefined();
  });
});
