/**
 * Use cases of the generic engine: list, get, save, delete, void, inline edit, recalculation, draft and duplicate
 * check. Every write runs in the tenant transaction and writes the audit log with the record before and after.
 */
import { allOf, type Fragment, q, type Raw, runFragments, type Tx, tenants } from '@guildhall/db';
import {
  type BulkRequest,
  type BulkResponse,
  CONCURRENCY_CONFLICT_MESSAGE,
  type ConcurrencyConflict,
  columnOf,
  DEFAULT_TENANT_SETTINGS,
  type ErrorValidation,
  EXPORT_TOP,
  FILTER_ADVANCED,
  FILTER_NONE,
  type FilterCriterion,
  joinErrorsMap,
  type ListColumn,
  type ListModelItems,
  type ListQuery,
  type ListRequest,
  type ListResponse,
  type Model,
  normalizeModel,
  type PostAction,
  RECORD_VERSION_FIELD,
  type ResourceDeclaration,
  recordVersionOf,
  SAVE_SUCCESS_MESSAGE,
  type SaveExtras,
  type TenantSettings,
} from '@guildhall/shared';
import { eq } from 'drizzle-orm';
import { audit } from '../audit.ts';
import type { AuthContext } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { sanitizeRichText } from '../html.ts';
import {
  type ExtraFields,
  extraCountStatement,
  extraFieldsOf,
  extraFieldsOfRows,
  NO_EXTRA_FIELDS,
  namesExtraFields,
} from './extra-fields.ts';
import { keptCountStatement } from './list-counts.ts';
import { planList } from './query.ts';
import type { BoundResource } from './registry.ts';
import * as repo from './resource.repo.ts';

export type ExportStarter = (
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  request: { orderby?: string; search?: string; body: ListRequest; columns: string[] },
) => Promise<string>;

export async function tenantSettingsOf(tx: Tx, tenantId: string): Promise<TenantSettings> {
  const [t] = await tx.select({ settings: tenants.settings }).from(tenants).where(eq(tenants.id, tenantId));
  return { ...DEFAULT_TENANT_SETTINGS, ...t?.settings };
}

/** The caller's tenant settings: read with the session when it was looked up, else from the tenant row. */
export async function settingsFor(tx: Tx, auth: AuthContext): Promise<TenantSettings> {
  return auth.tenantSettings ?? tenantSettingsOf(tx, auth.tenantId);
}

/** The columns a list answers, with the row actions column last. */
export function listColumns(
  resource: ResourceDeclaration,
  columnsToShow: readonly string[] | undefined,
  extra: ExtraFields = NO_EXTRA_FIELDS,
  /** The scope record the list is pinned to (ListRequest criteria `scope field eq value`), if any. */
  pinnedScope?: number,
): ListColumn[] {
  const cols: ListColumn[] = resource.columns.map((c) => ({
    field: c.field,
    title: c.title ?? resource.fields[c.field]?.label ?? c.field,
    show: columnsToShow ? columnsToShow.includes(c.field) : (c.show ?? !c.defaultHide),
    defaultHide: c.defaultHide ?? false,
    sortable: (c.sortable ?? false) && resource.sortable.includes(c.field),
    fieldType: resource.fields[c.field]?.type,
    ...(c.rendererInfo ? { rendererInfo: c.rendererInfo } : {}),
    ...(c.width ? { width: c.width } : {}),
    ...(c.mode !== undefined ? { mode: c.mode } : {}),
  }));
  // Fields the tenant added (custom fields): hidden until the user shows them in the table settings. A list of one
  // scope record's rows (one event's attendees) offers that record's fields and those of every record.
  for (const f of extra.values()) {
    const shown = columnsToShow?.includes(f.field) ?? false;
    if (f.scope !== undefined && pinnedScope !== undefined && f.scope !== pinnedScope && !shown) continue;
    cols.push({
      field: f.field,
      title: f.declaration.label,
      show: shown,
      defaultHide: true,
      sortable: f.sortRuns !== undefined,
      fieldType: f.columnType,
    });
  }
  if (resource.rowActions.length > 0) {
    cols.push({
      field: '$actions',
      title: '',
      show: true,
      defaultHide: false,
      sortable: false,
      type: 'Actions',
      actions: resource.rowActions.map((a) => ({
        ...a,
        ...(a.showCondition ? { showCondition: a.showCondition } : {}),
      })),
    });
  }
  return cols;
}

