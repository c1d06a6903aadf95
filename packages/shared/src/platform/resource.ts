/**
 * Resource declarations: each entity of the generic screen layer is declared once, in
 * `shared/src/<feature>/<feature>.resource.ts`. The server derives its list, get, save, delete and void endpoints,
 * the allowed sort and filter fields and the column definitions from it; the web derives its screens from it.
 * Pure data plus pure hooks: no I/O here.
 */
import type { Permission } from './permissions.ts';

/**
 * The closed catalogue of field types. The web maps each to `{ Display, Input }` in a `Record<FieldType, …>`.
 * `image` holds the id of a file of the association's library (an image; the image dialog uploads, chooses and crops
 * it); its Display shows the image's thumbnail (decision 0092).
 */
export const FIELD_TYPES = [
  'text',
  'textarea',
  'number',
  'currency',
  'boolean',
  'date',
  'datetime',
  'time',
  'phone',
  'website',
  'country',
  'email',
  'select',
  'selectValid',
  'multiSelect',
  'flags',
  'decimalRange',
  'dateRange',
  'timezone',
  'lookup',
  'richText',
  'image',
] as const;
export type FieldType = (typeof FIELD_TYPES)[number];

/** One choice of a select, select-with-valid-values, multi-select or flags field (flags: Id is the bit key). */
export interface FieldOption {
  Id: number | string;
  Name: string;
}

export interface FieldDeclaration {
  type: FieldType;
  label: string;
  /** Property of the Drizzle table; defaults to the field name with a lower-case first letter. */
  column?: string;
  maxLength?: number;
  /** Rich text: the most characters a reader sees (`editormaxlength`, spec 001 section 5), markup not counted. */
  editorMaxLength?: number;
  required?: boolean;
  min?: number;
  max?: number;
  options?: readonly FieldOption[];
  /** Where a lookup field finds its choices: another resource's name (typeahead GET with a search parameter). */
  lookup?: { source: string; display?: string };
  tooltip?: string;
  readOnly?: boolean;
}

/**
 * The closed catalogue of column renderers a column may ask the web for (`rendererInfo.Key`). The web maps each
 * to a Display in a `Record<ColumnRendererKey, …>`, so a key added here without a renderer does not compile.
 * `contactEntry` shows a value as the field type its row's `CommType` names (email, phone, website).
 */
export const COLUMN_RENDERER_KEYS = [
  'badge',
  'link',
  'currency',
  'date',
  'datetime',
  'boolean',
  'phone',
  'contactEntry',
] as const;
export type ColumnRendererKey = (typeof COLUMN_RENDERER_KEYS)[number];

export interface ListColumnDeclaration {
  field: string;
  title?: string;
  show?: boolean;
  defaultHide?: boolean;
  sortable?: boolean;
  rendererInfo?: { Key: ColumnRendererKey };
  width?: number;
  /**
   * The display mode before the user picks one in the table settings (Truncate = 0, the default; Wrap = 1;
   * Full = 2): a record's long name or a long badge wraps rather than being cut.
   */
  mode?: 0 | 1 | 2;
}

/** Operators of filter criteria. Each criterion names a filterable field; the server builds parameterised SQL. */
export const FILTER_OPERATORS = [
  'eq',
  'ne',
  'contains',
  'startsWith',
  'gt',
  'ge',
  'lt',
  'le',
  'between',
  'in',
  'isEmpty',
  'isNotEmpty',
] as const;
export type FilterOperator = (typeof FILTER_OPERATORS)[number];

export interface FilterCriterionDeclaration {
  PropertyName: string;
  Operator: FilterOperator;
  Value?: unknown;
  /** Upper bound of `between`. */
  Value2?: unknown;
}

/** Filter ids of the spec: 0 is none, 9999 the advanced filter (criteria in the request body). */
export const FILTER_NONE = 0;
export const FILTER_ADVANCED = 9999;

export interface NamedFilterDeclaration {
  Id: number;
  Name: string;
  Criteria: readonly FilterCriterionDeclaration[];
}

/** When a row action shows: the row's field equals (or differs from) a value. */
export interface ShowCondition {
  field: string;
  equals?: unknown;
  notEquals?: unknown;
}

