/**
 * Custom fields in the generic lists (decision 0112): each live field of a resource that opts in becomes a list
 * field `cf_<id>` that a column shows, a sort orders by and a filter tests, read from the typed values table through
 * its indexes `(tenant_id, field_id, <typed column>, record_id)`:
 * - a filter is a semi-join on the values of that field (`exists`, the planner drives it from the index range of a
 *   choice, a date or number range, or probes it per row);
 * - a sort is runs read one after the other: the values in order of the typed index (a choice: the records of each
 *   choice in the order of the choice list), then the records without a value in key order;
 * - a column is a correlated read of the value by the primary key (50 probes for a page).
 * Only integers the server checked (field and choice ids) are written into the SQL; values are parameters.
 */
import {
  type Database,
  type Fragment,
  joinFragments,
  q,
  type Raw,
  raw,
  runFragment,
  withTenantTx,
} from '@guildhall/db';
import {
  type CustomFieldRuleModel,
  customFieldDeclaration,
  customFieldKey,
  type FilterCriterion,
  parseBooleanInput,
  type SelectListItem,
  CUSTOM_FIELD_DATA_TYPES as T,
} from '@guildhall/shared';
import { HttpError } from '../../platform/errors.ts';
import { type JobHandler, PermanentJobError } from '../../platform/jobs.ts';
import type {
  ExtraFieldsSource,
  ExtraFilterMode,
  ExtraListField,
  KeyRow,
  SortRun,
} from '../../platform/resources/extra-fields.ts';
import type { BoundResource } from '../../platform/resources/registry.ts';
import { deleteRecordValues } from './custom-fields.repo.ts';
import {
  answersOf,
  importerOf,
  mergeRecordValues,
  publishedOf,
  searchTextsOf,
} from './custom-fields.service.ts';

const VALUES = raw('custom_field_values');

/** The types a pair sorts by (decision 0196): a number, currency, date or date-time, as one numeric order. */
const PAIR_SORT_TYPES = [T.Number, T.Currency, T.Date, T.DateTime].map(String);

/** Above this many choices a sort by a choice orders by choice id (one run), not by the list's order. */
const MAX_CHOICE_RUNS = 30;

type Kind = 'text' | 'number' | 'date' | 'datetime' | 'bool' | 'choice' | 'fillIn' | 'multi';

function kindOf(type: number): Kind | null {
  switch (type) {
    case T.Text:
    case T.MultiLineText:
    case T.Email:
    case T.Phone:
    case T.Website:
      return 'text';
    case T.Number:
    case T.Currency:
      return 'number';
    case T.Date:
      return 'date';
    case T.DateTime:
      return 'datetime';
    case T.Checkbox:
      return 'bool';
    case T.Dropdown:
    case T.YesNo:
      return 'choice';
    case T.DropdownWithFillIn:
      return 'fillIn';
    case T.MultiChoice:
      return 'multi';
    default:
      return null; // a file (its own model) or a section heading (no value)
  }
}

/** The typed column a kind of value is kept in (decision 0111). */
const COLUMN: Record<Kind, string> = {
  text: 'text_value',
  number: 'number_value',
  date: 'date_value',
  datetime: 'datetime_value',
  bool: 'bool_value',
  choice: 'choice_id',
  fillIn: 'choice_id',
  multi: 'choice_ids',
};

function refuse(label: string, message: string): never {
  throw new HttpError(400, `${label}: ${message}`, { Criteria: [message] });
}

/** A value as a `like` pattern's literal text, lower-cased (matched against TEXT_KEY). */
function likeLower(value: unknown): string {
  return String(value ?? '')
    .toLowerCase()
    .replace(/[\\%_]/g, (c) => `\\${c}`);
}

/**
 * What a text value is matched by (contains, starts with): its lower-cased text, the expression of the trigram index
 * `custom_field_values_text_trgm_idx`. Spelled with `lower` and `like` (`textlike`), both LEAKPROOF (migrations 0009
 * and 0085), so PostgreSQL reads the condition from the index under row-level security (decision 0102's amendment);
 * `ilike` is not LEAKPROOF and was checked row by row against every value of the field.
 */
const TEXT_KEY = raw('lower(s.text_value)');

/** Criteria a trigram index answers: a page filtered by them reads the matches as a set, never probes per row. */
const MATCHED_FROM_INDEX = new Set(['contains', 'startsWith']);