function modelItems(resource: ResourceDeclaration, pageSize: number, extra: ExtraFields): ListModelItems {
  const added = [...extra.values()];
  return {
    Resource: resource.name,
    Title: resource.title,
    Filters: [{ Id: 0, Name: 'None' }, ...resource.filters.map((f) => ({ Id: f.Id, Name: f.Name }))],
    SortableFields: [...resource.sortable, ...added.filter((f) => f.sortRuns).map((f) => f.field)],
    FilterableFields: [...resource.filterable, ...added.filter((f) => f.filter).map((f) => f.field)],
    SearchFields: [...resource.search],
    DefaultSort: { columnName: resource.defaultSort.field, direction: resource.defaultSort.direction },
    PageSize: pageSize,
  };
}

/** How one field is read from a stored row: its own column, or a property inside a JSON-document column. */
interface FieldReader {
  column: string;
  sub: string | undefined;
}
const readersOf = new WeakMap<ResourceDeclaration, Map<string, FieldReader>>();

function fieldReaders(resource: ResourceDeclaration): Map<string, FieldReader> {
  let readers = readersOf.get(resource);
  if (!readers) {
    readers = new Map();
    for (const field of Object.keys(resource.fields)) {
      const prop = columnOf(resource, field);
      const dot = prop.indexOf('.');
      readers.set(
        field,
        dot < 0 ? { column: prop, sub: undefined } : { column: prop.slice(0, dot), sub: prop.slice(dot + 1) },
      );
    }
    readersOf.set(resource, readers);
  }
  return readers;
}

/** A stored row as the model the client sees: field names, dates as ISO text, JSON-document fields read out. */
export function toModel(resource: ResourceDeclaration, row: repo.Row): Model {
  const model: Model = {};
  for (const [field, r] of fieldReaders(resource)) {
    let value: unknown;
    if (r.sub !== undefined) value = (row[r.column] as Record<string, unknown> | null)?.[r.sub] ?? null;
    else value = field in row ? row[field] : row[r.column];
    model[field] = value instanceof Date ? value.toISOString() : (value ?? null);
  }
  return model;
}

function checkColumns(
  resource: ResourceDeclaration,
  columns: readonly string[] | undefined,
  extra: ExtraFields,
): void {
  for (const c of columns ?? []) {
    if (!(c in resource.fields) && !extra.has(c))
      throw new HttpError(400, `The list has no column ${c}.`, { ColumnsToShow: [`${c} is not a field.`] });
  }
}

/**
 * A page of a list planned for a tenant: its two statements (the exact total, the rows), which do not depend on
 * each other, and the answer made of their rows. Throws 400 for a column or filter the resource does not declare.
 */
