import {
  contacts,
  eventAttendees,
  eventDetails,
  eventRegistrations,
  events,
  invoices,
  withTenantTx,
} from '@guildhall/db';
import { DEMO_SAVED_QUERIES } from '@guildhall/seed/demo-query-tool';
import { csvLine } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { QUERY_VIEWS } from './query-guard.ts';
import { checkSql } from './query-tool.service.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let admin: ReturnType<typeof client>;
let adminCookie: string;

const form = (fields: Record<string, string>) => new URLSearchParams(fields).toString();

async function post(url: string, fields: Record<string, string>, cookie = adminCookie) {
  return ctx.app.inject({
    method: 'POST',
    url,
    headers: { cookie, 'content-type': 'application/x-www-form-urlencoded' },
    payload: form(fields),
  });
}
const run = (fields: Record<string, string>) => post('/a/dev/QuerytoolRun', fields);
const download = (fields: Record<string, string>) => post('/a/dev/QuerytoolDownload', fields);

/** Saves an association's query through the generic screens; answers the response. */
const saveQuery = (title: string, sql: string) =>
  admin.post('/api/dev/queries/querySave', { Title: title, GroupName: 'Ours', Sql: sql });

/** Runs SQL as the association's own query: saved through the guard, then run. */
async function runSql(sql: string) {
  const saved = await saveQuery(`q ${Math.random()}`, sql);
  return saved;
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  adminCookie = (await signIn(ctx.app, t.admin)).cookie;
  admin = client(ctx.app, adminCookie);
  const base = { contactType: 'individual', status: 'active' } as const;
  const rows = [
    {
      ...base,
      tenantId: t.tenant.id,
      displayName: 'Adams, Ann',
      accountNumber: 'A1',
      email: null,
      city: 'Boston',
      postalCode: '02101',
      stateProvince: 'MA',
    },
    {
      ...base,
      tenantId: t.tenant.id,
      displayName: 'adams, ann ',
      accountNumber: 'A2',
      email: 'ann@example.org',
      city: 'Boston',
      postalCode: '02101',
      stateProvince: 'MA',
    },
    {
      ...base,
      tenantId: t.tenant.id,
      displayName: 'Baker, Bob',
      accountNumber: 'A3',
      email: '',
      city: 'Brookline',
      postalCode: '02445',
      stateProvince: 'MA',
      status: 'lapsed',
    },
    {
      ...base,
      tenantId: t.tenant.id,
      displayName: '=HYPERLINK("x"), "Quoted"',
      accountNumber: 'A4',
      email: null,
      city: 'Boston, MA',
      postalCode: '02102',
      stateProvince: 'MA',
    },
    {
      ...base,
      tenantId: other.tenant.id,
      displayName: 'Other, Secret',
      accountNumber: 'S1',
      email: null,
      city: 'Boston',
      postalCode: '02101',
      stateProvince: 'NY',
    },
  ];
  for (const tenant of [t, other]) {
    await withTenantTx(
      ctx.database.db,
      { tenantId: tenant.tenant.id, userId: tenant.admin.id },
      async (tx) => {
        await tx.insert(contacts).values(rows.filter((r) => r.tenantId === tenant.tenant.id));
      },
    );
  }
});
afterAll(() => ctx.close());

describe('the list of queries', () => {
  it('lists the shipped queries with their typed parameters and a lookup select read from the association', async () => {
    const res = await admin.get('/api/query-tool/queries');
    expect(res.statusCode).toBe(200);
    const list = res.json() as {
      name: string;
      parameters: { name: string; type: string; options: { Key: string }[] }[];
    }[];
    const names = list.map((q) => q.name);
    expect(names).toEqual(
      expect.arrayContaining(['contacts.withoutEmail', 'contacts.duplicates', 'contacts.added']),
    );
    const withoutEmail = list.find((q) => q.name === 'contacts.withoutEmail');
    expect(withoutEmail?.parameters[0]?.type).toBe('select');
    expect(withoutEmail?.parameters[0]?.options.map((o) => o.Key).sort()).toEqual(['active', 'lapsed']);
    const types = new Set(list.flatMap((q) => q.parameters.map((p) => p.type)));
    expect([...types].sort()).toEqual(['date', 'dateRange', 'number', 'select', 'text']);
  });

  it('is for administrators: staff and members are refused', async () => {
    for (const user of [t.staff, t.member]) {
      const cookie = (await signIn(ctx.app, user)).cookie;
      expect((await client(ctx.app, cookie).get('/api/query-tool/queries')).statusCode).toBe(403);
      expect((await post('/a/dev/QuerytoolRun', { QueryName: 'contacts.byState' }, cookie)).statusCode).toBe(
        403,
      );
      expect(
        (await post('/a/dev/QuerytoolDownload', { QueryName: 'contacts.byState' }, cookie)).statusCode,
      ).toBe(403);
    }
  });
});

