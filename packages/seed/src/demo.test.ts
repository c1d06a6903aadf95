import { APP_ROLE, type Database, openDatabase, rowsOf, withTenantTx } from '@guildhall/db';
import * as shared from '@guildhall/shared';
import { defaultHelpTexts, isResource } from '@guildhall/shared';
import { type SQL, sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_CONTACTS, seedDemo } from './demo.ts';
import { DEMO_TEMPLATES } from './demo-communications.ts';
import type { DemoFilesInput } from './demo-files.ts';
import { simplePdf } from './demo-files.ts';
import { DEMO_SAVED_REPORTS } from './demo-reports.ts';

let database: Database;
let filesInput: DemoFilesInput | null = null;
beforeAll(async () => {
  database = await openDatabase({});
  await database.migrate();
});
afterAll(() => database.close());

/** A statement as the owner (PGlite has one connection, used as the application role after the migrations). */
async function asOwner<T>(statement: SQL): Promise<T[]> {
  await database.pglite?.exec('RESET ROLE');
  try {
    return rowsOf<T>(await database.ownerDb.execute(statement));
  } finally {
    await database.pglite?.exec(`SET ROLE ${APP_ROLE}`);
  }
}

describe('the demo', () => {
  it('starts each association with its contacts, counted and listed, seen by its own staff only', async () => {
    filesInput = await seedDemo(database);
    const tenants = Object.fromEntries(
      (await asOwner<{ slug: string; id: string }>(sql`select slug, id from tenants`)).map((r) => [
        r.slug,
        r.id,
      ]),
    );
    for (const [slug, expected] of Object.entries(DEMO_CONTACTS)) {
      const tenantId = tenants[slug] as string;
      const [seen] = await withTenantTx(database.db, { tenantId }, async (tx) =>
        rowsOf<{ contacts: number; listed: number; counted: number; entries: number; other: number }>(
          await tx.execute(sql`select
            (select count(*)::int from contacts) as contacts,
            (select count(*)::int from contacts where is_listed) as listed,
            (select n::int from contact_counts where facet = '' and value = '') as counted,
            (select count(*)::int from contact_entries) as entries,
            (select count(*)::int from contacts where tenant_id <> ${tenantId}) as other`),
        ),
      );
      expect(seen).toMatchObject({ contacts: expected, counted: expected, other: 0 });
      expect(seen?.listed).toBeGreaterThan(0);
      expect(seen?.entries).toBeGreaterThan(expected);
    }
  });

  it("gives the Demo Association's contacts custom fields on pages, with values of their types", async () => {
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const tenantId = demo?.id as string;
    const [seen] = await withTenantTx(database.db, { tenantId }, async (tx) =>
      rowsOf<{ fields: number; pages: number; valued: number; values: number; contacts: number }>(
        await tx.execute(sql`select
          (select count(*)::int from custom_fields where entity = 'Contact') as fields,
          (select count(distinct page_number)::int from custom_fields) as pages,
          (select count(distinct field_id)::int from custom_field_values) as valued,
          (select count(*)::int from custom_field_values) as values,
          (select count(distinct record_id)::int from custom_field_values) as contacts`),
      ),
    );
    expect(seen?.fields).toBeGreaterThanOrEqual(8);
    expect(seen?.pages).toBe(3);
    expect(seen?.valued).toBeGreaterThanOrEqual(8);
    expect(seen?.contacts).toBe(DEMO_CONTACTS.demo);
    expect(seen?.values).toBeGreaterThan(DEMO_CONTACTS.demo * 5);
  });

  it('gives every screen a help text named after it, in both associations', async () => {
    const expected = defaultHelpTexts(
      Object.values(shared as Record<string, unknown>).flatMap((v) => (isResource(v) ? [v] : [])),
    ).map((t) => t.stateName);
    expect(expected).toEqual(
      expect.arrayContaining(['Home', 'Contacts.List', 'Contacts.Record', 'Users.Detail']),
    );
    const rows = await asOwner<{ slug: string; state_name: string; content: string }>(
      sql`select t.slug, h.state_name, h.content from help_texts h join tenants t on t.id = h.tenant_id`,
    );
    for (const slug of ['demo', 'other']) {
      const names = rows.filter((r) => r.slug === slug).map((r) => r.state_name);
      expect(names.sort()).toEqual([...expected].sort());
    }
    expect(rows.filter((r) => r.content.length < 25)).toEqual([]);
  });

  it('links the demo member to a listed contact of the demo association, whose name the user takes', async () => {
    const [linked] = await asOwner<{ listed: boolean; contact: string; user: string; tenant: string }>(
      sql`select c.is_listed as listed, c.first_name || ' ' || c.last_name as contact, u.display_name as user,
            t.slug as tenant
          from users u join contacts c on c.user_id = u.id join tenants t on t.id = c.tenant_id
          where u.username = 'demo.member'`,
    );
    expect(linked).toBeDefined();
    expect(linked?.listed).toBe(true);
    expect(linked?.tenant).toBe('demo');
    expect(linked?.user).toBe(linked?.contact);
  });

  it('gives the demo association memberships in every status, with their fees and history', async () => {
    const rows = await asOwner<{ status: string; n: number; fees: number; history: number }>(
      sql`select m.status, count(*)::int as n,
            min((select count(*) from membership_fee_items f
                 where f.tenant_id = m.tenant_id and f.membership_id = m.membership_id))::int as fees,
            min((select count(*) from membership_history h
                 where h.tenant_id = m.tenant_id and h.membership_id = m.membership_id))::int as history
          from memberships m join tenants t on t.id = m.tenant_id
          where t.slug = 'demo' group by m.status order by m.status`,
    );
    expect(rows.map((r) => r.status)).toEqual(['active', 'dropped', 'grace', 'lapsed', 'pending']);
    expect(rows.reduce((sum, r) => sum + r.n, 0)).toBe(150);
    for (const r of rows) {
      expect(r.fees).toBeGreaterThan(0);
      expect(r.history).toBeGreaterThan(0);
    }
  });

  it('names a dozen listed people of the demo association for photos, the demo member’s contact first', async () => {
    const input = filesInput;
    expect(input?.associationName).toBe('Demo Association');
    expect(input?.contacts).toHaveLength(12);
    const [member] = await asOwner<{ id: number }>(
      sql`select c.contact_id::int as id from contacts c join users u on u.id = c.user_id where u.username = 'demo.member'`,
    );
    expect(input?.contacts[0]?.id).toBe(member?.id);
    expect(new Set(input?.contacts.map((c) => c.id)).size).toBe(12);
  });

  it('writes one-page PDFs whose cross-reference table points at each object', () => {
    const pdf = Buffer.from(simplePdf('Bylaws (2026)', ['Article I. Name.', 'Müller (paren)'])).toString(
      'latin1',
    );
    expect(pdf.startsWith('%PDF-1.4\n')).toBe(true);
    expect(pdf.trimEnd().endsWith('%%EOF')).toBe(true);
    const xrefAt = Number(/startxref\n(\d+)/.exec(pdf)?.[1]);
    expect(pdf.slice(xrefAt, xrefAt + 4)).toBe('xref');
    const offsets = [...pdf.slice(xrefAt).matchAll(/^(\d{10}) 00000 n $/gm)].map((m) => Number(m[1]));
    expect(offsets).toHaveLength(5);
    expect(offsets.map((off) => pdf.slice(off, off + 8))).toEqual([1, 2, 3, 4, 5].map((n) => `${n} 0 obj\n`));
    expect(pdf).toContain('(Bylaws \\(2026\\)) Tj');
    expect(pdf).toContain("(M?ller \\(paren\\)) '");
  });

  it('gives the demo association its email templates and its staff member signatures, one of them the default', async () => {
    const [c] = await asOwner<{
      templates: number;
      archived: number;
      signatures: number;
      defaults: number;
      other: number;
    }>(
      sql`select
        (select count(*)::int from email_templates t join tenants on tenants.id = t.tenant_id where slug = 'demo') as templates,
        (select count(*)::int from email_templates where is_archived) as archived,
        (select count(*)::int from signatures s join users u on u.id = s.user_id where u.username = 'demo.staff') as signatures,
        (select count(*)::int from signatures where is_default) as defaults,
        (select count(*)::int from email_templates t join tenants on tenants.id = t.tenant_id where slug = 'other') as other`,
    );
    expect(c).toEqual({
      templates: DEMO_TEMPLATES.length + 2,
      archived: 1,
      signatures: 2,
      defaults: 1,
      other: 0,
    });
  });

  it('gives the demo association a sent newsletter with its delivery log and suppressions, and a draft mailing', async () => {
    const rows = await asOwner<{
      name: string;
      status: string;
      recipients: number;
      sent: number;
      bounced: number;
    }>(
      sql`select m.name, m.status,
          (select count(*)::int from mailing_recipients r where r.tenant_id = m.tenant_id and r.mailing_id = m.mailing_id) as recipients,
          (select count(*)::int from mailing_recipients r where r.tenant_id = m.tenant_id and r.mailing_id = m.mailing_id and r.status = 'sent') as sent,
          (select count(*)::int from mailing_recipients r where r.tenant_id = m.tenant_id and r.mailing_id = m.mailing_id and r.status = 'bounced') as bounced
        from mailings m join tenants t on t.id = m.tenant_id where t.slug = 'demo' order by m.mailing_id`,
    );
    expect(rows.map((r) => [r.name, r.status])).toEqual([
      ['October newsletter', 'sent'],
      ['Spring fair: volunteers wanted', 'draft'],
    ]);
    expect(rows[0]?.recipients).toBeGreaterThan(20);
    expect(rows[0]?.bounced).toBe(2);
    expect(rows[0]?.sent).toBe((rows[0]?.recipients ?? 0) - 2);
    const [s] = await asOwner<{ n: number }>(
      sql`select count(*)::int as n from mail_suppressions x join tenants t on t.id = x.tenant_id where t.slug = 'demo'`,
    );
    expect(s?.n).toBe(3);
  });

  it('gives the demo association projects with tasks in every status, found by the staff search', async () => {
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const [seen] = await withTenantTx(database.db, { tenantId: demo?.id as string }, async (tx) =>
      rowsOf<{
        projects: number;
        statuses: string[];
        unassigned: number;
        progressed: number;
        docs: number;
        unnamed: number;
        forEvent: number;
      }>(
        await tx.execute(sql`select
          (select count(*)::int from projects) as projects,
          (select array_agg(distinct status order by status) from tasks) as statuses,
          (select count(*)::int from tasks where assignee_names is null) as unassigned,
          (select count(*)::int from projects where progress > 0) as progressed,
          (select count(*)::int from search_documents where entity_type in ('Project', 'Task')
              and audience = 'staff') as docs,
          (select count(*)::int from tasks where project_id is not null and project_name is null) as unnamed,
          (select count(*)::int from tasks where event_name is not null) as "forEvent"`),
      ),
    );
    expect(seen).toMatchObject({ projects: 3, unassigned: 0, unnamed: 0 });
    // The conference's tasks show on the conference event's Tasks tab.
    expect(seen?.forEvent).toBeGreaterThan(0);
    expect(seen?.statuses).toEqual(['cancelled', 'done', 'in_progress', 'todo', 'waiting']);
    expect(seen?.progressed).toBeGreaterThan(0);
    expect(seen?.docs).toBeGreaterThan(20);
    const [other] = await asOwner<{ n: number }>(
      sql`select count(*)::int as n from tasks t join tenants x on x.id = t.tenant_id where x.slug = 'other'`,
    );
    expect(other?.n).toBe(0);
  });

  it('gives the demo association saved reports its lists can run, shared and private, one pinned', async () => {
    for (const r of DEMO_SAVED_REPORTS) {
      const resource = Object.values(shared).find((v) => isResource(v) && v.name === r.definition.resource);
      expect(resource, r.title).toBeDefined();
      if (!isResource(resource)) continue;
      expect(
        shared.reportDefinitionProblems(resource, shared.reportDefinitionSchema.parse(r.definition)),
      ).toEqual([]);
    }
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const [admin] = await asOwner<{ id: number }>(sql`select id from users where username = 'demo.staff'`);
    const seen = await withTenantTx(database.db, { tenantId: demo?.id as string }, async (tx) =>
      rowsOf<{ title: string }>(await tx.execute(sql`select title from saved_reports order by title`)),
    );
    // Without a user, only the shared ones; the owner sees their private one too.
    expect(seen.map((r) => r.title)).toEqual([
      'Contacts by status and state',
      'Dues by chapter',
      'Lapsed members to win back',
    ]);
    const own = await withTenantTx(
      database.db,
      { tenantId: demo?.id as string, userId: Number(admin?.id) },
      async (tx) =>
        rowsOf<{ n: number; pins: number }>(
          await tx.execute(
            sql`select (select count(*)::int from saved_reports) as n, (select count(*)::int from report_pins) as pins`,
          ),
        ),
    );
    expect(own[0]).toEqual({ n: DEMO_SAVED_REPORTS.length, pins: 1 });
  });

  it('gives the demo association pending users: one with a live link, one whose link expired', async () => {
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const seen = await withTenantTx(database.db, { tenantId: demo?.id as string }, async (tx) =>
      rowsOf<{ email: string; status: string; expired: boolean; tokens: number }>(
        await tx.execute(sql`select i.email, i.status, i.expires_at < now() as expired,
            (select count(*)::int from invitation_tokens k where k.tenant_id = i.tenant_id
                and k.invitation_id = i.invitation_id and k.used_at is null) as tokens
          from staff_invitations i order by i.email`),
      ),
    );
    expect(seen.map((r) => [r.status, r.expired, r.tokens])).toEqual([
      ['pending', false, 1],
      ['pending', true, 1],
    ]);
  });

  it('gives the demo association a former colleague, deactivated there', async () => {
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const seen = await withTenantTx(database.db, { tenantId: demo?.id as string }, async (tx) =>
      rowsOf<{ username: string; is_active: boolean }>(
        await tx.execute(sql`select username, is_active from user_directory where not is_active`),
      ),
    );
    expect(seen).toEqual([{ username: 'greg.holloway', is_active: false }]);
  });

  it('is seeded once: a second start adds nothing', async () => {
    expect(await seedDemo(database)).toBeNull();
    const [n] = await asOwner<{ n: number }>(sql`select count(*)::int as n from contacts`);
    expect(n?.n).toBe(DEMO_CONTACTS.demo + DEMO_CONTACTS.other);
  });
});

