/**
 * A text custom field's contains and starts-with filters are read from the trigram index of the values table
 * (`custom_field_values_text_trgm_idx`) as the application role, under row-level security: the filter's condition
 * must be the index's expression and leak-proof (decision 0102's amendment), else PostgreSQL checks it against
 * every value of the field. Planned against an empty copy of the table that holds only that index and the tenant
 * policy, so the planner has no other index to prefer. Runs on PGlite and, with TEST_DATABASE_URL, on PostgreSQL.
 */
import { type Fragment, q, raw, runFragment } from '@guildhall/db';
import { type FilterCriterion, CUSTOM_FIELD_DATA_TYPES as T } from '@guildhall/shared';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { seedTenant, type TenantWithUsers, type TestContext, testApp } from '../../../test/helpers.ts';
import { type BoundResource, discoverResources } from '../../platform/resources/registry.ts';
import { listFieldOf } from './custom-fields.list.ts';

const TABLE = 'custom_field_values';
const INDEX = 'custom_field_values_text_trgm_idx';

let ctx: TestContext;
let t: TenantWithUsers;
let contacts: BoundResource;

beforeAll(async () => {
  ctx = await testApp({}, 2);
  t = await seedTenant(ctx.database);
  const found = (await discoverResources()).find((b) => b.resource.name === 'contacts');
  if (!found) throw new Error('no contacts resource');
  contacts = found;
});
afterAll(() => ctx.close());

interface PlanNode {
  'Node Type': string;
  'Index Name'?: string;
  'Index Cond'?: string;
  Plans?: PlanNode[];
}

function nodes(plan: PlanNode): PlanNode[] {
  return [plan, ...(plan.Plans ?? []).flatMap(nodes)];
}

async function planWithTrigramIndexAlone(statement: Fragment): Promise<PlanNode> {
  let plan: PlanNode | undefined;
  const rollback = new Error('rolled back');
  await ctx.database.ownerDb
    .transaction(async (tx) => {
      await runFragment(tx, q`reset role`);
      const [index] = await runFragment<{ def: string }>(
        tx,
        q`select pg_get_indexdef(c.oid) as def from pg_class c where c.relname = ${INDEX}`,
      );
      const [policy] = await runFragment<{ qual: string }>(
        tx,
        q`select pg_get_expr(polqual, polrelid) as qual from pg_policy where polrelid = ${TABLE}::regclass limit 1`,
      );
      if (!index || !policy) throw new Error(`${TABLE} has no index ${INDEX} or no policy`);
      await runFragment(
        tx,
        q`${raw(`create temp table "${TABLE}" (like public."${TABLE}") on commit drop`)}`,
      );
      await runFragment(
        tx,
        q`${raw(index.def.replace(/^CREATE INDEX \S+ ON \S+/, `CREATE INDEX "${INDEX}_alone" ON pg_temp."${TABLE}"`))}`,
      );
      await runFragment(tx, q`${raw(`alter table pg_temp."${TABLE}" enable row level security`)}`);
      await runFragment(tx, q`${raw(`alter table pg_temp."${TABLE}" force row level security`)}`);
      await runFragment(
        tx,
        q`${raw(`create policy tenant_isolation on pg_temp."${TABLE}" using (${policy.qual})`)}`,
      );
      await runFragment(tx, q`${raw(`grant select on pg_temp."${TABLE}" to guildhall_app`)}`);
      await runFragment(tx, q`set local role guildhall_app`);
      await runFragment(
        tx,
        q`select set_config('app.tenant_id', ${t.tenant.id}, true), set_config('enable_seqscan', 'off', true)`,
      );
      const [row] = await runFragment<{ 'QUERY PLAN': unknown }>(tx, q`explain (format json) ${statement}`);
      const doc = row?.['QUERY PLAN'];
      plan = ((typeof doc === 'string' ? JSON.parse(doc) : doc) as { Plan: PlanNode }[])[0]?.Plan;
      throw rollback;
    })
    .catch((err: unknown) => {
      if (err !== rollback) throw err;
    });
  if (!plan) throw new Error('no plan');
  return plan;
}

describe('a text custom field filtered by part of its value', () => {
  for (const [type, name] of [
    [T.Text, 'text'],
    [T.DropdownWithFillIn, 'fill-in text'],
  ] as const)
    for (const Operator of ['contains', 'startsWith'] as const) {
      if (type === T.DropdownWithFillIn && Operator === 'startsWith') continue;
      it(`reads a ${name} ${Operator} from the trigram index as the application role`, async () => {
        const field = listFieldOf(contacts, {
          CustomFieldId: 7,
          Name: 'Diet',
          CustomFieldDataTypeId: type,
          SelectListItems: type === T.DropdownWithFillIn ? [{ Id: 1, Name: 'Other' } as never] : [],
        });
        const criterion: FilterCriterion = { PropertyName: 'cf_7', Operator, Value: 'Diet 42' };
        // The total of a single criterion (counted from the values alone) and the page's filter on the records.
        const count = field?.count?.(criterion, t.tenant.id);
        const filter = field?.filter?.(criterion, 'probe');
        if (!count || !filter) throw new Error('the field cannot be filtered');
        for (const statement of [
          q`select ${count} as n`,
          q`select ${contacts.sqlKey} from ${contacts.sqlSource} where ${contacts.sqlTenant} = ${t.tenant.id} and ${filter}`,
        ]) {
          // The index is searched by the pattern (its condition), not read whole with the match checked per row.
          const searched = nodes(await planWithTrigramIndexAlone(statement))
            .filter((n) => n['Index Name'] === `${INDEX}_alone`)
            .map((n) => n['Index Cond'] ?? '(no index condition)');
          expect(searched).toEqual([expect.stringMatching(/lower\(text_value\) ~~ /)]);
        }
      });
    }
});
