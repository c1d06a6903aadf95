/**
 * The wire shapes of the generic screen layer (spec 000 sections 3, 4 and 7): list requests and answers, columns,
 * criteria tags, table and widget settings, ErrorValidation, save answers, export and reports.
 */
import { z } from 'zod';
import { COLUMN_RENDERER_KEYS, FILTER_OPERATORS } from './resource.ts';

/**
 * Query of a list call: `$skip`, `$top`, `$orderby` ("Name desc"), and an optional `$search`. List pages also take
 * `skip` and `pageSize` for `$skip` and `$top` (spec 000 section 7: "skip and pageSize (or $skip and $top)").
 */
export const listQuerySchema = z.object({
  $skip: z.coerce.number().int().min(0).optional(),
  $top: z.coerce.number().int().min(1).max(999_999_999).optional(),
  skip: z.coerce.number().int().min(0).optional(),
  pageSize: z.coerce.number().int().min(1).max(999_999_999).optional(),
  $orderby: z.string().max(200).optional(),
  $search: z.string().max(200).optional(),
});
export type ListQueryInput = z.infer<typeof listQuerySchema>;

/** A list call's window and order, whichever pair of names the client used. */
export interface ListQuery {
  $skip: number;
  $top?: number | undefined;
  $orderby?: string | undefined;
  $search?: string | undefined;
}

/**
 * The query a list call means: `skip` is `$skip`, `pageSize` is `$top`. Both names of one value may be given only
 * when they agree; otherwise the answer says which, instead of one of them being ignored.
 */
export function listQueryOf(input: ListQueryInput): { query: ListQuery } | { error: string } {
  const pick = (
    dollar: number | undefined,
    plain: number | undefined,
    a: string,
    b: string,
  ): { error: string } | { value: number | undefined } =>
    dollar !== undefined && plain !== undefined && dollar !== plain
      ? { error: `Give ${a} or ${b}, not both with different values.` }
      : { value: dollar ?? plain };
  const skip = pick(input.$skip, input.skip, '$skip', 'skip');
  if ('error' in skip) return { error: skip.error };
  const top = pick(input.$top, input.pageSize, '$top', 'pageSize');
  if ('error' in top) return { error: top.error };
  return {
    query: {
      $skip: skip.value ?? 0,
      ...(top.value !== undefined ? { $top: top.value } : {}),
      ...(input.$orderby !== undefined ? { $orderby: input.$orderby } : {}),
      ...(input.$search !== undefined ? { $search: input.$search } : {}),
    },
  };
}

/**
 * Values one filter (`in`) may list. With at most 50 criteria a list request stays far below PostgreSQL's 65,535
 * parameters per statement.
 */
export const MAX_FILTER_VALUES = 1000;

export const filterCriterionSchema = z.object({
  PropertyName: z.string().max(100),
  Operator: z.enum(FILTER_OPERATORS),
  Value: z.unknown().optional(),
  Value2: z.unknown().optional(),
});
export type FilterCriterion = z.infer<typeof filterCriterionSchema>;

/** POST body of a list call: the filter (Id 0 none, 9999 advanced with Criteria) plus ColumnsToShow and search text. */
export const listRequestSchema = z.object({
  Id: z.coerce.number().int().optional(),
  FilterObj: z.unknown().optional(),
  UpdateDynamically: z.boolean().optional(),
  Criteria: z.array(filterCriterionSchema).max(50).optional(),
  StatusTypeOptions: z.unknown().optional(),
  ColumnsToShow: z.array(z.string().max(100)).max(200).optional(),
  SearchText: z.string().max(200).optional(),
});
export type ListRequest = z.infer<typeof listRequestSchema>;

export const criteriaItemSchema = z.object({
  DisplayName: z.string(),
  CriteriaDisplayValue: z.string().nullable(),
  PropertyName: z.string().nullable(),
  ShowValueOnTag: z.boolean(),
});
export type CriteriaItem = z.infer<typeof criteriaItemSchema>;

export const showConditionSchema = z.object({
  field: z.string(),
  equals: z.unknown().optional(),
  notEquals: z.unknown().optional(),
});

export const rowActionSchema = z.object({
  key: z.string(),
  title: z.string(),
  kind: z.enum(['edit', 'delete', 'void', 'custom', 'serverCall']),
  showCondition: showConditionSchema.optional(),
  call: z.object({ method: z.enum(['GET', 'POST']), path: z.string(), confirm: z.string() }).optional(),
  permission: z.string().optional(),
});
export type RowAction = z.infer<typeof rowActionSchema>;

/** A list column as the server describes it. */
export const listColumnSchema = z.object({
  field: z.string(),
  title: z.string(),
  show: z.boolean(),
  defaultHide: z.boolean(),
  sortable: z.boolean(),
  type: z.enum(['Actions']).optional(),
  fieldType: z.string().optional(),
  rendererInfo: z.object({ Key: z.enum(COLUMN_RENDERER_KEYS) }).optional(),
  width: z.number().optional(),
  /** The declared display mode when the user saved none (Truncate = 0, Wrap = 1, Full = 2). */
  mode: z.union([z.literal(0), z.literal(1), z.literal(2)]).optional(),
  actions: z.array(rowActionSchema).optional(),
  showCondition: showConditionSchema.optional(),
});
export type ListColumn = z.infer<typeof listColumnSchema>;