/**
 * "Server call with confirm" (spec 000 section 7): the action confirms, then GETs or POSTs `path`, whose `{Field}`
 * parts are the row's values. An answer with PendingDownloadFileId shows the processing toast and polls until the
 * file is ready; `Data.NoSuccessToaster` suppresses the success toast.
 */
export interface ServerCallDeclaration {
  method: 'GET' | 'POST';
  path: string;
  /** The question the confirm dialog asks; `{Field}` parts are the row's values. */
  confirm: string;
}

export interface RowActionDeclaration {
  key: string;
  title: string;
  kind: 'edit' | 'delete' | 'void' | 'custom' | 'serverCall';
  showCondition?: ShowCondition;
  /** For `serverCall`. */
  call?: ServerCallDeclaration;
  /** Shown only to users with this permission (the call's own). */
  permission?: Permission;
}

/** A server call's path or question with the row's values in place of `{Field}`; null when a value is missing. */
export function fillServerCall(
  template: string,
  row: Readonly<Record<string, unknown>>,
  encode = true,
): string | null {
  let missing = false;
  const filled = template.replace(/\{([A-Za-z0-9_]+)\}/g, (_m, field: string) => {
    const v = row[field];
    if (v === null || v === undefined || v === '') {
      missing = true;
      return '';
    }
    return encode ? encodeURIComponent(String(v)) : String(v);
  });
  return missing ? null : filled;
}

export interface FormSectionDeclaration {
  title: string;
  fields: readonly string[];
}

/** A business exception: ErrorValidation with Action Proceed 0, Error 1, YesNo 2. */
export const ERROR_VALIDATION_ACTIONS = { Proceed: 0, Error: 1, YesNo: 2 } as const;
export type ErrorValidationAction = (typeof ERROR_VALIDATION_ACTIONS)[keyof typeof ERROR_VALIDATION_ACTIONS];

export interface BusinessCheck {
  Action: ErrorValidationAction;
  Message: string;
  /** YesNo: "No" cancels the save on the client (nothing is sent back). */
  NoCancelsSave?: boolean;
}

/** What the save of a model was told by the client beyond the model. */
export interface SaveExtras {
  /** Repeat after an ErrorValidation Proceed. */
  ForceSave: boolean;
  /** The answer of a YesNo confirm dialog. */
  Answer: 'Yes' | 'No' | null;
}

export const POST_ACTION_TYPES = { Toast: 0, Information: 1 } as const;
export interface PostActionDeclaration {
  Type: 0 | 1;
  Message: string;
  ExtraButton?: { Text: string; Url: string };
}

export interface AfterSave {
  Message?: string;
  PostActions?: PostActionDeclaration[];
  /** Re-broadcast to the page as `evt_<name>` response headers. */
  Events?: Record<string, string>;
}

export type Model = Record<string, unknown>;

export interface ResourceCapabilities {
  create: boolean;
  update: boolean;
  delete: boolean;
  void: boolean;
  inlineEdit: boolean;
  draft: boolean;
  duplicateCheck: boolean;
}

/**
 * The screen types of the generic layer (spec 000 section 2). Standard and Dialog are the record screens; the list
 * types are variants of one list screen; the rest are declared through `screen` below.
 */
export const SCREEN_TYPES = [
  'Standard',
  'Dialog',
  'ListView',
  'PreviewBox',
  'Widget',
  'DeluxeListView',
  'MenuPageWithChildView',
  'MainEntityParentPage',
  'DeluxeListViewWithCards',
  'DeluxeListViewWithCalendar',
  'ReportView',
  'ExternalUrl',
] as const;
export type ScreenType = (typeof SCREEN_TYPES)[number];

/** The list variants a list screen may default to (`InfiniteScroll` is the deluxe list loading as it scrolls). */
export const LIST_VARIANTS = [
  'ListView',
  'DeluxeListView',
  'DeluxeListViewWithCards',
  'DeluxeListViewWithCalendar',
  'InfiniteScroll',
] as const;
export type ListVariant = (typeof LIST_VARIANTS)[number];

/**
 * The field a calendar places each record on: the first date (or date and time) field the list may filter on, else
 * the first date field; null when the resource has none, and then it offers no calendar.
 */
export function calendarDateField(r: Pick<ResourceDeclaration, 'fields' | 'filterable'>): string | null {
  const candidates = Object.entries(r.fields).filter(([, f]) => f.type === 'date' || f.type === 'datetime');
  const filterable = candidates.find(([name]) => r.filterable.includes(name));
  return (filterable ?? candidates[0])?.[0] ?? null;
}