describe('POST /a/dev/QuerytoolRun', () => {
  it('answers HTML with the association’s rows only, escaped', async () => {
    const res = await run({ QueryName: 'contacts.withoutEmail' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/html');
    expect(res.body).toContain('Adams, Ann');
    expect(res.body).toContain('Baker, Bob');
    expect(res.body).toContain('=HYPERLINK(&quot;x&quot;), &quot;Quoted&quot;');
    expect(res.body).not.toContain('Secret');
    expect(res.body).toContain('Rows 1–3.');
  });

  it('applies a select parameter and refuses a value that is not an option', async () => {
    const lapsed = await run({ QueryName: 'contacts.withoutEmail', status: 'lapsed' });
    expect(lapsed.body).toContain('Baker, Bob');
    expect(lapsed.body).not.toContain('Adams');
    const bad = await run({ QueryName: 'contacts.withoutEmail', status: 'nope' });
    expect(bad.statusCode).toBe(400);
    expect(bad.body).toContain('Status: choose one of the options.');
  });

  it('takes number, text, date and date range parameters, checked against their types', async () => {
    const dupes = await run({ QueryName: 'contacts.duplicates', minimum: '2' });
    expect(dupes.body).toMatch(/adams, ann<\/td><td>02101<\/td><td>2<\/td>/);
    expect((await run({ QueryName: 'contacts.duplicates', minimum: 'two' })).body).toContain(
      'At least this many must be a number.',
    );
    expect((await run({ QueryName: 'contacts.duplicates', minimum: '' })).body).toContain(
      'At least this many is required.',
    );
    const city = await run({ QueryName: 'contacts.inCity', city: 'brook' });
    expect(city.body).toContain('Baker, Bob');
    expect(city.body).not.toContain('Adams');
    const since = await run({ QueryName: 'contacts.changedSince', since: '2000-01-01' });
    expect(since.body).toContain('Rows 1–4.');
    expect((await run({ QueryName: 'contacts.changedSince', since: '2000-02-30' })).body).toContain(
      'Changed since: enter a date as yyyy-mm-dd.',
    );
    const last30 = await run({ QueryName: 'contacts.added', period: '13' });
    expect(last30.body).toContain('Rows 1–4.');
    const future = await run({ QueryName: 'contacts.added', period: '32' });
    expect(future.body).toContain('No rows.');
    const custom = await run({
      QueryName: 'contacts.added',
      period: '0',
      period_StartDate: '2001-01-01',
      period_EndDate: '2001-12-31',
    });
    expect(custom.body).toContain('No rows.');
    expect((await run({ QueryName: 'contacts.added', period: '38' })).body).toContain(
      'is not a date range option',
    );
  });

  it('answers 404 for a query that does not exist', async () => {
    const res = await run({ QueryName: 'nope.nothing' });
    expect(res.statusCode).toBe(404);
    expect(res.body).toContain('There is no query of that name.');
  });

  it('writes every run to the audit log with its parameters', async () => {
    await run({ QueryName: 'contacts.inCity', city: 'Bost' });
    const log = await admin.get('/api/audit');
    expect(log.statusCode).toBe(200);
    expect(log.body).toContain('query-run');
    expect(log.body).toContain('contacts.inCity');
    expect(log.body).toContain('Bost');
  });
});

describe('POST /a/dev/QuerytoolDownload', () => {
  it('answers every row as CSV text, quoted as exports and spreadsheet-safe', async () => {
    const res = await download({ QueryName: 'contacts.withoutEmail' });
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toContain('text/csv');
    expect(res.headers['content-disposition']).toMatch(/attachment; filename="contacts\.withoutEmail-/);
    const lines = res.body
      .replace(/^\uFEFF/, '')
      .trimEnd()
      .split('\n');
    expect(lines[0]).toBe('Account,Name,Status,Phone,City,State');
    expect(lines).toContain(`A4,"'=HYPERLINK(""x""), ""Quoted""",active,,"Boston, MA",MA`);
    expect(lines).toHaveLength(4);
    expect(res.body).not.toContain('Secret');
  });

  it('makes each line in the database with the quoting of exports: formulas defused, quotes, commas and line breaks quoted', async () => {
    const values: [string | null, string | null][] = [
      ['=SUM(A1)', '-12.5'],
      ['+1 phone', null],
      ['-x', '3'],
      ['@user', '4'],
      ['say "hi"', '5'],
      ['two\nlines', '6'],
      ['a, b', '7'],
      [null, '8'],
    ];
    const literal = (v: string | null) =>
      v === null ? 'null' : `E'${v.replaceAll("'", "''").replaceAll('\n', '\\n')}'`;
    const rows = values.map(([v, n], i) => `(${i}, ${literal(v)}, ${n ?? 'null'}::numeric)`).join(', ');
    // Two columns of one name stay two; the number column is numeric, its negative value a plain number.
    const saved = await saveQuery(
      'Awkward cells',
      `select v as "Value", v as "Value", n as "Number" from (values ${rows}) as t(k, v, n) order by k`,
    );
    expect(saved.statusCode).toBe(200);
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    const res = await download({ QueryName: list.find((q) => q.title === 'Awkward cells')?.name ?? '' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe(
      [
        '\uFEFFValue,Value,Number',
        `"'=SUM(A1)","'=SUM(A1)",-12.5`,
        `"'+1 phone","'+1 phone",`,
        `"'-x","'-x",3`,
        `"'@user","'@user",4`,
        '"say ""hi""","say ""hi""",5',
        '"two\nlines","two\nlines",6',
        '"a, b","a, b",7',
        ',,8',
        '',
      ].join('\n'),
    );
    // The same rule as the shared csvLine (the rule of exports).
    expect(res.body).toBe(
      `\uFEFF${['Value,Value,Number', ...values.map(([v, n]) => csvLine([v, v, n]))].join('\n')}\n`,
    );
  });

  it('answers the header line when the query has no rows', async () => {
    await saveQuery(
      'No rows',
      `select display_name as "Name", 1 as "One" from gh_query.contacts where false`,
    );
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    const res = await download({ QueryName: list.find((q) => q.title === 'No rows')?.name ?? '' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toBe('\uFEFFName,One\n');
  });

  it('answers a refusal as text the page shows', async () => {
    const res = await download({ QueryName: 'contacts.duplicates', minimum: 'x' });
    expect(res.statusCode).toBe(400);
    expect(res.headers['content-type']).toContain('text/plain');
    expect(res.body).toBe('At least this many must be a number.');
  });
});

describe('queries written by the association', () => {
  it('saves a guarded query and runs it with its :name parameters as text', async () => {
    const saved = await saveQuery(
      'Contacts in a state',
      `select display_name as "Name" from gh_query.contacts where state_province = :state order by 1`,
    );
    expect(saved.statusCode).toBe(200);
    const list = (await admin.get('/api/query-tool/queries')).json() as {
      name: string;
      title: string;
      origin: string;
      parameters: { name: string }[];
    }[];
    const mine = list.find((q) => q.title === 'Contacts in a state');
    expect(mine?.origin).toBe('association');
    expect(mine?.parameters.map((p) => p.name)).toEqual(['state']);
    const res = await run({ QueryName: mine?.name ?? '', state: 'MA' });
    expect(res.body).toContain('Rows 1–4.');
    const ny = await run({ QueryName: mine?.name ?? '', state: 'NY' });
    expect(ny.body).toContain('No rows.');
  });

  it('is not listed to another association', async () => {
    const otherAdmin = client(ctx.app, (await signIn(ctx.app, other.admin)).cookie);
    const list = (await otherAdmin.get('/api/query-tool/queries')).json() as { title: string }[];
    expect(list.some((q) => q.title === 'Contacts in a state')).toBe(false);
  });

  // The attack corpus: each refused by the guard when saved, none runs, none leaks the other association's rows.
  const setTenant = (where: string) => where.replace('$T', "'00000000-0000-0000-0000-000000000000'");
  it.each([
    [
      'set_config in the select list',
      `select set_config('app.tenant_id', $T, true), display_name from gh_query.contacts`,
      'set_config',
    ],
    [
      'set_config in a scalar sub-select',
      `select display_name, (select set_config('app.tenant_id', $T, false)) from gh_query.contacts`,
      'set_config',
    ],
    [
      'set_config in a CTE',
      `with s as (select set_config('app.tenant_id', $T, true) as x) select c.display_name from s, gh_query.contacts c`,
      'set_config',
    ],
    [
      'set_config in ORDER BY',
      `select display_name from gh_query.contacts order by set_config('app.tenant_id', $T, true)`,
      'set_config',
    ],
    [
      'set_config in WHERE',
      `select display_name from gh_query.contacts where set_config('app.tenant_id', $T, true) is not null`,
      'set_config',
    ],
    ['set_config schema-qualified', `select pg_catalog.set_config('app.tenant_id', $T, true)`, 'set_config'],
    ['set_config quoted', `select "set_config"('app.tenant_id', $T, true)`, 'set_config'],
    [
      'set_config in a lateral function',
      `select * from gh_query.contacts c, lateral set_config('app.tenant_id', $T, true) s`,
      'set_config',
    ],
    [
      'set_config in a union',
      `select display_name from gh_query.contacts union all select set_config('app.tenant_id', $T, true)`,
      'set_config',
    ],
    ['current_setting', `select current_setting('app.tenant_id')`, 'current_setting'],
    ['a data-modifying CTE', `with d as (delete from contacts returning *) select * from d`, 'Only a SELECT'],
    ['an update', `update contacts set status = 'x'`, 'Only a SELECT'],
    ['two statements', `select 1; select 2`, 'exactly one statement'],
    ['SELECT INTO', `select * into stolen from gh_query.contacts`, 'SELECT INTO'],
    ['FOR UPDATE', `select * from gh_query.contacts for update`, 'FOR UPDATE'],
    ['a table', `select * from audit_log`, 'not a query view'],
    [
      'a table joined to a view',
      `select * from gh_query.contacts c join tenant_users u on true`,
      'not a query view',
    ],
    ['a public table', `select * from public.contacts`, 'not a query view'],
    ['a catalog', `select * from pg_stats`, 'not a query view'],
    ['information_schema', `select * from information_schema.tables`, 'not a query view'],
    ['a CTE hiding a catalog', `with pg_stats as (select 1) select * from pg_stats`, 'may not be named'],
    [
      'a CTE naming itself (not recursive)',
      `with x as (select * from x) select * from x`,
      'not a query view',
    ],
    ['a regclass cast', `select 'contacts'::regclass`, 'regclass'],
    ['pg_sleep', `select pg_sleep(10)`, 'pg_sleep'],
    ['pg_read_file', `select pg_read_file('/etc/passwd')`, 'pg_read_file'],
    ['query_to_xml', `select query_to_xml('select * from contacts', true, true, '')`, 'query_to_xml'],
    ['a numbered parameter', `select * from gh_query.contacts where status = $1`, 'numbered parameters'],
    ['not SQL', `selec 1`, 'does not parse'],
  ])('refuses %s', async (_label, sql, message) => {
    const res = await runSql(setTenant(sql));
    expect(res.statusCode).toBe(400);
    expect(JSON.stringify(res.json())).toContain(message);
  });

  it('reads a view named without its schema, never the table of the same name', async () => {
    await saveQuery('Unqualified', `select display_name from contacts order by 1`);
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    const res = await run({ QueryName: list.find((q) => q.title === 'Unqualified')?.name ?? '' });
    expect(res.body).toContain('Rows 1–4.');
    expect(res.body).not.toContain('Secret');
  });

  it.each(DEMO_SAVED_QUERIES.map((q) => [q.title, q.sql]))(
    'passes the demo query %s',
    async (_title, sql) => {
      await expect(checkSql(sql)).resolves.toBeUndefined();
    },
  );

  it('allows CTEs, sub-selects, unions and aggregates over the views', async () => {
    const res = await runSql(
      `with s as (select status, count(*) as n from gh_query.contacts group by status)
       select s.status, s.n, (select count(*) from gh_query.contact_entries) as entries from s
       union all select 'total', count(*), 0 from gh_query.contacts order by 1`,
    );
    expect(res.statusCode).toBe(200);
  });
});

describe('the query views', () => {
  it("are exactly the views the guard lets a query read, each reading with the caller's rights", async () => {
    const rows = (await ctx.database.ownerDb.execute(
      sql`select c.relname as name, c.reloptions::text as options from pg_class c join pg_namespace n on n.oid = c.relnamespace where n.nspname = 'gh_query' order by 1`,
    )) as unknown as
      | { rows?: { name: string; options: string | null }[] }
      | { name: string; options: string | null }[];
    const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
    expect(list.map((r) => r.name)).toEqual([...QUERY_VIEWS].sort());
    for (const r of list) expect(r.options).toContain('security_invoker=true');
  });

  it('lists the billing and events queries and runs them on the association’s rows only', async () => {
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string }[];
    expect(list.map((q) => q.name)).toEqual(
      expect.arrayContaining(['billing.unpaidOverdue', 'events.noShows']),
    );
    const day = (offset: number) => new Date(Date.now() + offset * 86_400_000).toISOString().slice(0, 10);
    for (const tenant of [t, other]) {
      const mine = tenant === t;
      await withTenantTx(
        ctx.database.db,
        { tenantId: tenant.tenant.id, userId: tenant.admin.id },
        async (tx) => {
          const [contact] = await tx
            .select({ id: contacts.contactId })
            .from(contacts)
            .where(sql`${contacts.tenantId} = ${tenant.tenant.id}`)
            .limit(1);
          const contactId = contact?.id ?? 0;
          const invoice = (number: string, status: string, due: string, balance: number) => ({
            tenantId: tenant.tenant.id,
            number,
            contactId,
            contactName: mine ? 'Adams, Ann' : 'Other, Secret',
            status,
            currency: 'USD',
            issueDate: due,
            dueDate: due,
            totalCents: 12_345,
            appliedCents: 12_345 - balance,
            balanceCents: balance,
          });
          await tx
            .insert(invoices)
            .values([
              invoice(mine ? 'INV-OLD' : 'SECRET-OLD', 'open', day(-120), 12_345),
              invoice(mine ? 'INV-RECENT' : 'SECRET-RECENT', 'open', day(-10), 12_345),
              invoice(mine ? 'INV-PAID' : 'SECRET-PAID', 'paid', day(-200), 0),
            ]);
          const ended = {
            startsAt: new Date(Date.now() - 3 * 86_400_000),
            endsAt: new Date(Date.now() - 3 * 86_400_000 + 3_600_000),
          };
          const [event] = await tx
            .insert(events)
            .values({ tenantId: tenant.tenant.id, name: mine ? 'Spring gala' : 'Secret gala', ...ended })
            .returning({ id: events.eventId });
          const [detail] = await tx
            .insert(eventDetails)
            .values({ tenantId: tenant.tenant.id, eventId: event?.id ?? 0, ...ended })
            .returning({ id: eventDetails.eventDetailId });
          const where = {
            tenantId: tenant.tenant.id,
            eventId: event?.id ?? 0,
            eventDetailId: detail?.id ?? 0,
          };
          const [registration] = await tx
            .insert(eventRegistrations)
            .values({ ...where, channel: 'staff' })
            .returning({ id: eventRegistrations.registrationId });
          const attendee = (name: string, status: number, checkedIn: boolean) => ({
            ...where,
            registrationId: registration?.id ?? 0,
            attendeeName: mine ? name : `Secret ${name}`,
            eventAttendeeStatusId: status,
            checkedInAt: checkedIn ? ended.startsAt : null,
          });
          await tx
            .insert(eventAttendees)
            .values([
              attendee('Marked Mary', 6, false),
              attendee('Absent Al', 4, false),
              attendee('Present Pat', 4, true),
              attendee('Cancelled Cal', 3, false),
            ]);
        },
      );
    }
    const unpaid = await run({ QueryName: 'billing.unpaidOverdue', days: '90' });
    expect(unpaid.statusCode).toBe(200);
    expect(unpaid.body).toContain('INV-OLD');
    expect(unpaid.body).toContain('123.45');
    expect(unpaid.body).not.toContain('INV-RECENT');
    expect(unpaid.body).not.toContain('INV-PAID');
    expect(unpaid.body).not.toContain('SECRET');
    const fewerDays = await run({ QueryName: 'billing.unpaidOverdue', days: '5' });
    expect(fewerDays.body).toContain('INV-RECENT');
    const noShows = await run({ QueryName: 'events.noShows', period: '13' });
    expect(noShows.statusCode).toBe(200);
    expect(noShows.body).toContain('Marked Mary');
    expect(noShows.body).toContain('Marked no-show');
    expect(noShows.body).toContain('Absent Al');
    expect(noShows.body).toContain('Not checked in');
    expect(noShows.body).not.toContain('Present Pat');
    expect(noShows.body).not.toContain('Cancelled Cal');
    expect(noShows.body).not.toContain('Secret');
    const earlier = await run({
      QueryName: 'events.noShows',
      period: '0',
      period_StartDate: day(-60),
      period_EndDate: day(-30),
    });
    expect(earlier.body).toContain('No rows.');
  });

  it('lists the memberships queries and runs the renewal list for next month', async () => {
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string }[];
    expect(list.map((q) => q.name)).toEqual(
      expect.arrayContaining(['memberships.lapsing', 'memberships.byStatus']),
    );
    const res = await run({ QueryName: 'memberships.lapsing' });
    expect(res.statusCode).toBe(200);
    expect(res.body).toContain('No rows.');
    const byStatus = await run({ QueryName: 'memberships.byStatus', status: 'active' });
    expect(byStatus.statusCode).toBe(200);
  });
});

describe('limits', () => {
  it('refuses a query whose estimated cost is above the ceiling before it runs', async () => {
    const saved = await saveQuery(
      'Too costly',
      `select count(*) from generate_series(1, 100000000) a, generate_series(1, 100000000) b`,
    );
    expect(saved.statusCode).toBe(200);
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    const name = list.find((q) => q.title === 'Too costly')?.name ?? '';
    const res = await run({ QueryName: name });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('too costly');
    const csv = await download({ QueryName: name });
    expect(csv.statusCode).toBe(400);
    expect(csv.body).toContain('too costly');
  });

  it('answers a database error of the query as 400 with its text', async () => {
    await saveQuery('Divides by zero', `select 1 / (count(*) - count(*)) from gh_query.contacts`);
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    const name = list.find((q) => q.title === 'Divides by zero')?.name ?? '';
    const res = await run({ QueryName: name });
    expect(res.statusCode).toBe(400);
    expect(res.body).toContain('division by zero');
  });

  it('answers an error found while planning the query (a bad column, a constant division) as 400 with its text', async () => {
    await saveQuery('Bad column', `select no_such_column from gh_query.contacts`);
    await saveQuery('Constant division', `select 1 / 0 as "Never" from gh_query.contacts`);
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    const named = (title: string) => ({ QueryName: list.find((q) => q.title === title)?.name ?? '' });
    const column = await run(named('Bad column'));
    expect(column.statusCode).toBe(400);
    expect(column.body).toContain('no_such_column');
    const division = await run(named('Constant division'));
    expect(division.statusCode).toBe(400);
    expect(division.body).toContain('division by zero');
    const csv = await download(named('Constant division'));
    expect(csv.statusCode).toBe(400);
    expect(csv.body).toContain('division by zero');
  });

  it('pages the HTML results', async () => {
    await saveQuery('Many rows', `select g as "N" from generate_series(1, 120) g order by g`);
    const list = (await admin.get('/api/query-tool/queries')).json() as { name: string; title: string }[];
    const name = list.find((q) => q.title === 'Many rows')?.name ?? '';
    const first = await run({ QueryName: name });
    expect(first.body).toContain('Rows 1–50, more follow.');
    expect(first.body).toContain('data-next-page="2"');
    const third = await run({ QueryName: name, Page: '3' });
    expect(third.body).toContain('Rows 101–120.');
    expect(third.body).not.toContain('data-next-page');
    const csv = await download({ QueryName: name });
    expect(csv.body.trimEnd().split('\n')).toHaveLength(121);
  });
});