export function listPage(
  bound: BoundResource,
  tenantId: string,
  query: ListQuery,
  body: ListRequest,
  top: number,
  /**
   * The extra fields (custom fields) read already: a request naming one needs them to be planned. Without them,
   * a resource that has some reads their definitions in the page's round trip, for its columns.
   */
  loaded?: ExtraFields,
): { statements: Fragment[]; answer(rows: repo.Row[][], settings: TenantSettings): ListResponse } {
  const { resource } = bound;
  const extra = loaded ?? NO_EXTRA_FIELDS;
  const definitions = !loaded && bound.extraFields ? [bound.extraFields.statement(tenantId)] : [];
  const columnsOf = (rows: repo.Row[][]) =>
    definitions.length > 0 ? extraFieldsOfRows(bound, rows[0], tenantId) : extra;
  const { plan, count, fields } = listBasics(bound, tenantId, query, body, extra);
  /**
   * The answer of the page, whichever way it was read: `split` finds its rows and total in the rows of the
   * page's own statements (those after the definitions' statement, when there is one).
   */
  const answerWith =
    (split: (own: repo.Row[][]) => { rows: repo.Row[]; total: number; estimated?: boolean }) =>
    (all: repo.Row[][], settings: TenantSettings): ListResponse => {
      const page = split(all.slice(definitions.length));
      return {
        // The rows hold exactly the page's fields, keyed by field; decoded, they are the page's models.
        Results: repo.decodeRows(bound, page.rows, extra) as Model[],
        TotalRecordAvailable: page.total,
        ...(page.estimated ? { TotalIsEstimate: true } : {}),
        ...listFrame(resource, plan, body, settings, columnsOf(all)),
      };
    };
  const limit = Math.min(top, 1000);
  if (plan.searchIndex) {
    // The search box through a search index: the page and its total in one statement (decision 0101).
    const statement = repo.listSearchStatement(
      bound,
      tenantId,
      {
        whereWithoutSearch: plan.searchIndex.whereWithoutSearch,
        search: plan.searchIndex.plan,
        walkOrder: plan.searchIndex.walkOrder,
        sorts: plan.sorts,
        limit,
        offset: query.$skip,
        fields,
        extra,
      },
      countOf(bound, tenantId, { criteria: effectiveCriteria(resource, body), search: '' }) ??
        repo.countStatement(bound, tenantId, plan.searchIndex.whereWithoutSearch),
    );
    return {
      statements: [...definitions, statement],
      answer: answerWith(([rows]) => repo.searchPageRows(rows ?? [])),
    };
  }
  const recordTotal =
    plan.runs || plan.keyCount
      ? (countOf(bound, tenantId, { criteria: [], search: '' }) ?? undefined)
      : undefined;
  // One criterion's matches read once by the page, which then answers the total too.
  const matches = recordTotal && plan.keyMatches ? plan.keyMatches(tenantId) : undefined;
  const page = repo.listStatement(bound, tenantId, {
    where: plan.pageWhere ?? plan.where,
    orderBy: plan.orderBy,
    runs: plan.runs,
    asks: plan.asks,
    everyRecord: plan.everyRecord,
    merge: plan.merge,
    sorts: plan.sorts,
    keyFilter: plan.keyFilter,
    keyCount: plan.keyCount,
    matches,
    baseWhere: plan.baseWhere,
    recordTotal,
    limit,
    offset: query.$skip,
    fields,
    extra,
  });
  if (matches)
    return {
      statements: [...definitions, page],
      answer: answerWith(([rows]) => repo.matchedPageRows(rows ?? [])),
    };
  return {
    statements: [...definitions, count, page],
    answer: answerWith(([counted, rows]) => ({ rows: rows ?? [], total: totalOf(counted) })),
  };
}

/** What a list answer says besides its rows and total: the criteria, the page sizes, the columns. */
function listFrame(
  resource: ResourceDeclaration,
  plan: { criteriaItems: ListResponse['CriteriaItems'] },
  body: ListRequest,
  settings: TenantSettings,
  extra: ExtraFields,
) {
  return {
    CriteriaItems: plan.criteriaItems,
    ModelItems: modelItems(resource, settings.listPageSize, extra),
    ListViewItems: listColumns(resource, body.ColumnsToShow, extra, pinnedScopeOf(resource, body)),
  };
}

/** The one record of its custom fields' scope a list is filtered to (`EventId` is 12), if it is. */
function pinnedScopeOf(resource: ResourceDeclaration, body: ListRequest): number | undefined {
  const field = resource.customFields?.scope?.field;
  if (!field || body.Id !== FILTER_ADVANCED) return undefined;
  const pins = (body.Criteria ?? []).filter((c) => c.PropertyName === field);
  const [pin] = pins;
  if (pins.length !== 1 || pin?.Operator !== 'eq') return undefined;
  const value = Array.isArray(pin.Value) && pin.Value.length === 1 ? pin.Value[0] : pin.Value;
  const n = Number(value);
  return Number.isSafeInteger(n) ? n : undefined;
}

/** A list request for every row at once is an export: it starts a job instead of answering a page. */
export function isExportRequest(query: ListQuery): boolean {
  return query.$skip === 0 && query.$top === EXPORT_TOP;
}

