/**
 * Pages of a contacts list filtered by one custom field and sorted by another, over more contacts than a page
 * reaches at the top (decision 0112): the keys come from the sort's value index, the filter is probed per key, and
 * the contacts without a value come after the others in key order. Every page is the slice of a full sort of every match (the
 * reference, in SQL), and the total is counted from the kept counts of the values.
 */
import { withTenantTx } from '@guildhall/db';
import { bulkSeedContacts, withBulkTarget } from '@guildhall/seed/bulk';
import { type ListResponse, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
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
import { KEY_FILTER_HASHED_FROM } from '../../platform/resources/resource.repo.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let api: ReturnType<typeof client>;
const COUNT = 2000;
let chapter = 0;
let since = 0;
let north = 0;
let east = 0;
let notes = 0;

async function list(query: string, body: unknown = {}): Promise<ListResponse> {
  const res = await api.post(`/api/contacts/contacts/contactData${query}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListResponse;
}

function rowsOf<R>(result: unknown): R[] {
  const r = result as { rows?: R[] } | R[];
  return Array.isArray(r) ? r : (r.rows ?? []);
}

/**
 * The reference: every live contact of the chapter (with `except`, of every chapter but that one), by its date (those
 * without one last, by key), both ways.
 */
async function reference(direction: 'asc' | 'desc', except?: number): Promise<number[]> {
  return withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
    rowsOf<{ id: unknown }>(
      await tx.execute(sql`select c.contact_id as id from contacts c
        join custom_field_values f on f.tenant_id = c.tenant_id and f.field_id = ${chapter}
          and f.record_id = c.contact_id and ${except ? sql`f.choice_id <> ${except}` : sql`f.choice_id = ${north}`}
        left join custom_field_values d on d.tenant_id = c.tenant_id and d.field_id = ${since}
          and d.record_id = c.contact_id
        where c.tenant_id = ${t.tenant.id} and not c.is_deleted
        order by (d.date_value is null), d.date_value ${sql.raw(direction)}, c.contact_id ${sql.raw(direction)}`),
    ).map((r) => Number(r.id)),
  );
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  await withBulkTarget(ctx.database, process.env.TEST_DATABASE_URL ?? undefined, (target) =>
    bulkSeedContacts(target, { tenantId: t.tenant.id, count: COUNT, seed: 14 }),
  );
  const define = async (body: Record<string, unknown>) => {
    const res = await api.post('/api/custom-fields', { Entity: 'Contact', ...body });
    expect(res.statusCode, res.body).toBe(201);
    return res.json() as { CustomFieldId: number; SelectListItems: { Id: number; Name: string }[] };
  };
  const c = await define({
    Name: 'Chapter',
    CustomFieldDataTypeId: T.Dropdown,
    SelectListItems: [
      { Id: -1, Name: 'North' },
      { Id: -2, Name: 'South' },
      { Id: -3, Name: 'East' },
    ],
  });
  chapter = c.CustomFieldId;
  const ids = c.SelectListItems.map((x) => x.Id);
  north = ids[0] as number;
  east = ids[2] as number;
  since = (await define({ Name: 'Member since', CustomFieldDataTypeId: T.Date })).CustomFieldId;
  notes = (await define({ Name: 'Notes', CustomFieldDataTypeId: T.Text })).CustomFieldId;
  // Two contacts in three in the North chapter; one in ten without a date; dates repeat (ties go by key).
  await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
    await tx.execute(sql`insert into custom_field_values (tenant_id, field_id, record_id, choice_id)
      select tenant_id, ${chapter}, contact_id,
        case when contact_id % 3 = 0 then ${ids[1]}::bigint when contact_id % 7 = 0 then ${ids[2]}::bigint else ${north}::bigint end
      from contacts where tenant_id = ${t.tenant.id}`);
    await tx.execute(sql`insert into custom_field_values (tenant_id, field_id, record_id, date_value)
      select tenant_id, ${since}, contact_id, date '2000-01-01' + ((contact_id * 7919) % 700)::int
      from contacts where tenant_id = ${t.tenant.id} and contact_id % 10 <> 0`);
    await tx.execute(sql`insert into custom_field_values (tenant_id, field_id, record_id, text_value)
      select tenant_id, ${notes}, contact_id, 'Note ' || contact_id from contacts where tenant_id = ${t.tenant.id}`);
  });
  // The statistics a database keeps after such a load (autovacuum's analyze), so the plans are those of a live one.
  await ctx.database.ownerDb.execute(sql`analyze custom_field_values`);
  await ctx.database.ownerDb.execute(sql`analyze contacts`);
}, 300_000);
afterAll(() => ctx.close());

describe('a list filtered by a custom choice and sorted by a custom date', () => {
  const filter = () => ({
    Id: 9999,
    Criteria: [{ PropertyName: `cf_${chapter}`, Operator: 'eq', Value: 'North' }],
  });

  it('answers every page as the slice of a full sort, near the top, deep down and among those without a date', async () => {
    for (const direction of ['asc', 'desc'] as const) {
      const expected = await reference(direction);
      expect(expected.length).toBeGreaterThan(1050);
      const withDate = expected.length - Math.ceil(expected.length / 10);
      for (const skip of [0, 50, 990, 1000, 1010, withDate - 20, expected.length - 30]) {
        const page = await list(`?$skip=${skip}&$top=50&$orderby=cf_${since} ${direction}`, filter());
        expect(
          page.Results.map((r) => Number(r.ContactId)),
          `${direction} from ${skip}`,
        ).toEqual(expected.slice(skip, skip + 50));
        expect(page.TotalRecordAvailable).toBe(expected.length);
      }
    }
  });

  it('answers the pages of a filter on two choices as a full sort, deep pages testing a hash of its matches', async () => {
    // Nine contacts in ten: pages near the top are probed per key, those from offset + limit KEY_FILTER_HASHED_FROM
    // on test the keys against a hash of the filter's matches (decision 0112), down to those without a date.
    const two = {
      Id: 9999,
      Criteria: [{ PropertyName: `cf_${chapter}`, Operator: 'in', Value: ['North', 'South'] }],
    };
    for (const direction of ['asc', 'desc'] as const) {
      const expected = await reference(direction, east);
      expect(expected.length).toBeGreaterThan(KEY_FILTER_HASHED_FROM + 500);
      const withDate = Math.floor(expected.length * 0.9);
      const skips = [
        0,
        200,
        KEY_FILTER_HASHED_FROM - 60,
        KEY_FILTER_HASHED_FROM + 200,
        withDate - 20,
        expected.length - 20,
      ];
      for (const skip of skips) {
        const page = await list(`?$skip=${skip}&$top=50&$orderby=cf_${since} ${direction}`, two);
        expect(
          page.Results.map((r) => Number(r.ContactId)),
          `${direction} from ${skip}`,
        ).toEqual(expected.slice(skip, skip + 50));
        expect(page.TotalRecordAvailable).toBe(expected.length);
      }
    }
  });

  it('answers a list filtered by custom fields and sorted by name as a full sort, however selective the filter', async () => {
    // By the filter's share (m of n records, offset + limit keys): probed per record near the top of a common
    // choice, tested against a hash of the matches at the end of it, joined and sorted for a rare date range.
    const byName = async (condition: ReturnType<typeof sql>, direction: 'asc' | 'desc') =>
      withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
        rowsOf<{ id: unknown }>(
          await tx.execute(sql`select c.contact_id as id from contacts c
            where c.tenant_id = ${t.tenant.id} and not c.is_deleted and exists (select 1 from custom_field_values f
              where f.tenant_id = c.tenant_id and f.record_id = c.contact_id and ${condition})
            order by c.display_name ${sql.raw(direction)}, c.contact_id ${sql.raw(direction)}`),
        ).map((r) => Number(r.id)),
      );
    const south = sql`f.field_id = ${chapter} and f.choice_id <> ${north} and f.choice_id <> ${east}`;
    const rare = sql`f.field_id = ${since} and f.date_value between '2000-03-01' and '2000-03-02'`;
    for (const direction of ['asc', 'desc'] as const) {
      const common = await byName(south, direction);
      const few = await byName(rare, direction);
      expect(common.length).toBeGreaterThan(500);
      expect(few.length).toBeGreaterThan(0);
      expect(few.length).toBeLessThan(20);
      for (const skip of [0, 100, common.length - 30]) {
        const page = await list(`?$skip=${skip}&$top=50&$orderby=DisplayName ${direction}`, {
          Id: 9999,
          Criteria: [{ PropertyName: `cf_${chapter}`, Operator: 'eq', Value: 'South' }],
        });
        expect(
          page.Results.map((r) => Number(r.ContactId)),
          `South ${direction} from ${skip}`,
        ).toEqual(common.slice(skip, skip + 50));
        expect(page.TotalRecordAvailable).toBe(common.length);
      }
      const page = await list(`?$top=50&$orderby=DisplayName ${direction}`, {
        Id: 9999,
        Criteria: [
          { PropertyName: `cf_${since}`, Operator: 'between', Value: '2000-03-01', Value2: '2000-03-02' },
        ],
      });
      expect(
        page.Results.map((r) => Number(r.ContactId)),
        `rare ${direction}`,
      ).toEqual(few);
      expect(page.TotalRecordAvailable).toBe(few.length);
    }
  });

  it('counts the total from the kept counts, which follow every write of a value', async () => {
    const before = (await list('?$top=1', filter())).TotalRecordAvailable;
    const [moved] = (await reference('asc')).slice(0, 1);
    const res = await api.put(`/api/custom-fields/values/Contact/${moved}`, {
      Values: { [chapter]: 'South' },
    });
    expect(res.statusCode, res.body).toBe(200);
    expect((await list('?$top=1', filter())).TotalRecordAvailable).toBe(before - 1);
    const gone = await api.delete(`/api/contacts/contacts/${(await reference('asc'))[0]}`);
    expect(gone.statusCode, gone.body).toBeLessThan(300);
    expect((await list('?$top=1', filter())).TotalRecordAvailable).toBe(before - 2);
    expect((await reference('asc')).length).toBe(before - 2);
  });
});

describe('a list filtered by part of a custom text and sorted by name', () => {
  // The matches are read once by the page (decision 0192): their number is the total, and the page walks the name
  // index against their hash (many) or joins them (few). Every page is the slice of a full sort, the total exact, also
  // past the last page and when nothing matches.
  const byName = async (part: string, direction: 'asc' | 'desc') =>
    withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) =>
      rowsOf<{ id: unknown }>(
        await tx.execute(sql`select c.contact_id as id from contacts c
          where c.tenant_id = ${t.tenant.id} and not c.is_deleted and exists (select 1 from custom_field_values f
            where f.tenant_id = c.tenant_id and f.record_id = c.contact_id and f.field_id = ${notes}
              and lower(f.text_value) like ${`%${part}%`})
          order by c.display_name ${sql.raw(direction)}, c.contact_id ${sql.raw(direction)}`),
      ).map((r) => Number(r.id)),
    );
  const contains = (Value: string) => ({
    Id: 9999,
    Criteria: [{ PropertyName: `cf_${notes}`, Operator: 'contains', Value }],
  });

  it('answers every page and the exact total from one read of the matches, many or few', async () => {
    for (const direction of ['asc', 'desc'] as const)
      for (const part of ['note 12', 'note 123', 'note 1']) {
        const expected = await byName(part, direction);
        expect(expected.length).toBeGreaterThan(0);
        for (const skip of [0, 50, Math.max(0, expected.length - 20), expected.length + 50]) {
          const page = await list(`?$skip=${skip}&$top=50&$orderby=DisplayName ${direction}`, contains(part));
          expect(
            page.Results.map((r) => Number(r.ContactId)),
            `${part} ${direction} from ${skip}`,
          ).toEqual(expected.slice(skip, skip + 50));
          expect(page.TotalRecordAvailable, `${part} ${direction} from ${skip}`).toBe(expected.length);
        }
      }
    const none = await list('?$top=50&$orderby=DisplayName asc', contains('no such note'));
    expect(none.Results).toEqual([]);
    expect(none.TotalRecordAvailable).toBe(0);
  });

  it('follows a value written and a contact deleted', async () => {
    const [first] = await byName('note 123', 'asc');
    const before = (await list('?$top=50&$orderby=DisplayName asc', contains('note 123')))
      .TotalRecordAvailable;
    const res = await api.put(`/api/custom-fields/values/Contact/${first}`, { Values: { [notes]: 'Moved' } });
    expect(res.statusCode, res.body).toBe(200);
    const after = await list('?$top=50&$orderby=DisplayName asc', contains('note 123'));
    expect(after.TotalRecordAvailable).toBe(before - 1);
    expect(after.Results.map((r) => Number(r.ContactId))).toEqual(await byName('note 123', 'asc'));
  });
});