function int(n: number): Raw {
  if (!Number.isSafeInteger(n)) throw new Error(`not an integer: ${n}`);
  return raw(String(n));
}

interface Definition extends CustomFieldRuleModel {
  SelectListItems: SelectListItem[];
  /** The pairs a list asked for with this field as their sort (decision 0196), read with the definitions. */
  pairs?: SortPair[];
}

/** A pair asked for: its filter field, whether its keys are filled, whether it was said to be used today. */
interface SortPair {
  filter: number;
  ready: boolean;
  fresh: boolean;
}

/** What a field's list field knows of the others of its resource: their definitions and the tenant's pairs. */
interface Siblings {
  byId: ReadonlyMap<number, Definition>;
  pairCount: number;
}

/** Pairs a tenant keeps at most (decision 0196): beyond, a list is read as without them. */
export const MAX_SORT_PAIRS = 16;

/** The job that fills a pair's keys after a list asked for it (decision 0196). */
export const PAIR_FILL_JOB = 'custom-fields-pair-fill';

function jsonOf(v: unknown): unknown {
  return typeof v === 'string' ? JSON.parse(v) : v;
}

function definitionOf(row: Record<string, unknown>): Definition {
  const choices = jsonOf(row.choices);
  const pairs = jsonOf(row.pairs ?? null);
  return {
    CustomFieldId: Number(row.id),
    Name: String(row.name),
    CustomFieldDataTypeId: Number(row.type),
    SelectListItems: Array.isArray(choices) ? (choices as SelectListItem[]) : [],
    ...(Array.isArray(pairs)
      ? {
          pairs: (pairs as unknown[][]).map(([filter, ready, fresh]) => ({
            filter: Number(filter),
            ready: ready === true,
            fresh: fresh === true,
          })),
        }
      : {}),
  };
}

/** A choice of a field named by its id or its name (as a criterion names it), or undefined. */
function choiceNamed(choices: readonly SelectListItem[], v: unknown): SelectListItem | undefined {
  const text = String(v ?? '').trim();
  const byId = /^\d+$/.test(text) ? choices.find((x) => x.Id === Number(text)) : undefined;
  return byId ?? choices.find((x) => x.Name.trim().toLowerCase() === text.toLowerCase());
}

/**
 * The number of a field's value rows kept by the values table's statement triggers (migration 0092), as a scalar:
 * every value row of the field, or those whose choice (a checkbox's 'true' or 'false', a multi-choice answer's set of
 * choices as '{1,4}' since migration 0102, '' for no choice) is one of `values`. A record has at most one value row per field, and a deleted record none.
 */
function keptCount(tenantId: string, fieldId: Raw, values?: readonly string[]): Fragment {
  const which = values
    ? q` and value in (${joinFragments(
        values.map((v) => q`${v}`),
        ', ',
      )})`
    : raw('');
  return q`(select coalesce(sum(n), 0) from list_counts where tenant_id = ${tenantId} and table_name = 'custom_field_values' and facet = ${fieldId.text}${which})`;
}