/** What every list request plans: the where and order, the exact total's statement, the fields a page reads. */
function listBasics(
  bound: BoundResource,
  tenantId: string,
  query: ListQuery,
  body: ListRequest,
  extra: ExtraFields,
) {
  const { resource } = bound;
  checkColumns(resource, body.ColumnsToShow, extra);
  const plan = planList(bound, body, query.$orderby, query.$search, extra);
  // The exact total: the resource's cheaper statement when it has one (a counter, or one extra field's own index),
  // else count(*).
  const counting = {
    criteria: effectiveCriteria(resource, body),
    search: (query.$search ?? body.SearchText ?? '').trim(),
  };
  const count =
    countOf(bound, tenantId, counting) ??
    extraCountStatement(bound, tenantId, counting, extra) ??
    repo.countStatement(bound, tenantId, plan.where);
  const shown = body.ColumnsToShow
    ? [resource.key, ...body.ColumnsToShow]
    : [resource.key, ...resource.columns.map((c) => c.field)];
  const exported = [...new Set(shown)].filter((f) => bound.columns[f] || extra.has(f));
  for (const a of resource.rowActions) if (a.showCondition) shown.push(a.showCondition.field);
  // A page's rows carry their version, so an inline edit can name the version it changes.
  if (bound.versionColumn) shown.push(RECORD_VERSION_FIELD);
  const fields = [...new Set(shown)].filter((f) => bound.sqlColumns[f] || extra.has(f));
  return { plan, count, fields, exported };
}

export async function list(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  query: ListQuery,
  body: ListRequest,
  startExport: ExportStarter,
  /** The list is the whole of its transaction: the page's round trip also commits it. */
  options: { endsTransaction?: boolean } = {},
): Promise<ListResponse> {
  const { resource } = bound;
  const settings = await settingsFor(tx, auth);
  // A request naming a custom field is planned with the tenant's definitions, read first.
  const extra =
    isExportRequest(query) || namesExtraFields(bound, query, body)
      ? await extraFieldsOf(tx, auth.tenantId, bound)
      : undefined;
  if (isExportRequest(query)) {
    const { plan, count, exported } = listBasics(bound, auth.tenantId, query, body, extra ?? NO_EXTRA_FIELDS);
    const [counted] = await runFragments(tx, [count]);
    const fileId = await startExport(tx, auth, bound, {
      ...(query.$orderby ? { orderby: query.$orderby } : {}),
      ...(query.$search ? { search: query.$search } : {}),
      body,
      columns: exported,
    });
    return {
      Results: [],
      TotalRecordAvailable: totalOf(counted),
      ...listFrame(resource, plan, body, settings, extra ?? NO_EXTRA_FIELDS),
      PendingDownloadFileId: fileId,
    };
  }
  const page = listPage(bound, auth.tenantId, query, body, query.$top ?? settings.listPageSize, extra);
  // The count and the page travel in one round trip (with the commit, when the list is the whole transaction).
  const rows = await runFragments(tx, page.statements, { commit: options.endsTransaction === true });
  return page.answer(rows, settings);
}

function totalOf(rows: Record<string, unknown>[] | undefined): number {
  return Number(rows?.[0]?.n ?? 0);
}

/** The criteria a list request filters by: a named filter's or the advanced filter's. */
/**
 * A cheaper exact total than count(*), when there is one: the resource's own count hook (a counter kept by its
 * hooks), else the counts its table's triggers keep for a counted resource (decision 0103).
 */
function countOf(
  bound: BoundResource,
  tenantId: string,
  list: { criteria: FilterCriterion[]; search: string },
): Fragment | null {
  return bound.hooks.countStatement
    ? bound.hooks.countStatement(tenantId, list)
    : keptCountStatement(bound, tenantId, list);
}

function effectiveCriteria(resource: ResourceDeclaration, body: ListRequest): FilterCriterion[] {
  const id = body.Id ?? FILTER_NONE;
  if (id === FILTER_NONE) return [];
  if (id === FILTER_ADVANCED) return body.Criteria ?? [];
  return (resource.filters.find((f) => f.Id === id)?.Criteria ?? []).map((c) => ({ ...c }));
}