export const listModelItemsSchema = z.object({
  Resource: z.string(),
  Title: z.string(),
  Filters: z.array(z.object({ Id: z.number(), Name: z.string() })),
  SortableFields: z.array(z.string()),
  FilterableFields: z.array(z.string()),
  SearchFields: z.array(z.string()),
  DefaultSort: z.object({ columnName: z.string(), direction: z.enum(['asc', 'desc']) }),
  PageSize: z.number().int(),
});
export type ListModelItems = z.infer<typeof listModelItemsSchema>;

/** The list search box counts its matches exactly up to this many; beyond, the total is an estimate (0101). */
export const LIST_SEARCH_EXACT_UP_TO = 1000;

export const listResponseSchema = z.object({
  Results: z.array(z.record(z.string(), z.unknown())),
  TotalRecordAvailable: z.number().int(),
  /**
   * Set when the list search box matched more rows than are counted exactly (LIST_SEARCH_EXACT_UP_TO): the total is
   * an estimate from a sample, and the pages list LIST_SEARCH_EXACT_UP_TO of the matches (decision 0101).
   */
  TotalIsEstimate: z.boolean().optional(),
  CriteriaItems: z.array(criteriaItemSchema),
  ModelItems: listModelItemsSchema,
  ListViewItems: z.array(listColumnSchema),
  /** Set when the request was an export ($skip 0, $top 999999999): poll /api/files/ready/{id}. */
  PendingDownloadFileId: z.string().nullable().optional(),
});
export type ListResponse = z.infer<typeof listResponseSchema>;

/**
 * One option of a resource's typeahead (`GET …/{view}Lookup`): the record's key, its name, and the fields the resource
 * names in `lookupExtra` (account number, city: to tell namesakes apart), or null when it names none.
 */
export const lookupOptionSchema = z.object({
  Id: z.union([z.number(), z.string()]),
  Name: z.string(),
  ExtraData: z.record(z.string(), z.unknown()).nullable(),
});
export type LookupOption = z.infer<typeof lookupOptionSchema>;

/** Column display modes: Truncate 0, Wrap 1, Full 2. */
export const columnModeSchema = z.union([z.literal(0), z.literal(1), z.literal(2)]);

export const tableSettingsSchema = z.object({
  ScreenName: z.string().min(1).max(200),
  Sort: z
    .object({ columnName: z.string().max(100), direction: z.enum(['asc', 'desc']) })
    .nullable()
    .optional(),
  Columns: z
    .array(
      z.object({
        Name: z.string().max(100),
        Visible: z.boolean(),
        Mode: columnModeSchema,
        Order: z.number().int().min(0),
      }),
    )
    .max(200),
});
export type TableSettings = z.infer<typeof tableSettingsSchema>;

/** Loading table settings with the screen: an invalid saved sort is dropped and reported so the client clears it. */
export const tableSettingsAnswerSchema = z.object({
  Settings: tableSettingsSchema.nullable(),
  InvalidSort: z.boolean(),
});
export type TableSettingsAnswer = z.infer<typeof tableSettingsAnswerSchema>;

export const userWidgetSettingsSchema = z.object({
  ScreenName: z.string().min(1).max(200),
  Settings: z.record(z.string(), z.unknown()),
});
export type UserWidgetSettings = z.infer<typeof userWidgetSettingsSchema>;

/** A business exception the client acts on: Proceed 0 (repeat with ForceSave), Error 1, YesNo 2 (send Answer). */
export const errorValidationSchema = z.object({
  class: z.literal('ErrorValidation'),
  Message: z.string(),
  Action: z.union([z.literal(0), z.literal(1), z.literal(2)]),
  /**
   * YesNo only: "No" means "do not save" (a duplicate check's "Save it anyway?"), so the client ends the save there
   * and keeps the form as typed instead of sending the answer back. Without it, "No" is sent as Answer.
   */
  NoCancelsSave: z.boolean().optional(),
});
export type ErrorValidation = z.infer<typeof errorValidationSchema>;

/**
 * Optimistic concurrency (decision 0095). A versioned record's model carries `Version`; a save or inline edit that
 * sends the version it loaded is refused with 409 when someone else saved the record since, and the answer holds
 * the record as it is now, so the form can show their values beside the user's. Sending `Version` from `Current`
 * again saves over theirs deliberately. A save without `Version` is not checked (clients that do not know it).
 */
export const RECORD_VERSION_FIELD = 'Version';
export const CONCURRENCY_CONFLICT_MESSAGE =
  'Someone else saved this record after you opened it. Compare their values with yours, then load theirs or save yours over them.';