/** A custom field as a list field of the resource `bound`. */
export function listFieldOf(
  bound: BoundResource,
  field: Definition,
  siblings?: Siblings,
): ExtraListField | null {
  const kind = kindOf(field.CustomFieldDataTypeId);
  const declaration = customFieldDeclaration(field);
  if (!kind || !declaration) return null;
  const id = int(field.CustomFieldId);
  const label = field.Name;
  const col = (alias: string) => raw(`${alias}.${COLUMN[kind]}`);
  /** The value row of this field for the source's row, as alias `v`. */
  const ofRow = (alias: string) =>
    q`${VALUES} ${raw(alias)} where ${raw(alias)}.tenant_id = ${bound.sqlTenant} and ${raw(alias)}.field_id = ${id} and ${raw(alias)}.record_id = ${bound.sqlKey}`;
  const read = (expr: Fragment | Raw) => q`(select ${expr} from ${ofRow('v')})`;
  const choices = field.SelectListItems;
  const nameOf = (choiceId: unknown) =>
    choices.find((c) => c.Id === Number(choiceId))?.Name ?? `(removed choice ${String(choiceId)})`;
  const names = JSON.stringify(Object.fromEntries(choices.map((c) => [String(c.Id), c.Name])));
  const choiceName = (expr: Raw) => q`(${names}::jsonb ->> ${expr}::text)`;

  // What a column shows, and its export cell.
  let value: Fragment;
  let exportText: Fragment;
  let decode: ((v: unknown) => unknown) | undefined;
  let columnType: string = declaration.type;
  switch (kind) {
    case 'number':
      value = read(raw('v.number_value'));
      decode = (v) => Number(v);
      exportText = read(
        field.CustomFieldDataTypeId === T.Currency
          ? raw("to_char(v.number_value / 100, 'FM999999999999990.00')")
          : raw('v.number_value::text'),
      );
      break;
    case 'date':
      value = read(raw('v.date_value::text'));
      exportText = value;
      break;
    case 'datetime':
      value = read(raw('v.datetime_value'));
      decode = (v) => new Date(String(v)).toISOString();
      exportText = read(raw(`to_char(v.datetime_value at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')`));
      break;
    case 'bool':
      value = read(raw('v.bool_value'));
      decode = (v) => (v === true || v === 't' ? 'Yes' : 'No');
      columnType = 'text';
      exportText = read(raw(`case when v.bool_value then 'Yes' else 'No' end`));
      break;
    case 'choice':
      value = read(raw('v.choice_id'));
      decode = nameOf;
      columnType = 'text';
      exportText = read(choiceName(raw('v.choice_id')));
      break;
    case 'fillIn':
      // The Other choice keeps its fill-in text: that text, else the choice's name.
      value = read(
        raw(`case when v.text_value is not null then 't' || v.text_value else 'c' || v.choice_id end`),
      );
      decode = (v) => (String(v).startsWith('t') ? String(v).slice(1) : nameOf(String(v).slice(1)));
      columnType = 'text';
      exportText = read(q`coalesce(v.text_value, ${choiceName(raw('v.choice_id'))})`);
      break;
    case 'multi':
      value = read(raw(`array_to_string(v.choice_ids, ',')`));
      decode = (v) =>
        String(v)
          .split(',')
          .filter((x) => x !== '')
          .map(nameOf)
          .join('; ');
      columnType = 'text';
      exportText = read(
        q`(select string_agg(${choiceName(raw('x'))}, '; ' order by o) from unnest(v.choice_ids) with ordinality u(x, o))`,
      );
      break;
    default:
      value = read(raw('v.text_value'));
      exportText = value;
  }

  // The sort: runs through the typed index (decision 0112), and the same order as a value for a sort in memory.
  const choiceIds = choices.map((c) => int(c.Id).text);
  const byChoiceOrder = choices.length > 0 && choices.length <= MAX_CHOICE_RUNS;
  let sortValue: Fragment | undefined;
  let sortRuns: ((direction: 'asc' | 'desc') => SortRun[]) | undefined;
  const join = (condition: Fragment | Raw) =>
    q`join ${VALUES} s on s.tenant_id = ${bound.sqlTenant} and s.record_id = ${bound.sqlKey} and s.field_id = ${id} and ${condition}`;
  /**
   * A run's keys from the values of this field alone (SortRun.keys), in `order` (of alias `kv`): those `where` keeps
   * when the list has conditions (on the key `kv.record_id`).
   */
  const keysOf =
    (condition: Raw, order: Fragment) =>
    (tenantId: string, where?: (row: KeyRow) => Fragment): Fragment =>
      q`select kv.record_id as gh_page_key from ${VALUES} kv where kv.tenant_id = ${tenantId} and kv.field_id = ${id} and ${condition}${where ? q` and ${where({ tenant: raw('kv.tenant_id'), key: raw('kv.record_id'), tenantId })}` : raw('')} order by ${order}`;
  // The records without a value: each record probed in key order (`offset 0` keeps it a probe), so the run stops
  // with the page. As a plain `not exists` the planner made it an anti-join of every record with every value of
  // the field, hashed and sorted: planned (and costed) on every request, even when the run is never read.
  const empties = (direction: 'asc' | 'desc'): SortRun => ({
    where: q`not exists (select 1 from ${ofRow('e')} offset 0)`,
    order: q`${bound.sqlKey} ${raw(direction)}`,
    withoutValue: { valued: (tenantId) => keptCount(tenantId, id) },
  });
  if (kind === 'text' || kind === 'number' || kind === 'date' || kind === 'datetime') {
    const expr = (alias: string) =>
      kind === 'text' ? raw(`lower(left(${alias}.text_value, 200))`) : raw(`${alias}.${COLUMN[kind]}`);
    sortValue = read(expr('v'));
    sortRuns = (d) => [
      {
        join: join(raw(`s.${COLUMN[kind]} is not null`)),
        order: q`${expr('s')} ${raw(d)}, s.record_id ${raw(d)}`,
        keys: keysOf(
          raw(`kv.${COLUMN[kind]} is not null`),
          q`${expr('kv')} ${raw(d)}, kv.record_id ${raw(d)}`,
        ),
      },
      empties(d),
    ];
  } else if (kind === 'bool') {
    sortValue = read(raw('v.bool_value'));
    sortRuns = (d) => [
      ...(d === 'asc' ? [false, true] : [true, false]).map((b) => ({
        join: join(raw(`s.bool_value = ${b}`)),
        order: q`s.record_id ${raw(d)}`,
        keys: keysOf(raw(`kv.bool_value = ${b}`), q`kv.record_id ${raw(d)}`),
      })),
      empties(d),
    ];
  } else if (kind === 'choice' || kind === 'fillIn') {
    const place = byChoiceOrder
      ? raw(`array_position(array[${choiceIds.join(', ')}]::bigint[], v.choice_id)`)
      : raw('v.choice_id');
    sortValue = read(place);
    sortRuns = (d) => {
      if (!byChoiceOrder)
        return [
          {
            join: join(raw('s.choice_id is not null')),
            order: q`s.choice_id ${raw(d)}, s.record_id ${raw(d)}`,
            keys: keysOf(raw('kv.choice_id is not null'), q`kv.choice_id ${raw(d)}, kv.record_id ${raw(d)}`),
          },
          empties(d),
        ];
      const ordered = d === 'asc' ? choiceIds : [...choiceIds].reverse();
      return [
        ...ordered.map((c) => ({
          join: join(raw(`s.choice_id = ${c}`)),
          order: q`s.record_id ${raw(d)}`,
          keys: keysOf(raw(`kv.choice_id = ${c}`), q`kv.record_id ${raw(d)}`),
        })),
        // Answers naming a choice no longer in the list (never left behind silently, but possible after an import).
        {
          join: join(
            raw(`s.choice_id is not null and s.choice_id <> all (array[${choiceIds.join(', ')}]::bigint[])`),
          ),
          order: q`s.choice_id ${raw(d)}, s.record_id ${raw(d)}`,
        },
        empties(d),
      ];
    };
  }

  /** A criterion's choice, by id or by name; a 400 naming the field for one it does not have. */
  const choiceIdOf = (v: unknown): number => {
    const text = String(v ?? '').trim();
    const byId = /^\d+$/.test(text) ? choices.find((x) => x.Id === Number(text)) : undefined;
    const byName = choices.find((x) => x.Name.trim().toLowerCase() === text.toLowerCase());
    const found = byId ?? byName;
    if (!found) refuse(label, `there is no choice ${text || '(empty)'}.`);
    return found.Id;
  };

  /**
   * A positive criterion (a value row of the field that meets it) as `has(condition)`; `none` when it can match
   * nothing. The filter wraps it in `exists` per row, the count counts the value rows (one per record and field).
   */
  const positive = (
    c: FilterCriterion,
    has: (condition: Fragment | Raw) => Fragment,
    none: Fragment,
  ): Fragment => {
    if (c.Operator === 'isNotEmpty') return has(q`${col('s')} is not null`);
    const list = (Array.isArray(c.Value) ? c.Value : [c.Value]).filter((v) => v !== undefined && v !== null);
    const one = () => {
      const [v] = list;
      if (list.length !== 1) refuse(label, 'give one value to filter by.');
      return v;
    };
    const compare = (coerce: (v: unknown) => unknown, target: Raw) => {
      if (c.Operator === 'between')
        return has(q`${target} between ${coerce(c.Value)} and ${coerce(c.Value2)}`);
      if (c.Operator === 'in') {
        if (list.length === 0) return none;
        return has(
          q`${target} in (${joinFragments(
            list.map((v) => q`${coerce(v)}`),
            ', ',
          )})`,
        );
      }
      const op = { eq: '=', ne: '<>', gt: '>', ge: '>=', lt: '<', le: '<=' }[c.Operator as string];
      if (!op) refuse(label, `cannot be filtered with ${c.Operator}.`);
      return has(q`${target} ${raw(op)} ${coerce(one())}`);
    };
    const choiceId = choiceIdOf;
    switch (kind) {
      case 'text': {
        if (c.Operator === 'contains') return has(q`${TEXT_KEY} like ${`%${likeLower(one())}%`}`);
        if (c.Operator === 'startsWith') return has(q`${TEXT_KEY} like ${`${likeLower(one())}%`}`);
        return compare((v) => String(v ?? '').toLowerCase(), raw('lower(s.text_value)'));
      }
      case 'number':
        return compare((v) => {
          const n = typeof v === 'number' ? v : Number(String(v ?? '').trim());
          if (String(v ?? '').trim() === '' || !Number.isFinite(n))
            refuse(label, 'needs a number to filter by.');
          return n;
        }, raw('s.number_value'));
      case 'date':
        return compare((v) => {
          const text = String(v ?? '').slice(0, 10);
          if (!/^\d{4}-\d{2}-\d{2}$/.test(text) || Number.isNaN(Date.parse(text)))
            refuse(label, 'needs a date (YYYY-MM-DD) to filter by.');
          return text;
        }, raw('s.date_value'));
      case 'datetime':
        return compare((v) => {
          const t = Date.parse(String(v ?? ''));
          if (Number.isNaN(t)) refuse(label, 'needs a date and time to filter by.');
          return new Date(t).toISOString();
        }, raw('s.datetime_value'));
      case 'bool': {
        if (c.Operator !== 'eq' && c.Operator !== 'ne') refuse(label, 'is filtered with yes or no.');
        const b = parseBooleanInput(one() as string | number | boolean | null);
        if (b === null) refuse(label, 'needs yes or no to filter by.');
        return has(q`s.bool_value ${raw(c.Operator === 'eq' ? '=' : '<>')} ${b}`);
      }
      case 'choice':
      case 'fillIn': {
        if (kind === 'fillIn' && c.Operator === 'contains')
          return has(q`${TEXT_KEY} like ${`%${likeLower(one())}%`}`);
        if (c.Operator !== 'eq' && c.Operator !== 'ne' && c.Operator !== 'in')
          refuse(label, 'is filtered with is, is not or is one of.');
        return compare(choiceId, raw('s.choice_id'));
      }
      case 'multi': {
        const ids = list.map(choiceId);
        if (ids.length === 0) return none;
        const array = raw(`array[${ids.map((x) => int(x).text).join(', ')}]::bigint[]`);
        // any of (`in`) or all of (is, contains).
        if (c.Operator === 'in') return has(q`s.choice_ids && ${array}`);
        if (c.Operator === 'eq' || c.Operator === 'contains') return has(q`s.choice_ids @> ${array}`);
        return refuse(label, 'is filtered with is, contains or is one of.');
      }
    }
  };

  const filter = (c: FilterCriterion, mode: ExtraFilterMode, row?: KeyRow): Fragment => {
    if (mode === 'hash' && row?.tenantId !== undefined) {
      // Every match's key, read once from the field's index into a hash (a `hashed SubPlan`): the sublink is not
      // at the top of the condition (`is true`), so the planner keeps it a filter on the walk of the sort's index
      // instead of turning it into a join it might drive from the matches and sort (decision 0112's amendment).
      const matches = (condition: Fragment | Raw) =>
        q`((${row.key} in (select s.record_id from ${VALUES} s where s.tenant_id = ${row.tenantId} and s.field_id = ${id} and ${condition})) is true)`;
      if (c.Operator === 'isEmpty') return q`not ${matches(q`${col('s')} is not null`)}`;
      return positive(c, matches, q`false`);
    }
    const on = (alias: string) =>
      row
        ? q`${VALUES} ${raw(alias)} where ${raw(alias)}.tenant_id = ${row.tenant} and ${raw(alias)}.field_id = ${id} and ${raw(alias)}.record_id = ${row.key}`
        : ofRow(alias);
    // A probe (`offset 0` keeps the planner from turning it into a join): tested per row of a page walked in an
    // index's order, it stops with the page. A set: the planner reads the matches from the value's index (totals).
    // A text match is read from the trigram index as a set: a rare match probed per row walked the whole list.
    const probe = mode === 'probe' && !(kind !== 'multi' && MATCHED_FROM_INDEX.has(c.Operator));
    const has = (condition: Fragment | Raw) =>
      probe
        ? q`exists (select 1 from ${on('s')} and ${condition} offset 0)`
        : q`exists (select 1 from ${on('s')} and ${condition})`;
    if (c.Operator === 'isEmpty') return q`not ${has(q`${col('s')} is not null`)}`;
    return positive(c, has, q`false`);
  };

  // The number of records a positive criterion keeps: a record has at most one value row per field and a deleted
  // record has none (decision 0111), so no join to the records. A choice (dropdown, fill-in, yes/no) or a checkbox is
  // read from the kept counts of the field's values (migration 0092), others from the value's index. Never isEmpty.
  const count = (c: FilterCriterion, tenantId: string, atMost?: Fragment): Fragment | null => {
    if (c.Operator === 'isEmpty') return null;
    const fromKept = keptCriterion(c, tenantId);
    if (fromKept) return fromKept;
    return positive(
      c,
      (condition) =>
        atMost
          ? q`(select count(*) from (select 1 from ${VALUES} s where s.tenant_id = ${tenantId} and s.field_id = ${id} and ${condition} limit ${atMost}) gh_upto)`
          : q`(select count(*) from ${VALUES} s where s.tenant_id = ${tenantId} and s.field_id = ${id} and ${condition})`,
      q`0`,
    );
  };

  // The keys a positive criterion keeps, for a criterion the kept counts do not answer (read from the values).
  const matches = (c: FilterCriterion, tenantId: string): Fragment | null => {
    if (c.Operator === 'isEmpty' || keptCriterion(c, tenantId)) return null;
    return positive(
      c,
      (condition) =>
        q`select s.record_id as gh_match_key from ${VALUES} s where s.tenant_id = ${tenantId} and s.field_id = ${id} and ${condition}`,
      q`select null::bigint as gh_match_key where false`,
    );
  };

  /**
   * Filtered by one choice of another field and sorted by this number, date or date-time (decision 0196): when the
   * pair's keys are ready, two ranges of `custom_field_pair_keys_order_idx` (the choice's records with a value in
   * the sort's order, then those without one by key, as the runs of today's plan), index-only; when the pair was not
   * asked for, the page asks (the pair, and the job that fills it; at most MAX_SORT_PAIRS a tenant, beyond nothing)
   * and is read as today; a ready pair not said to be used today is said to be (the daily fold drops a pair unused
   * for 30 days).
   */
  const filteredSort =
    siblings && (kind === 'number' || kind === 'date' || kind === 'datetime')
      ? (direction: 'asc' | 'desc', c: FilterCriterion): { runs?: SortRun[]; asks?: Fragment[] } | null => {
          const other = /^cf_(\d+)$/.exec(c.PropertyName);
          const filterField = other ? siblings.byId.get(Number(other[1])) : undefined;
          const filterKind = filterField ? kindOf(filterField.CustomFieldDataTypeId) : null;
          if (!filterField || (filterKind !== 'choice' && filterKind !== 'fillIn')) return null;
          const values = (Array.isArray(c.Value) ? c.Value : [c.Value]).filter(
            (v) => v !== undefined && v !== null,
          );
          if ((c.Operator !== 'eq' && c.Operator !== 'in') || values.length !== 1) return null;
          const choice = choiceNamed(filterField.SelectListItems, values[0]);
          if (!choice) return null;
          const filterId = int(filterField.CustomFieldId);
          const choiceId = int(choice.Id);
          const pair = field.pairs?.find((p) => p.filter === filterField.CustomFieldId);
          // The asks name the request's tenant as row-level security does; a run's keys name it as a value.
          const tenant = (row: string) => q`${raw(row)}.tenant_id = gh_current_tenant()`;
          const which = (row: string, tenantOf: Fragment | Raw | string = q`gh_current_tenant()`) =>
            q`${raw(row)}.tenant_id = ${tenantOf} and ${raw(row)}.filter_field_id = ${filterId} and ${raw(row)}.sort_field_id = ${id}`;
          if (!pair) {
            if (siblings.pairCount >= MAX_SORT_PAIRS) return null;
            return {
              asks: [
                q`gh_ask_pair as (insert into custom_field_sort_pairs (tenant_id, filter_field_id, sort_field_id)
                  select gh_current_tenant(), ${filterId}, ${id}
                  where (select count(*) from custom_field_sort_pairs p where ${tenant('p')}) < ${MAX_SORT_PAIRS}
                  on conflict do nothing returning tenant_id)`,
                q`gh_ask_fill as (insert into jobs (tenant_id, kind, payload)
                  select tenant_id, ${PAIR_FILL_JOB}, jsonb_build_object('filterFieldId', ${filterId}, 'sortFieldId', ${id})
                  from gh_ask_pair)`,
              ],
            };
          }
          if (!pair.ready) return null;
          const d = raw(direction);
          const range = (valued: boolean): SortRun => {
            const on = (tenantOf: Fragment | Raw | string) =>
              q`${which('k', tenantOf)} and k.choice_id = ${choiceId} and k.sort_value is ${raw(valued ? 'not null' : 'null')}`;
            return {
              where: q`exists (select 1 from custom_field_pair_keys k where ${on(bound.sqlTenant)} and k.record_id = ${bound.sqlKey})`,
              order: q`(select k.sort_value from custom_field_pair_keys k where ${which('k', bound.sqlTenant)} and k.record_id = ${bound.sqlKey}) ${d}, ${bound.sqlKey} ${d}`,
              // The choice's records in the sort's order (with the null run: by key, in the index's order too).
              keys: (tenantId) =>
                q`select k.record_id as gh_page_key from custom_field_pair_keys k where ${on(tenantId)} order by k.sort_value ${d}, k.record_id ${d}`,
            };
          };
          return {
            runs: [range(true), range(false)],
            ...(pair.fresh
              ? {}
              : {
                  asks: [
                    q`gh_ask_pair as (update custom_field_sort_pairs p set asked_at = now() where ${which('p')} returning p.tenant_id)`,
                  ],
                }),
          };
        }
      : undefined;

  /** A choice's or a checkbox's criterion counted from the kept counts (null where they cannot answer it). */
  const keptCriterion = (c: FilterCriterion, tenantId: string): Fragment | null => {
    const all = keptCount(tenantId, id);
    if (kind === 'choice' || kind === 'fillIn') {
      if (c.Operator === 'isNotEmpty') return q`(${all} - ${keptCount(tenantId, id, [''])})`;
      if (c.Operator !== 'eq' && c.Operator !== 'ne' && c.Operator !== 'in') return null;
      const list = (Array.isArray(c.Value) ? c.Value : [c.Value]).filter(
        (v) => v !== undefined && v !== null,
      );
      if (list.length === 0 || (c.Operator !== 'in' && list.length !== 1)) return null;
      const ids = [...new Set(list.map((v) => String(choiceIdOf(v))))];
      if (c.Operator === 'ne') return q`(${all} - ${keptCount(tenantId, id, [...ids, ''])})`;
      return keptCount(tenantId, id, ids);
    }
    if (kind === 'multi' && (c.Operator === 'in' || c.Operator === 'eq' || c.Operator === 'contains')) {
      // The kept rows name an answer by its set of choices ('{1,4}', migration 0102): any of (`in`) sums the sets
      // that overlap the choices asked, all of (is, contains) those that contain them. One row per record and field.
      const list = (Array.isArray(c.Value) ? c.Value : [c.Value]).filter(
        (v) => v !== undefined && v !== null,
      );
      if (list.length === 0) return null;
      const ids = [...new Set(list.map(choiceIdOf))];
      const array = raw(`array[${ids.map((x) => int(x).text).join(', ')}]::bigint[]`);
      return q`(select coalesce(sum(n), 0) from list_counts where tenant_id = ${tenantId} and table_name = 'custom_field_values' and facet = ${id.text} and (case when value like '{%' then value::bigint[] end) ${raw(c.Operator === 'in' ? '&&' : '@>')} ${array})`;
    }
    if (kind === 'bool' && (c.Operator === 'eq' || c.Operator === 'ne')) {
      const [v] = Array.isArray(c.Value) ? c.Value : [c.Value];
      const b = parseBooleanInput(v as string | number | boolean | null);
      if (b === null) return null;
      return keptCount(tenantId, id, [String(c.Operator === 'eq' ? b : !b)]);
    }
    return null;
  };

  return {
    field: customFieldKey(field.CustomFieldId),
    declaration,
    columnType,
    value,
    exportText,
    ...(decode ? { decode } : {}),
    ...(sortValue ? { sortValue } : {}),
    ...(sortRuns ? { sortRuns } : {}),
    ...(filteredSort ? { filteredSort } : {}),
    filter,
    count,
    matches,
  };
}