/** The record key from the client, in the key field's type; null when it cannot be one. */
export function parseKey(resource: ResourceDeclaration, id: unknown): string | number | null {
  const type = resource.fields[resource.key]?.type;
  if (type === 'number') {
    const n = Number(id);
    return Number.isSafeInteger(n) && n > 0 ? n : null;
  }
  if (typeof id !== 'string' && typeof id !== 'number') return null;
  const s = String(id);
  return s.length > 0 && s.length <= 200 ? s : null;
}

async function liveRow(tx: Tx, auth: AuthContext, bound: BoundResource, id: unknown): Promise<repo.Row> {
  const { resource } = bound;
  const key = resource.singleRecord ? auth.tenantId : parseKey(resource, id);
  if (key === null) throw notFound();
  const row = await repo.findRow(tx, bound, auth.tenantId, key);
  if (!row) throw notFound();
  if (resource.softDelete && row[columnOf(resource, resource.softDelete.deleted)] === true) throw notFound();
  if (row.isDraft === true && bound.properties.isDraft && row.updatedAt instanceof Date) {
    const { draftDurationMinutes } = await settingsFor(tx, auth);
    if (isDraftExpired(row.updatedAt, draftDurationMinutes, new Date())) throw notFound();
  }
  return row;
}

/** A draft expires once the tenant's draft duration has passed since its last save (decision 0052). */
export function isDraftExpired(savedAt: Date, durationMinutes: number, now: Date): boolean {
  return now.getTime() - savedAt.getTime() > durationMinutes * 60_000;
}

/** A stored row as the model a record screen edits: its fields, and its `Version` when the table keeps one. */
export function recordModel(bound: BoundResource, row: repo.Row): Model {
  const model = toModel(bound.resource, row);
  if (bound.versionColumn && typeof row.version === 'number') model[RECORD_VERSION_FIELD] = row.version;
  return model;
}

export async function get(tx: Tx, auth: AuthContext, bound: BoundResource, id: unknown): Promise<Model> {
  return recordModel(bound, await liveRow(tx, auth, bound, id));
}

/** 409: someone else saved the record since the version the client loaded; the answer holds it as it is now. */
export class ConcurrencyConflictError extends HttpError {
  constructor(current: Model) {
    super(409, CONCURRENCY_CONFLICT_MESSAGE, undefined, {
      class: 'ConcurrencyConflict',
      Current: current,
    } satisfies Omit<ConcurrencyConflict, 'message'>);
  }
}

export class ErrorValidationError extends HttpError {
  constructor(answer: Omit<ErrorValidation, 'class'>) {
    super(422, answer.Message, undefined, {
      class: 'ErrorValidation',
      Message: answer.Message,
      Action: answer.Action,
      ...(answer.NoCancelsSave ? { NoCancelsSave: true } : {}),
    });
  }
}

export interface SaveOutcome {
  Data: Model;
  Message: string;
  PendingDownloadFileId: string | null;
  PostActions: PostAction[];
  events: Record<string, string>;
}

/** Model fields to Drizzle properties; JSON-document fields merge into their document of `before`. */
export function toValues(
  resource: ResourceDeclaration,
  model: Model,
  before: repo.Row | undefined,
): repo.Row {
  const values: repo.Row = {};
  for (const [field, raw] of Object.entries(model)) {
    const prop = columnOf(resource, field);
    const value =
      resource.fields[field]?.type === 'datetime' && typeof raw === 'string' ? new Date(raw) : raw;
    const [head = '', sub] = prop.split('.');
    if (sub === undefined) values[head] = value;
    else {
      // A key of a JSON column (the association's settings): an empty value leaves the key out, so that its
      // default applies, rather than storing null where readers expect a value or nothing.
      const { [sub]: _old, ...rest } = (values[head] ?? before?.[head] ?? {}) as Record<string, unknown>;
      values[head] = value === null || value === undefined || value === '' ? rest : { ...rest, [sub]: value };
    }
  }
  return values;
}

export function extrasOf(input: Model): SaveExtras {
  const answer = input.Answer;
  return { ForceSave: input.ForceSave === true, Answer: answer === 'Yes' || answer === 'No' ? answer : null };
}