/** The list variants a resource offers: every one, but the calendar only where its records have a date. */
export function listVariantsOf(r: Pick<ResourceDeclaration, 'fields' | 'filterable'>): ListVariant[] {
  const dated = calendarDateField(r) !== null;
  return LIST_VARIANTS.filter((v) => dated || v !== 'DeluxeListViewWithCalendar');
}

/** A tab of a MainEntityParentPage: another resource's rows whose `parentField` equals the record's key. */
export interface ChildListDeclaration {
  /** The child resource's name. */
  resource: string;
  /** The child's filterable field holding the parent's key. */
  parentField: string;
  title: string;
}

/** A dashboard widget of a resource: its count, or its first rows in the default sort (or `sort`). */
export interface WidgetDeclaration {
  key: string;
  title: string;
  kind: 'count' | 'list';
  /** A named filter of the resource applied to the widget. */
  filterId?: number;
  sort?: { field: string; direction: 'asc' | 'desc' };
  /** Rows of a list widget (default 5). */
  rows?: number;
}

/**
 * A page outside the product opened from a resource's screens (ExternalUrl). Only `https:` addresses or paths of this
 * site are accepted; the page opens in a new tab with no opener and no referrer (the product's content security
 * policy frames nothing).
 */
export interface ExternalUrlDeclaration {
  key: string;
  title: string;
  url: string;
  description?: string;
}

/** Presentation of a resource's screens: read by the web only; the server ignores it. */
export interface ScreenDeclaration {
  /** The record screen: a plain form (Standard) or a header with tabs of child lists (MainEntityParentPage). */
  recordType?: 'Standard' | 'MainEntityParentPage';
  /** The list's default variant; `?view=` overrides it. */
  listVariant?: ListVariant;
  /** Page size of the list; the tenant's otherwise. */
  pageSize?: number;
  /** Highlight changed fields in orange and ask before saving them. */
  highlightChanges?: boolean;
  /** Fields of the PreviewBox card (a compact read-only view of a record); the list columns otherwise. */
  preview?: readonly string[];
  /** Child lists of a MainEntityParentPage record. */
  children?: readonly ChildListDeclaration[];
  /** Tabs of a MainEntityParentPage that later features fill, shown as clearly marked placeholders until then. */
  plannedChildren?: readonly { title: string; note: string }[];
  /** Widgets this resource offers the dashboard. */
  widgets?: readonly WidgetDeclaration[];
  /** The MenuPageWithChildView menu this resource's list appears in (its key), with its order there. */
  menu?: { key: string; title: string; order?: number };
  /** External pages linked from the resource's screens (ExternalUrl). */
  externalUrls?: readonly ExternalUrlDeclaration[];
}