/** The list fields of a resource that opts in to custom fields; null for one that does not. */
export function customListFields(bound: BoundResource): ExtraFieldsSource | null {
  const entity = bound.resource.customFields?.entity;
  if (!entity || bound.resource.fixture) return null;
  return {
    // With each numeric-like field, the pairs asked for with it as their sort, and the tenant's number of pairs
    // (decision 0196): a list filtered by a choice and sorted by it reads the pair's keys once they are ready.
    statement: (tenantId) =>
      q`select f.custom_field_id as id, f.name, f.data_type_id as type, f.choices, f.scope_id as scope,
        case when f.data_type_id in (${raw(PAIR_SORT_TYPES.join(', '))}) then (select json_agg(json_build_array(p.filter_field_id, p.ready_at is not null, p.asked_at > now() - interval '1 day'))
          from custom_field_sort_pairs p where p.tenant_id = ${tenantId} and p.sort_field_id = f.custom_field_id) end as pairs,
        (select count(*) from custom_field_sort_pairs p where p.tenant_id = ${tenantId}) as pair_count
        from custom_fields f
        where f.tenant_id = ${tenantId} and f.entity = ${entity} and not f.is_deleted
        order by f.page_number, f.sort_order, f.custom_field_id`,
    fields: (rows) => {
      const definitions = rows.map(definitionOf);
      const siblings: Siblings = {
        byId: new Map(definitions.map((d) => [d.CustomFieldId, d])),
        pairCount: Number(rows[0]?.pair_count ?? 0),
      };
      return rows.flatMap((row, i) => {
        const f = listFieldOf(bound, definitions[i] as Definition, siblings);
        if (!f) return [];
        return row.scope === null || row.scope === undefined ? [f] : [{ ...f, scope: Number(row.scope) }];
      });
    },
    recordDeleted: (tx, tenantId, key) => deleteRecordValues(tx, tenantId, entity, Number(key)),
    recordsMerged: (tx, tenantId, keepKey, goneKey) =>
      mergeRecordValues(tx, tenantId, entity, Number(keepKey), Number(goneKey)),
    answers: answersOf(entity),
    importer: (tx, tenantId, settings) => importerOf(tx, tenantId, entity, settings),
    searchTexts: (tx, tenantId, keys) => searchTextsOf(tx, tenantId, entity, keys),
    published: (tx, tenantId, keys) => publishedOf(tx, tenantId, entity, keys),
  };
}