/** A draft may leave required fields empty, except those the table cannot store empty. */
function draftResource(bound: BoundResource): ResourceDeclaration {
  const { resource } = bound;
  const fields = Object.fromEntries(
    Object.entries(resource.fields).map(([k, f]) => {
      const col = bound.columns[k];
      return [
        k,
        { ...f, required: f.required === true && col !== undefined && col.notNull && !col.hasDefault },
      ];
    }),
  );
  return { ...resource, fields };
}

export function validate(
  resource: ResourceDeclaration,
  input: Model,
  settings: TenantSettings,
  only?: readonly string[],
): Model {
  const { model, errors } = normalizeModel(resource, input, {
    websitePrefix: settings.websitePrefix,
    timeZone: settings.defaultTimezone,
    ...(only ? { only } : {}),
  });
  if (Object.keys(errors).length > 0)
    throw new HttpError(400, joinErrorsMap(errors) || 'The record is not valid.', errors);
  // Rich text is kept only through the allow-list, whatever wrote it (decision 0150).
  for (const [name, field] of Object.entries(resource.fields)) {
    const value = model[name];
    if (field.type === 'richText' && typeof value === 'string') model[name] = sanitizeRichText(value);
  }
  return model;
}

async function write(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  model: Model,
  keyInput: unknown,
  options: { draft?: boolean; creating: boolean; version?: number | undefined },
): Promise<{ before: Model | null; after: Model; row: repo.Row }> {
  const { resource } = bound;
  const keyIsGenerated = resource.fields[resource.key]?.readOnly === true;
  let before: repo.Row | undefined;
  if (resource.singleRecord) before = await liveRow(tx, auth, bound, null);
  else if (!options.creating) before = await liveRow(tx, auth, bound, keyInput);
  // Optimistic concurrency: a save naming the version it loaded writes only over that version.
  const version = bound.versionColumn && before ? options.version : undefined;
  if (before && version !== undefined && before.version !== version)
    throw new ConcurrencyConflictError(recordModel(bound, before));
  const values = toValues(resource, model, before);
  if (options.draft !== undefined && bound.properties.isDraft) values.isDraft = options.draft;
  if (bound.properties.updatedAt) values.updatedAt = new Date();
  let row: repo.Row | undefined;
  if (before) {
    const key = before[columnOf(resource, resource.key)];
    if (!keyIsGenerated) delete values[columnOf(resource, resource.key)];
    row = await repo.updateRow(tx, bound, auth.tenantId, key, values, version);
    if (!row) {
      // Another save of the same version committed while this one waited for the row: it is not ours to overwrite.
      const now = version !== undefined ? await repo.findRow(tx, bound, auth.tenantId, key) : undefined;
      if (now) throw new ConcurrencyConflictError(recordModel(bound, now));
      throw notFound();
    }
  } else {
    if (!resource.capabilities.create) throw notFound();
    row = await repo.insertRow(tx, bound, { ...values, tenantId: auth.tenantId });
  }
  const after = toModel(resource, row);
  const previous = before ? toModel(resource, before) : null;
  await audit(tx, auth, {
    action: previous ? 'update' : 'create',
    entity: resource.name,
    entityId: String(after[resource.key]),
    before: previous,
    after,
  });
  await bound.hooks.afterWrite?.(tx, auth, {
    kind: previous ? 'update' : 'create',
    before: previous,
    after,
  });
  return { before: previous, after: recordModel(bound, row), row };
}

/** Whether the save updates an existing record (the key names one) or creates one. */
async function isCreating(tx: Tx, auth: AuthContext, bound: BoundResource, input: Model): Promise<boolean> {
  const { resource } = bound;
  if (resource.singleRecord) return false;
  const keyValue = input[resource.key];
  if (keyValue === undefined || keyValue === null || keyValue === '' || keyValue === 0) return true;
  if (resource.fields[resource.key]?.readOnly) return false;
  const key = parseKey(resource, keyValue);
  return key === null || !(await repo.findRow(tx, bound, auth.tenantId, key));
}

