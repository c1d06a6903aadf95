/**
 * The contacts list's search box over more matches than it counts exactly (decision 0101): up to
 * LIST_SEARCH_EXACT_UP_TO matches the total is exact and the pages are every match sorted, as a full sort of them
 * would give; beyond, the total is an estimate, labelled, and the pages are LIST_SEARCH_EXACT_UP_TO of the matches
 * in the list's order.
 */
import { KeptFragment, q, runFragment, withTenantTx } from '@guildhall/db';
import { bulkSeedContacts, withBulkTarget } from '@guildhall/seed/bulk';
import {
  contactsResource,
  LIST_SEARCH_EXACT_UP_TO,
  type ListResponse,
  listSearchMatches,
} from '@guildhall/shared';
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
import { boundResource } from '../../platform/resources/registry.ts';
import {
  LIST_SEARCH_SCAN_MATCHES,
  listSearchStatement,
  searchPageRows,
} from '../../platform/resources/resource.repo.ts';

let ctx: TestContext;
let t: TenantWithUsers;
let api: ReturnType<typeof client>;
const base = '/api/contacts/contacts/contactData';
const COUNT = LIST_SEARCH_EXACT_UP_TO + 1500;

async function list(query: string, body: unknown = {}): Promise<ListResponse> {
  const res = await api.post(`${base}${query}`, body);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as ListResponse;
}

/** Every live contact whose staff document holds the folded word, in the list's order by name (the reference). */
async function matching(word: string, direction: 'asc' | 'desc' = 'asc'): Promise<number[]> {
  return withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, async (tx) => {
    const rows = (await tx.execute(
      sql`select c.contact_id as id from contacts c join search_documents d on d.tenant_id = c.tenant_id
        and d.audience = 'staff' and d.entity_type = 'Contact' and d.entity_id = c.contact_id::text
        where c.tenant_id = ${t.tenant.id} and not c.is_deleted and d.search_text like ${`%${word}%`}
        order by c.display_name ${sql.raw(direction)}, c.contact_id ${sql.raw(direction)}`,
    )) as unknown as { rows?: { id: unknown }[] } | { id: unknown }[];
    const list = Array.isArray(rows) ? rows : (rows.rows ?? []);
    return list.map((r) => Number(r.id));
  });
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  await withBulkTarget(ctx.database, process.env.TEST_DATABASE_URL ?? undefined, (target) =>
    bulkSeedContacts(target, { tenantId: t.tenant.id, count: COUNT, seed: 11 }),
  );
}, 120_000);
afterAll(() => ctx.close());