describe('the demo billing', () => {
  it('has invoices in every issued state, payments of each method, a deposit, and a ledger that balances', async () => {
    await seedDemo(database);
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const tenantId = demo?.id as string;
    const [seen] = await withTenantTx(database.db, { tenantId }, async (tx) =>
      rowsOf<{
        statuses: string[];
        methods: string[];
        deposits: number;
        debits: number;
        credits: number;
        receivable: number;
        owed: number;
      }>(
        await tx.execute(sql`select
          (select array_agg(distinct status order by status) from invoices) as statuses,
          (select array_agg(distinct method order by method) from payments) as methods,
          (select count(*)::int from deposits) as deposits,
          (select sum(debit_cents)::bigint from ledger_lines) as debits,
          (select sum(credit_cents)::bigint from ledger_lines) as credits,
          (select sum(l.debit_cents - l.credit_cents)::bigint from ledger_lines l join ledger_accounts a
             on a.tenant_id = l.tenant_id and a.account_id = l.account_id where a.role = 'receivable') as receivable,
          (select sum(balance_cents)::bigint from invoices where status <> 'void') as owed`),
      ),
    );
    expect(seen?.statuses).toEqual(['open', 'paid', 'partially_paid', 'void', 'written_off']);
    expect(seen?.methods).toEqual(['bank_transfer', 'card', 'cash', 'check']);
    expect(seen?.deposits).toBe(1);
    expect(Number(seen?.debits)).toBe(Number(seen?.credits));
    expect(Number(seen?.receivable)).toBe(Number(seen?.owed));
  });

  it("bills the conference's registrations through the ledger: most paid, a few awaiting payment", async () => {
    await seedDemo(database);
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const rows = await withTenantTx(database.db, { tenantId: demo?.id as string }, async (tx) =>
      rowsOf<{ status: number; n: number; invoiced: number; paid_matches: number; open: number }>(
        await tx.execute(sql`select a.event_attendee_status_id as status, count(*)::int as n,
            count(i.invoice_id)::int as invoiced,
            count(*) filter (where a.paid_cents = i.applied_cents and i.source_kind = 'event-registration'
              and i.source_id = a.registration_id)::int as paid_matches,
            count(*) filter (where i.status = 'open')::int as open
          from event_attendees a
          join events e on e.tenant_id = a.tenant_id and e.event_id = a.event_id
          left join invoices i on i.tenant_id = a.tenant_id and i.invoice_id = a.invoice_id
          where e.name = 'Annual Conference 2027'
          group by a.event_attendee_status_id order by 1`),
      ),
    );
    const registered = rows.find((r) => r.status === 4);
    const awaiting = rows.find((r) => r.status === 7);
    expect(registered?.n).toBeGreaterThan(40);
    expect(registered).toMatchObject({ invoiced: registered?.n, paid_matches: registered?.n, open: 0 });
    expect(awaiting?.n).toBeGreaterThan(0);
    expect(awaiting).toMatchObject({ invoiced: awaiting?.n, open: awaiting?.n });
  });
});