/** An external address the product may open: `https:` or a path of this site; anything else is refused. */
export function safeExternalUrl(url: string): { href: string; sameSite: boolean } | null {
  if (/[\s\\]/.test(url)) return null;
  if (/^\/(?!\/)/.test(url)) return { href: url, sameSite: true };
  // https, a host name without user information, an optional port, then a path, query or fragment.
  return /^https:\/\/[a-z0-9.-]+(:\d{1,5})?([/?#].*)?$/i.test(url) ? { href: url, sameSite: false } : null;
}

export interface ResourceDeclaration<F extends string = string> {
  readonly kind: 'resource';
  /** Unique name: the audit entity, the report source and the table-settings screen prefix. */
  name: string;
  /** URL parts: /api/{feature}/{subfeature} and /api/{feature}/{subfeature}/{view}Data|Get|Save. */
  feature: string;
  subfeature: string;
  view: string;
  title: string;
  /** SQL name of the Drizzle table (or security-invoker view) holding the rows; tenant_id is its first key column. */
  table: string;
  /**
   * A test fixture of the generic layer (`samples`): its routes and screens answer, for the tests, but no product
   * surface lists it: navigation, menus, dashboard widgets, the reports catalogue, demo data.
   */
  fixture?: boolean;
  /** The record id field. */
  key: NoInfer<F>;
  permissions: { read: Permission; write: Permission | null };
  fields: Record<F, FieldDeclaration>;
  columns: readonly ListColumnDeclaration[];
  /** The only fields that may reach ORDER BY. */
  sortable: readonly NoInfer<F>[];
  /** The only fields that may reach WHERE through filters. */
  filterable: readonly NoInfer<F>[];
  /**
   * Fields the list search box matches (case-insensitive contains: every word typed, in any of them). On a `large`
   * resource they are read through one trigram index over the fields joined (`listSearchIndex`, decision 0102),
   * unless the resource has its own search index (`ownSearchIndex`).
   */
  search: readonly NoInfer<F>[];
  /**
   * The list search box goes through a search index of the resource's own (a server hook: contacts read the global
   * search index), so no trigram index is derived for its search fields.
   */
  ownSearchIndex?: boolean;
  /**
   * The list's totals come from counts the database keeps (decision 0103): the live rows, and the rows by each
   * field a named filter tests on its own (`listCountFacets`), kept by triggers on the table whoever writes it.
   * For the lists an association browses whole (not only within a parent record), where `count(*)` grows with the
   * table. A resource with a count hook of its own (contacts) leaves it off.
   */
  counted?: boolean;
  /** Fields a lookup option carries in ExtraData, so namesakes can be told apart (account number, city). */
  lookupExtra?: readonly NoInfer<F>[];
  filters: readonly NamedFilterDeclaration[];
  form: readonly FormSectionDeclaration[];
  rowActions: readonly RowActionDeclaration[];
  defaultSort: { field: NoInfer<F>; direction: 'asc' | 'desc' };
  /** Soft delete: the IsDeleted field (delete and void set it) and the IsVoided field (void sets it too). */
  softDelete?: { deleted: NoInfer<F>; voided?: NoInfer<F> };
  capabilities: ResourceCapabilities;
  /** One record per tenant (edit screen only, no list). */
  singleRecord?: boolean;
  /**
   * How many rows a tenant may hold. `large` (the default): every sortable field, with no filter, each named
   * filter and within a parent record, has an index that yields its pages in order (`listIndexes`, decision 0100),
   * and a test fails without it. `small` (at most a few hundred rows: settings, staff users, terms, help texts):
   * a page is sorted in memory, no index needed.
   */
  scale?: 'small' | 'large';
  /** Fields whose change asks the server to recalculate the model. */
  watchedFields?: readonly NoInfer<F>[];
  recalculate?: (model: Model) => Model;
  /** How a record is named to people (confirmations, the audit log): "Adams, William (A0000138)". */
  recordName?: (model: Model) => string;
  /** Fields that must be unique among live records (the duplicate check). */
  uniqueFields?: readonly NoInfer<F>[];
  /** Business checks before a save: an answer stops the save with an ErrorValidation. */
  check?: (model: Model, extras: SaveExtras) => BusinessCheck | null;
  /** Adjusts the model after the checks passed, before it is written (for example on a YesNo answer). */
  prepare?: (model: Model, extras: SaveExtras) => Model;
  afterSave?: (model: Model, extras: SaveExtras) => AfterSave | null;
  /** How the web presents the resource (screen types and options); no effect on the server. */
  screen?: ScreenDeclaration;
  /**
   * The association may add its own fields to this resource's records (decision 0111): `entity` names the records
   * in the custom field definitions (Contact, Membership, Event). One declaration is the whole opt-in: the setup
   * screen offers the entity, the record screen shows its custom fields in their pages, and the values are checked
   * on every write path.
   */
  customFields?: {
    entity: string;
    title?: string;
    /**
     * A field may belong to one record of another resource (an event's registration questions): `field` is this
     * resource's field naming that record (EventId), `resource` its resource. A record is asked the fields of no
     * scope and those of its own scope record.
     */
    scope?: { field: string; resource: string };
  };
}

/** The resources whose records take custom fields, by their entity name. */
export function customFieldEntities(
  resources: readonly ResourceDeclaration[],
): Map<string, ResourceDeclaration> {
  return new Map(
    resources.flatMap((r) => (r.customFields && !r.fixture ? [[r.customFields.entity, r] as const] : [])),
  );
}

type Optional = 'kind' | 'filters' | 'rowActions' | 'search' | 'capabilities';
export type ResourceInput<F extends string> = Omit<ResourceDeclaration<F>, Optional> &
  Partial<Pick<ResourceDeclaration<F>, Exclude<Optional, 'kind' | 'capabilities'>>> & {
    capabilities?: Partial<ResourceCapabilities>;
  };

const READ_ONLY: ResourceCapabilities = {
  create: false,
  update: false,
  delete: false,
  void: false,
  inlineEdit: false,
  draft: false,
  duplicateCheck: false,
};

/** Declares a resource; checks at load time that every column, sort, filter and form field is a declared field. */
export function defineResource<const F extends string>(input: ResourceInput<F>): ResourceDeclaration<F> {
  const resource: ResourceDeclaration<F> = {
    ...input,
    kind: 'resource',
    filters: input.filters ?? [],
    rowActions: input.rowActions ?? [],
    search: input.search ?? [],
    capabilities: { ...READ_ONLY, ...input.capabilities },
  };
  const problems = resourceProblems(resource);
  if (problems.length > 0) throw new Error(`Resource ${input.name}: ${problems.join('; ')}`);
  return resource;
}

export function resourceProblems(r: ResourceDeclaration): string[] {
  const known = new Set(Object.keys(r.fields));
  const problems: string[] = [];
  const need = (where: string, field: string) => {
    if (!known.has(field)) problems.push(`${where} names unknown field ${field}`);
  };
  need('key', r.key);
  for (const c of r.columns) need('column', c.field);
  for (const f of r.sortable) need('sortable', f);
  for (const f of r.lookupExtra ?? []) need('lookupExtra', f);
  for (const f of r.filterable) need('filterable', f);
  for (const f of r.search) need('search', f);
  for (const s of r.form) for (const f of s.fields) need(`form section ${s.title}`, f);
  for (const f of r.filters)
    for (const c of f.Criteria)
      if (!r.filterable.includes(c.PropertyName))
        problems.push(`filter ${f.Id} uses ${c.PropertyName}, which is not filterable`);
  if (!r.sortable.includes(r.defaultSort.field))
    problems.push(`default sort ${r.defaultSort.field} is not sortable`);
  for (const f of r.filters)
    if (f.Id === FILTER_NONE || f.Id === FILTER_ADVANCED) problems.push(`filter id ${f.Id} is reserved`);
  for (const f of r.screen?.preview ?? []) need('screen preview', f);
  for (const w of r.screen?.widgets ?? [])
    if (w.sort && !r.sortable.includes(w.sort.field))
      problems.push(`widget ${w.key} sorts by ${w.sort.field}, which is not sortable`);
  if (r.screen?.listVariant && !listVariantsOf(r).includes(r.screen.listVariant))
    problems.push(`list variant ${r.screen.listVariant} needs a date or date and time field`);
  for (const a of r.rowActions) {
    if ((a.kind === 'serverCall') !== (a.call !== undefined))
      problems.push(`row action ${a.key}: a server call, and only a server call, has a call`);
    if (a.call && !/^\/api\//.test(a.call.path)) problems.push(`row action ${a.key} calls outside /api/`);
    for (const m of `${a.call?.path ?? ''} ${a.call?.confirm ?? ''}`.matchAll(/\{([A-Za-z0-9_]+)\}/g))
      need(`row action ${a.key}`, m[1] ?? '');
  }
  for (const e of r.screen?.externalUrls ?? [])
    if (!safeExternalUrl(e.url)) problems.push(`external page ${e.key} has an unsafe address`);
  if ('Version' in r.fields)
    problems.push('Version is the record version the engine keeps: name the field otherwise');
  for (const [name, field] of Object.entries(r.fields)) {
    if (!(FIELD_TYPES as readonly string[]).includes(field.type))
      problems.push(`field ${name} has unknown type ${field.type}`);
  }
  return problems;
}

export function isResource(value: unknown): value is ResourceDeclaration {
  return typeof value === 'object' && value !== null && (value as { kind?: unknown }).kind === 'resource';
}

/** The Drizzle property of a field. */
export function columnOf(r: ResourceDeclaration, field: string): string {
  const f = r.fields[field];
  return f?.column ?? field.charAt(0).toLowerCase() + field.slice(1);
}

/** The table-settings screen name of a resource's list. */
export function screenNameOf(r: Pick<ResourceDeclaration, 'feature' | 'subfeature'>): string {
  return `${r.feature}.${r.subfeature}`;
}