export async function save(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  input: Model,
  draft = false,
): Promise<SaveOutcome> {
  const { resource } = bound;
  const creating = await isCreating(tx, auth, bound, input);
  if (creating ? !resource.capabilities.create : !resource.capabilities.update) throw notFound();
  const settings = await settingsFor(tx, auth);
  const extras = extrasOf(input);
  let model = validate(draft ? draftResource(bound) : resource, input, settings);
  if (resource.recalculate) model = { ...model, ...resource.recalculate(model) };
  const hooks = bound.hooks;
  if (hooks.beforeSave)
    model = await hooks.beforeSave(tx, auth, model, { creating, key: input[resource.key], extras, settings });
  await checkReferences(tx, auth, bound, model);
  if (!draft) {
    const problem = resource.check?.(model, extras);
    if (problem) throw new ErrorValidationError(problem);
    if (resource.uniqueFields?.length) {
      const clash = await duplicates(tx, auth, bound, { ...model, [resource.key]: input[resource.key] });
      if (clash.length > 0) {
        throw new HttpError(
          400,
          `Another record has the same ${clash.map((f) => resource.fields[f]?.label ?? f).join(', ')}.`,
          Object.fromEntries(clash.map((f) => [f, ['Already used by another record.']])),
        );
      }
    }
    if (resource.prepare) model = resource.prepare(model, extras);
  }
  const { after } = await write(tx, auth, bound, model, input[resource.key], {
    draft,
    creating,
    version: recordVersionOf(input),
  });
  const hook = draft ? null : (resource.afterSave?.(after, extras) ?? null);
  return {
    Data: after,
    Message: hook?.Message ?? (draft ? 'Draft saved.' : SAVE_SUCCESS_MESSAGE),
    PendingDownloadFileId: null,
    PostActions: hook?.PostActions ?? [],
    events: hook?.Events ?? {},
  };
}

/**
 * Every lookup field the model sets names a record of its target resource in the caller's tenant (checked in one
 * round trip), or the save is refused with a 400 naming the field: an id the tenant cannot see (another
 * association's user or contact) is never stored.
 */
async function checkReferences(tx: Tx, auth: AuthContext, bound: BoundResource, model: Model): Promise<void> {
  const checks = Object.entries(bound.references).filter(([field]) => {
    const value = model[field];
    return value !== undefined && value !== null && value !== '';
  });
  if (checks.length === 0) return;
  const found = await runFragments(
    tx,
    checks.map(
      ([field, target]) =>
        q`select 1 as found from ${target.sqlSource} where ${target.sqlTenant} = ${auth.tenantId} and ${target.sqlKey} = ${model[field]} limit 1`,
    ),
  );
  const errors: Record<string, string[]> = {};
  checks.forEach(([field, target], i) => {
    if ((found[i]?.length ?? 0) > 0) return;
    const what = target.resource.title.toLowerCase();
    errors[field] = [`Choose one of the association's ${what}.`];
  });
  const missing = Object.keys(errors);
  if (missing.length > 0) {
    const labels = missing.map((f) => bound.resource.fields[f]?.label ?? f).join(', ');
    throw new HttpError(400, `${labels}: no such record in this association.`, errors);
  }
}

/** Inline edit: one or more fields of one record, from a JSON string body. */
export async function inlineEdit(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  id: unknown,
  changes: Model,
): Promise<SaveOutcome> {
  const { resource } = bound;
  const fields = Object.keys(changes).filter((f) => f in resource.fields && !resource.fields[f]?.readOnly);
  if (fields.length === 0) throw new HttpError(400, 'Nothing to change: name at least one editable field.');
  const current = await get(tx, auth, bound, id);
  const settings = await settingsFor(tx, auth);
  let model = validate(resource, changes, settings, fields);
  if (resource.recalculate) model = { ...model, ...resource.recalculate({ ...current, ...model }) };
  const problem = resource.check?.({ ...current, ...model }, extrasOf(changes));
  if (problem) throw new ErrorValidationError(problem);
  await checkReferences(tx, auth, bound, model);
  const { after } = await write(tx, auth, bound, model, id, {
    creating: false,
    version: recordVersionOf(changes),
  });
  return {
    Data: after,
    Message: SAVE_SUCCESS_MESSAGE,
    PendingDownloadFileId: null,
    PostActions: [],
    events: {},
  };
}