describe('the demo over time', () => {
  it('was built up over years: contacts added since 2021, a dozen this month, registrations over weeks', async () => {
    await seedDemo(database);
    const [demo] = await asOwner<{ id: string }>(sql`select id from tenants where slug = 'demo'`);
    const tenantId = demo?.id as string;
    const [contacts] = await withTenantTx(database.db, { tenantId }, async (tx) =>
      rowsOf<{ first: string; this_month: number; years: number; after_first_bill: number }>(
        await tx.execute(sql`select min(created_at)::date::text as first,
            count(*) filter (where date_trunc('month', created_at at time zone ${shared.DEFAULT_TIMEZONE})
              = date_trunc('month', now() at time zone ${shared.DEFAULT_TIMEZONE}))::int as this_month,
            count(distinct extract(year from created_at))::int as years,
            count(*) filter (where created_at > (select min(i.issue_date)::timestamptz + interval '1 day'
              from invoices i where i.tenant_id = c.tenant_id and i.contact_id = c.contact_id))::int as after_first_bill
          from contacts c`),
      ),
    );
    expect(contacts?.first.slice(0, 4)).toBe('2021');
    expect(contacts?.years).toBeGreaterThanOrEqual(5);
    expect(contacts?.this_month).toBeGreaterThan(0);
    expect(contacts?.this_month).toBeLessThanOrEqual(12);
    expect(contacts?.after_first_bill).toBe(0);

    // The conference's people registered on many days, in turn: a seat went to whoever registered first.
    const [registrations] = await withTenantTx(database.db, { tenantId }, async (tx) =>
      rowsOf<{ days: number; waitlisted_before_seated: number }>(
        await tx.execute(sql`select count(distinct a.created_at::date)::int as days,
            (select count(*)::int from event_attendees w join event_attendees s
              on s.tenant_id = w.tenant_id and s.event_detail_id = w.event_detail_id
              where w.event_attendee_status_id = 1 and s.event_attendee_status_id <> 1
                and w.created_at < s.created_at) as waitlisted_before_seated
          from event_attendees a join events e on e.tenant_id = a.tenant_id and e.event_id = a.event_id
          where e.name = 'Annual Conference 2027'`),
      ),
    );
    expect(registrations?.days).toBeGreaterThan(20);
    expect(registrations?.waitlisted_before_seated).toBe(0);
  });
});