export const concurrencyConflictSchema = z.object({
  message: z.string(),
  class: z.literal('ConcurrencyConflict'),
  Current: z.record(z.string(), z.unknown()),
});
export type ConcurrencyConflict = z.infer<typeof concurrencyConflictSchema>;

/** The version a model says it was loaded at; undefined when it says none (or something that is not one). */
export function recordVersionOf(model: Record<string, unknown>): number | undefined {
  const v = model[RECORD_VERSION_FIELD];
  const n = typeof v === 'string' && v.trim() !== '' ? Number(v) : v;
  return typeof n === 'number' && Number.isSafeInteger(n) && n > 0 ? n : undefined;
}

export const postActionSchema = z.object({
  Type: z.union([z.literal(0), z.literal(1)]),
  Message: z.string(),
  ExtraButton: z.object({ Text: z.string(), Url: z.string() }).optional(),
});
export type PostAction = z.infer<typeof postActionSchema>;

export const SAVE_SUCCESS_MESSAGE = 'We saved it!';

export const saveResponseSchema = z.object({
  Data: z.record(z.string(), z.unknown()),
  Message: z.string(),
  PendingDownloadFileId: z.string().nullable(),
  PostActions: z.array(postActionSchema),
});
export type SaveResponse = z.infer<typeof saveResponseSchema>;

/** Extras a save body may carry beside the model. */
export const saveExtrasSchema = z.object({
  ForceSave: z.boolean().optional(),
  Answer: z.enum(['Yes', 'No']).optional(),
});

export const getRequestSchema = z.object({ id: z.union([z.string().max(200), z.number()]) });

/** Records a bulk action takes in one request (a list page is at most this many rows). */
export const BULK_MAX_IDS = 1000;

/**
 * A bulk action on selected records (`POST /api/{feature}/{subfeature}/{view}Bulk`): delete them, or set the same
 * fields on each (as an inline edit does). Each record is done or refused on its own; one refused does not stop
 * the others.
 */
export const bulkRequestSchema = z.discriminatedUnion('Action', [
  z.object({
    Action: z.literal('delete'),
    Ids: z
      .array(z.union([z.string().max(200), z.number()]))
      .min(1)
      .max(BULK_MAX_IDS),
  }),
  z.object({
    Action: z.literal('change'),
    Ids: z
      .array(z.union([z.string().max(200), z.number()]))
      .min(1)
      .max(BULK_MAX_IDS),
    Changes: z.record(z.string(), z.unknown()),
  }),
]);
export type BulkRequest = z.infer<typeof bulkRequestSchema>;

export const bulkResponseSchema = z.object({
  /** Ids done. */
  Done: z.array(z.string()),
  /** Ids refused, with why (the message a single delete or inline edit would have answered). */
  Failed: z.array(z.object({ Id: z.string(), Message: z.string() })),
});
export type BulkResponse = z.infer<typeof bulkResponseSchema>;

export const duplicateCheckResponseSchema = z.object({
  IsDuplicate: z.boolean(),
  Fields: z.array(z.string()),
});

/** The dialog component the web opens for a screen key. */
export const viewTemplateSchema = z.object({
  Key: z.string(),
  Component: z.string(),
  Title: z.string(),
  Size: z.enum(['sm', 'md', 'lg', 'xl', 'full']),
  Props: z.record(z.string(), z.unknown()),
});
export type ViewTemplate = z.infer<typeof viewTemplateSchema>;

export const fileReadySchema = z.object({ Ready: z.boolean(), FileName: z.string().nullable() });

/** Report run query and answer (the state also travels in Report* response headers). */
export const reportRunQuerySchema = z.object({
  format: z.enum(['json', 'csv']).default('json'),
  session: z.string().max(100).optional(),
  page: z.coerce.number().int().min(1).default(1),
  orderby: z.string().max(100).optional(),
  direction: z.enum(['asc', 'desc']).optional(),
});
export const reportRunResponseSchema = z.object({
  ReportId: z.string(),
  Columns: z.array(z.object({ field: z.string(), title: z.string() })),
  Rows: z.array(z.record(z.string(), z.unknown())),
  ReportSessionKey: z.string(),
  ReportCurrentPage: z.number().int(),
  ReportPageCount: z.number().int(),
  ReportOrderBy: z.string(),
  ReportDirection: z.enum(['asc', 'desc']),
  TotalRecordAvailable: z.number().int(),
});
export type ReportRunResponse = z.infer<typeof reportRunResponseSchema>;
export const reportCatalogueItemSchema = z.object({
  ReportId: z.string(),
  Title: z.string(),
  Description: z.string(),
  Resource: z.string(),
  IsFavorite: z.boolean(),
});
export type ReportCatalogueItem = z.infer<typeof reportCatalogueItemSchema>;
/** Report run response headers (spec 000 section 4: report state is updated from them). */
export const REPORT_HEADERS = {
  sessionKey: 'ReportSessionKey',
  currentPage: 'ReportCurrentPage',
  pageCount: 'ReportPageCount',
  orderBy: 'ReportOrderBy',
  direction: 'ReportDirection',
} as const;