describe('the list search box', () => {
  it('counts up to the threshold exactly and answers the matches in order, at any page', async () => {
    const expected = await matching('houston');
    expect(expected.length).toBeGreaterThan(0);
    expect(expected.length).toBeLessThanOrEqual(LIST_SEARCH_EXACT_UP_TO);
    const first = await list('?$top=50&$skip=0&$search=houston');
    expect(first.TotalRecordAvailable).toBe(expected.length);
    expect(first.TotalIsEstimate).toBeUndefined();
    expect(first.Results.map((r) => r.ContactId)).toEqual(expected.slice(0, 50));
    const later = await list('?$top=50&$skip=50&$orderby=DisplayName%20desc&$search=houston');
    expect(later.Results.map((r) => r.ContactId)).toEqual((await matching('houston', 'desc')).slice(50, 100));
  });

  it('labels the total an estimate beyond the threshold and pages through that many matches in order', async () => {
    // Every seeded contact has an address at example.org: more matches than are counted exactly.
    const every = new Set(await matching('example'));
    expect(every.size).toBeGreaterThan(LIST_SEARCH_EXACT_UP_TO);
    const first = await list('?$top=50&$skip=0&$search=example');
    expect(first.TotalIsEstimate).toBe(true);
    expect(first.TotalRecordAvailable).toBeGreaterThan(LIST_SEARCH_EXACT_UP_TO);
    // Every page in the list's order, none repeating another's rows, all of them matches: the threshold's worth.
    const seen: Record<string, unknown>[] = [];
    for (let skip = 0; ; skip += 1000) {
      const page = await list(`?$top=1000&$skip=${skip}&$search=example`);
      if (page.Results.length === 0) break;
      seen.push(...page.Results);
    }
    expect(seen).toHaveLength(LIST_SEARCH_EXACT_UP_TO);
    expect(new Set(seen.map((r) => r.ContactId)).size).toBe(LIST_SEARCH_EXACT_UP_TO);
    expect(seen.every((r) => every.has(Number(r.ContactId)))).toBe(true);
    const names = seen.map((r) => [String(r.DisplayName), Number(r.ContactId)] as const);
    const sorted = [...names].sort((a, b) => (a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : a[1] - b[1]));
    expect(names).toEqual(sorted);
    expect(first.Results.map((r) => r.ContactId)).toEqual(seen.slice(0, 50).map((r) => r.ContactId));
    // Descending: the same matches the other way round.
    const desc = await list(`?$top=50&$skip=0&$orderby=DisplayName%20desc&$search=example`);
    expect(desc.Results.map((r) => r.ContactId)).toEqual(
      seen
        .slice(-50)
        .reverse()
        .map((r) => r.ContactId),
    );
    // With a named filter: active matches only.
    const active = await list('?$top=20&$skip=0&$search=example', { Id: 1 });
    expect(active.TotalIsEstimate).toBe(true);
    expect(active.Results.length).toBe(20);
    expect(active.Results.every((r) => r.Status === 'active')).toBe(true);
    // Past the last page: no rows, the same total.
    const past = await list(`?$top=50&$skip=${LIST_SEARCH_EXACT_UP_TO}&$search=example`);
    expect(past.Results).toEqual([]);
    expect(past.TotalRecordAvailable).toBe(first.TotalRecordAvailable);
  });

  it('answers an estimate from the sampled share of matches times the unsearched total', async () => {
    const [row] = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, (tx) =>
      runFragment<{ n: unknown }>(tx, q`select count(*) as n from contacts where not is_deleted`),
    );
    const live = Number(row?.n);
    const answer = await list('?$top=1&$skip=0&$search=example');
    // Every live contact matches: the sampled share is 1, so the estimate is the list's total.
    expect(answer.TotalIsEstimate).toBe(true);
    expect(answer.TotalRecordAvailable).toBe(live);
    // With a named filter: the share times the filter's own total (the counter of active contacts).
    const [active] = await withTenantTx(
      ctx.database.db,
      { tenantId: t.tenant.id, userId: t.admin.id },
      (tx) =>
        runFragment<{ n: unknown }>(
          tx,
          q`select count(*) as n from contacts where not is_deleted and status = 'active'`,
        ),
    );
    const filtered = await list('?$top=1&$skip=0&$search=example', { Id: 1 });
    expect(filtered.TotalIsEstimate).toBe(true);
    expect(filtered.TotalRecordAvailable).toBe(Number(active?.n));
  });

  it('reads the documents in their key order for a term the estimate says many match, else through the index', async () => {
    // The statement of the list searched for "example" (every contact), sorted by key, all its listed matches on
    // one page, with the list's total without the search as given.
    const bound = boundResource(ctx.app.services.resources, contactsResource.name);
    const plan = bound.hooks.searchIndex?.('example');
    expect(plan?.scan).toBeDefined();
    const listed = async (unsearched: number) => {
      const statement = listSearchStatement(
        bound,
        t.tenant.id,
        {
          whereWithoutSearch: undefined,
          search: plan!,
          sorts: [{ field: 'ContactId', direction: 'asc' }],
          limit: LIST_SEARCH_EXACT_UP_TO,
          offset: 0,
        },
        q`select ${unsearched}::bigint as n`,
      );
      // Planned for its term on every request: its generic plan would read the documents whole (decision 0197).
      expect(statement).not.toBeInstanceOf(KeptFragment);
      const rows = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, (tx) =>
        runFragment(tx, statement),
      );
      return searchPageRows(rows);
    };
    // The first matching documents by key (the text of the id), as reading them in that order finds them.
    const inKeyOrder = await withTenantTx(
      ctx.database.db,
      { tenantId: t.tenant.id, userId: t.admin.id },
      (tx) =>
        runFragment<{ id: unknown }>(
          tx,
          q`select entity_id as id from search_documents where audience = 'staff' and entity_type = 'Contact'
            and search_text like '%example%' order by entity_id limit ${LIST_SEARCH_EXACT_UP_TO}`,
        ),
    );
    const firstByKey = inKeyOrder.map((r) => Number(r.id)).sort((a, b) => a - b);
    // Estimated beyond LIST_SEARCH_SCAN_MATCHES: the listed matches are the first documents by key.
    const many = await listed(LIST_SEARCH_SCAN_MATCHES * 100);
    expect(many.estimated).toBe(true);
    expect(many.total).toBe(LIST_SEARCH_SCAN_MATCHES * 100);
    expect(many.rows.map((r) => Number(r.ContactId))).toEqual(firstByKey);
    // Fewer estimated (the seeded list): the trigram index's matches, not read in the documents' key order.
    const few = await listed(COUNT);
    expect(few.estimated).toBe(true);
    expect(few.rows).toHaveLength(LIST_SEARCH_EXACT_UP_TO);
    expect(few.rows.map((r) => Number(r.ContactId))).not.toEqual(firstByKey);
  });

  it('matches a word of one or two letters where a word begins, a longer one anywhere (decision 0199)', async () => {
    // Every live contact's staff document, in the list's order by name: the reference the rule gives.
    const docs = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id, userId: t.admin.id }, (tx) =>
      runFragment<{ id: unknown; text: string }>(
        tx,
        q`select c.contact_id as id, d.search_text as text from contacts c join search_documents d
            on d.tenant_id = c.tenant_id and d.audience = 'staff' and d.entity_type = 'Contact'
            and d.entity_id = c.contact_id::text
          where c.tenant_id = ${t.tenant.id} and not c.is_deleted order by c.display_name, c.contact_id`,
      ),
    );
    const by = (word: string, rule: (text: string) => boolean) =>
      docs.filter((d) => rule(d.text) && word !== '').map((d) => Number(d.id));
    // Short words that begin some words and sit inside others, each matching fewer contacts than the exact
    // threshold: the rule of where a word begins is then the one told apart from "anywhere".
    const candidates = [
      'ar',
      'an',
      'er',
      'el',
      'on',
      'in',
      'ra',
      'ri',
      'ma',
      'li',
      'ro',
      'ha',
      'o',
      'k',
      'z',
    ];
    const shorts = candidates.filter((w) => {
      const starts = by(w, (x) => listSearchMatches(x, w)).length;
      return starts > 0 && starts <= LIST_SEARCH_EXACT_UP_TO && by(w, (x) => x.includes(w)).length > starts;
    });
    expect(shorts.length).toBeGreaterThan(1);
    for (const word of shorts.slice(0, 3)) {
      const want = by(word, (x) => listSearchMatches(x, word));
      const first = await list(`?$top=50&$skip=0&$orderby=DisplayName%20asc&$search=${word}`);
      expect(first.TotalRecordAvailable, word).toBe(want.length);
      expect(
        first.Results.map((r) => Number(r.ContactId)),
        word,
      ).toEqual(want.slice(0, 50));
      const last = Math.max(0, want.length - 20);
      const deep = await list(`?$top=50&$skip=${last}&$orderby=DisplayName%20asc&$search=${word}`);
      expect(
        deep.Results.map((r) => Number(r.ContactId)),
        word,
      ).toEqual(want.slice(last, last + 50));
    }
    // Three letters: anywhere in the text, as before.
    const three = 'ari';
    const want = by(three, (x) => x.includes(three));
    expect(want.length).toBeGreaterThan(0);
    const res = await list(`?$top=50&$skip=0&$orderby=DisplayName%20asc&$search=${three}`);
    expect(res.TotalRecordAvailable).toBe(want.length);
  });
});