/** The daily fold of the pairs: those no list said it used for 30 days are dropped with their keys. */
export const PAIR_FOLD_JOB = 'custom-fields-pair-fold';

/** The job that fills a pair's keys (asked for by a list): one statement, then the pair is ready. */
export const pairFillHandler: JobHandler = async (database: Database, job) => {
  const filter = Number(job.payload.filterFieldId);
  const sort = Number(job.payload.sortFieldId);
  if (!Number.isSafeInteger(filter) || !Number.isSafeInteger(sort))
    throw new PermanentJobError('A pair names two custom fields.');
  await withTenantTx(database.db, { tenantId: job.tenantId }, (tx) =>
    runFragment(tx, q`select gh_custom_pair_fill(${job.tenantId}::uuid, ${filter}::bigint, ${sort}::bigint)`),
  );
};

export const pairFoldHandler: JobHandler = async (database: Database, job) => {
  await withTenantTx(database.db, { tenantId: job.tenantId }, async (tx) => {
    await runFragment(
      tx,
      q`delete from custom_field_pair_keys k using custom_field_sort_pairs p
        where p.tenant_id = ${job.tenantId} and p.asked_at < now() - interval '30 days' and k.tenant_id = p.tenant_id
          and k.filter_field_id = p.filter_field_id and k.sort_field_id = p.sort_field_id`,
    );
    await runFragment(
      tx,
      q`delete from custom_field_sort_pairs where tenant_id = ${job.tenantId} and asked_at < now() - interval '30 days'`,
    );
  });
};