/** Delete (IsDeleted) or void (IsVoided and IsDeleted): the record stays, marked. */
/**
 * A bulk action: each record deleted or changed as its own delete or inline edit would be (hooks, audit, counters),
 * each in a savepoint, so a record refused (not found, a rule, a version conflict) leaves the others done and is
 * answered with the message its own request would have had. An error of ours (not an HttpError) fails the request.
 */
export async function bulk(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  request: BulkRequest,
): Promise<BulkResponse> {
  const answer: BulkResponse = { Done: [], Failed: [] };
  for (const raw of new Set(request.Ids.map(String))) {
    try {
      await tx.transaction(async (savepoint) => {
        const t = savepoint as unknown as Tx;
        if (request.Action === 'delete') await remove(t, auth, bound, raw, 'delete');
        else await inlineEdit(t, auth, bound, raw, request.Changes);
      });
      answer.Done.push(raw);
    } catch (err) {
      if (!(err instanceof HttpError)) throw err;
      const details = Object.values(err.errors ?? {}).flat();
      answer.Failed.push({ Id: raw, Message: details.length > 0 ? details.join(' ') : err.message });
    }
  }
  return answer;
}

export async function remove(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  id: unknown,
  kind: 'delete' | 'void',
  version?: number,
): Promise<{ Success: true }> {
  const { resource } = bound;
  const soft = resource.softDelete;
  if (!soft) throw notFound();
  const row = await liveRow(tx, auth, bound, id);
  // Nobody deletes or voids a record over a change they have not seen.
  const expected = bound.versionColumn ? version : undefined;
  if (expected !== undefined && row.version !== expected)
    throw new ConcurrencyConflictError(recordModel(bound, row));
  const before = toModel(resource, row);
  const values: repo.Row = { [columnOf(resource, soft.deleted)]: true };
  if (kind === 'void' && soft.voided) values[columnOf(resource, soft.voided)] = true;
  if (bound.properties.updatedAt) values.updatedAt = new Date();
  const updated = await repo.updateRow(tx, bound, auth.tenantId, before[resource.key], values, expected);
  if (!updated) {
    const now =
      expected !== undefined ? await repo.findRow(tx, bound, auth.tenantId, before[resource.key]) : undefined;
    if (now) throw new ConcurrencyConflictError(recordModel(bound, now));
    throw notFound();
  }
  await audit(tx, auth, {
    action: kind,
    entity: resource.name,
    entityId: String(before[resource.key]),
    before,
    after: toModel(resource, updated),
  });
  await bound.hooks.afterWrite?.(tx, auth, { kind, before, after: toModel(resource, updated) });
  await bound.extraFields?.recordDeleted?.(tx, auth.tenantId, before[resource.key]);
  return { Success: true };
}

/** The watched-field recalculation: the fields it changes, to merge into the model. */
export function recalculate(bound: BoundResource, input: Model, settings: TenantSettings): Model {
  const { resource } = bound;
  if (!resource.recalculate) return {};
  const watched = resource.watchedFields ?? [];
  const { model } = normalizeModel(resource, input, { websitePrefix: settings.websitePrefix, only: watched });
  return resource.recalculate({ ...input, ...model });
}

/** Fields of `uniqueFields` that another live record already holds. */
export async function duplicates(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  model: Model,
): Promise<string[]> {
  const { resource } = bound;
  const clash: string[] = [];
  const self = parseKey(resource, model[resource.key]);
  for (const f of resource.uniqueFields ?? []) {
    const value = model[f];
    if (value === null || value === undefined || value === '') continue;
    const col = bound.sqlColumns[f] as Raw;
    const deleted = resource.softDelete ? bound.sqlColumns[resource.softDelete.deleted] : undefined;
    const n = await repo.countRows(
      tx,
      bound,
      auth.tenantId,
      allOf([
        typeof value === 'string' ? q`lower(${col}) = lower(${value})` : q`${col} = ${value}`,
        deleted ? q`not ${deleted}` : null,
        self !== null ? q`${bound.sqlKey} <> ${self}` : null,
      ]),
    );
    if (n > 0) clash.push(f);
  }
  return clash;
}
