/**
 * Values of custom fields: one rule for the form, the server, import and the API. A custom field is checked as the
 * built-in field type it maps to (`customFieldDeclaration`, the same `normalizeField` every resource's fields go
 * through); the choice types check their live choices, the file type its uploaded-file model. Pages and branching:
 * a form shows the fields of one page at a time; a single-answer choice whose GoTo names a later page jumps there.
 * See docs/decisions/0111-custom-fields.md.
 */

import { type Cents, centsToDecimalString } from '../platform/fields/money.ts';
import type { FieldDeclaration } from '../platform/resource.ts';
import { type NormalizeOptions, normalizeField } from '../platform/resource-model.ts';
import { BRANCHING_DATA_TYPES, CUSTOM_FIELD_DATA_TYPES, type SelectListItem } from './custom-fields.rules.ts';

const T = CUSTOM_FIELD_DATA_TYPES;

/** What the value rules need of a field definition. */
export interface CustomFieldRuleModel {
  CustomFieldId: number;
  Name: string;
  HelpText?: string | null;
  CustomFieldDataTypeId: number;
  Required?: boolean;
  PageNumber?: number | null;
  SortOrder?: number;
  SelectListItems: readonly SelectListItem[];
  IsArchived?: boolean;
}

/** The model key of a custom field's value in a record (`cf_12`), beside the built-in fields. */
export function customFieldKey(id: number): string {
  return `cf_${id}`;
}
/** The custom field id of a model key, or null when the key is a built-in field. */
export function customFieldIdOfKey(key: string): number | null {
  const m = /^cf_(\d+)$/.exec(key);
  return m ? Number(m[1]) : null;
}

const BUILT_IN_TYPE: Partial<Record<number, FieldDeclaration['type']>> = {
  [T.Text]: 'text',
  [T.MultiLineText]: 'textarea',
  [T.Number]: 'number',
  [T.Currency]: 'currency',
  [T.Date]: 'date',
  [T.DateTime]: 'datetime',
  [T.Dropdown]: 'select',
  [T.DropdownWithFillIn]: 'select',
  [T.YesNo]: 'select',
  [T.MultiChoice]: 'multiSelect',
  [T.Checkbox]: 'boolean',
  [T.Email]: 'email',
  [T.Phone]: 'phone',
  [T.Website]: 'website',
};

/** The choices a person may pick now: live and not hidden (the built-in Other is picked by typing a fill-in). */
export function offeredChoices(field: Pick<CustomFieldRuleModel, 'SelectListItems'>): SelectListItem[] {
  return field.SelectListItems.filter((c) => !c.isDeleted && !c.IsHidden && c.Id > 0);
}

/** The Other choice of a DropdownWithFillIn (the one a fill-in answer is stored under). */
export function otherChoice(field: Pick<CustomFieldRuleModel, 'SelectListItems'>): SelectListItem | null {
  return field.SelectListItems.find((c) => !c.isDeleted && c.DisableUpdate && c.IsHidden && c.Id > 0) ?? null;
}

/**
 * The built-in field declaration a custom field is shown and checked as: the same field-type registry (web) and
 * `normalizeField` (shared) as every built-in field. Null for a section heading (no value) and a file upload (its
 * own model, the files feature's upload field).
 */
export function customFieldDeclaration(field: CustomFieldRuleModel): FieldDeclaration | null {
  const type = BUILT_IN_TYPE[field.CustomFieldDataTypeId];
  if (!type) return null;
  const declaration: FieldDeclaration = {
    type,
    label: field.Name,
    ...(field.Required ? { required: true } : {}),
    ...(field.HelpText ? { tooltip: field.HelpText } : {}),
    ...(field.IsArchived ? { readOnly: true } : {}),
  };
  if (type === 'text') declaration.maxLength = 500;
  if (type === 'textarea') declaration.maxLength = 10000;
  if (type === 'select' || type === 'multiSelect')
    declaration.options = offeredChoices(field).map((c) => ({ Id: c.Id, Name: c.Name }));
  return declaration;
}

export type CustomValueCheck = { value: unknown } | { error: string };

function isEmptyValue(raw: unknown): boolean {
  return (
    raw === undefined ||
    raw === null ||
    (typeof raw === 'string' && raw.trim() === '') ||
    (Array.isArray(raw) && raw.length === 0)
  );
}

/** Whether a stored (normalised) value counts as an answer (false, for a checkbox, is an answer). */
export function hasCustomValue(value: unknown): boolean {
  return !isEmptyValue(value);
}

function asChoiceId(raw: unknown): number | null {
  const n =
    typeof raw === 'number' ? raw : typeof raw === 'string' && /^\d+$/.test(raw.trim()) ? Number(raw) : NaN;
  return Number.isSafeInteger(n) ? n : null;
}

function choiceByName(field: CustomFieldRuleModel, name: string): SelectListItem | undefined {
  const wanted = name.trim().toLowerCase();
  return offeredChoices(field).find((c) => c.Name.trim().toLowerCase() === wanted);
}

/**
 * A value for a custom field, normalised, or the message for the person who gave it. Choices may be given by id
 * or by name (import). A DropdownWithFillIn takes a choice id, or text for its Other choice (stored as
 * `{Other: text}`). A file field takes the uploaded-file model. `required` is checked here; whether a field is
 * required on a given form (its page may be skipped by a branch) is `missingRequired`'s business.
 */
export function normalizeCustomValue(
  field: CustomFieldRuleModel,
  raw: unknown,
  options: NormalizeOptions & { ignoreRequired?: boolean } = {},
): CustomValueCheck {
  const label = field.Name;
  const required = Boolean(field.Required) && !options.ignoreRequired;
  const type = field.CustomFieldDataTypeId;
  if (type === T.SectionHeading) return { value: null };
  if (isEmptyValue(raw) && type !== T.Checkbox)
    return required ? { error: `${label} is required.` } : { value: null };
  if (type === T.FileUpload) {
    const f = raw as Record<string, unknown>;
    if (
      typeof f !== 'object' ||
      typeof f.Name !== 'string' ||
      typeof f.Url !== 'string' ||
      !Number.isSafeInteger(f.FileId) ||
      (f.FileId as number) <= 0
    )
      return { error: `${label} must be an uploaded file.` };
    return {
      value: {
        Name: f.Name.slice(0, 255),
        Url: f.Url.slice(0, 2000),
        ContentType: typeof f.ContentType === 'string' ? f.ContentType : null,
        FileId: f.FileId,
      },
    };
  }
  if (type === T.Dropdown || type === T.YesNo || type === T.DropdownWithFillIn) {
    const id = asChoiceId(raw);
    const byId = id !== null ? offeredChoices(field).find((c) => c.Id === id) : undefined;
    if (byId) return { value: byId.Id };
    const other = (raw as { Other?: unknown } | null)?.Other;
    if (type === T.DropdownWithFillIn && (typeof raw === 'string' || typeof other === 'string')) {
      const text = (typeof raw === 'string' ? raw : String(other)).trim();
      const named = choiceByName(field, text);
      if (named) return { value: named.Id };
      if (text === '') return required ? { error: `${label} is required.` } : { value: null };
      if (text.length > 500) return { error: `${label} has at most 500 characters.` };
      return { value: { Other: text } };
    }
    if (typeof raw === 'string') {
      const named = choiceByName(field, raw);
      if (named) return { value: named.Id };
    }
    return { error: `Choose one of the listed ${label}.` };
  }
  if (type === T.MultiChoice) {
    const list = Array.isArray(raw) ? raw : typeof raw === 'string' ? raw.split(/[;|]/) : [raw];
    const ids: number[] = [];
    for (const item of list) {
      const id = asChoiceId(item);
      const choice =
        (id !== null ? offeredChoices(field).find((c) => c.Id === id) : undefined) ??
        (typeof item === 'string' ? choiceByName(field, item) : undefined);
      if (!choice) return { error: `Choose only listed ${label}.` };
      if (!ids.includes(choice.Id)) ids.push(choice.Id);
    }
    if (ids.length === 0) return required ? { error: `Choose at least one ${label}.` } : { value: null };
    return { value: ids };
  }
  const declaration = customFieldDeclaration(field);
  if (!declaration) return { error: `${label} is not valid.` };
  const check = normalizeField({ ...declaration, required, readOnly: false }, raw, options);
  if ('value' in check && type === T.Checkbox && check.value === false && required)
    return { error: `${label} must be ticked.` };
  return check;
}

/** A stored value as people read it (lists, exports, the type-change dry run). */
export function customValueText(field: CustomFieldRuleModel, value: unknown): string {
  if (!hasCustomValue(value)) return '';
  const type = field.CustomFieldDataTypeId;
  const nameOf = (id: unknown) =>
    field.SelectListItems.find((c) => c.Id === id)?.Name ?? `(removed choice ${String(id)})`;
  if (type === T.Dropdown || type === T.YesNo || type === T.DropdownWithFillIn) {
    const other = (value as { Other?: unknown } | null)?.Other;
    return typeof other === 'string' ? other : nameOf(value);
  }
  if (type === T.MultiChoice) return Array.isArray(value) ? value.map(nameOf).join('; ') : nameOf(value);
  if (type === T.Currency && typeof value === 'number') return centsToDecimalString(value as Cents);
  if (type === T.Checkbox) return value === true ? 'Yes' : 'No';
  if (type === T.FileUpload) return String((value as { Name?: unknown }).Name ?? '');
  if (Array.isArray(value)) return value.join('; ');
  return String(value);
}

export type ConversionKind = 'kept' | 'converted' | 'lost';

/**
 * What becomes of a stored value when its field changes type (and choices): kept as it is, converted (read as
 * text, then as the new type), or lost when the new type cannot hold it. The setup screen's dry run counts these
 * before anything is applied; nothing is lost silently.
 */
export function convertCustomValue(
  from: CustomFieldRuleModel,
  to: CustomFieldRuleModel,
  value: unknown,
): { kind: ConversionKind; value: unknown } {
  if (!hasCustomValue(value)) return { kind: 'kept', value };
  if (to.CustomFieldDataTypeId === T.SectionHeading) return { kind: 'lost', value: null };
  const sameKind =
    from.CustomFieldDataTypeId === to.CustomFieldDataTypeId ||
    (BUILT_IN_TYPE[from.CustomFieldDataTypeId] === 'select' &&
      BUILT_IN_TYPE[to.CustomFieldDataTypeId] === 'select');
  if (sameKind) {
    const again = normalizeCustomValue(to, value, { ignoreRequired: true });
    if ('value' in again && JSON.stringify(again.value) === JSON.stringify(value))
      return { kind: 'kept', value };
  }
  // A single choice becomes a one-item multi-choice and back.
  if (to.CustomFieldDataTypeId === T.MultiChoice && typeof value === 'number') {
    const again = normalizeCustomValue(to, [value], { ignoreRequired: true });
    if ('value' in again) return { kind: 'converted', value: again.value };
  }
  if (Array.isArray(value) && value.length === 1 && BUILT_IN_TYPE[to.CustomFieldDataTypeId] === 'select') {
    const again = normalizeCustomValue(to, value[0], { ignoreRequired: true });
    if ('value' in again) return { kind: 'converted', value: again.value };
  }
  const text = customValueText(from, value);
  let candidate: unknown = text;
  if (from.CustomFieldDataTypeId === T.Currency && typeof value === 'number') {
    candidate = to.CustomFieldDataTypeId === T.Number ? value / 100 : text;
  } else if (to.CustomFieldDataTypeId === T.Currency && typeof value === 'number') {
    candidate = Math.round(value * 100);
  }
  if (to.CustomFieldDataTypeId === T.Checkbox) {
    const t = text.trim().toLowerCase();
    candidate = ['yes', 'true', '1', 'y'].includes(t)
      ? true
      : ['no', 'false', '0', 'n'].includes(t)
        ? false
        : null;
    if (candidate === null) return { kind: 'lost', value: null };
  }
  const again = normalizeCustomValue(to, candidate, { ignoreRequired: true });
  if ('error' in again || !hasCustomValue(again.value)) return { kind: 'lost', value: null };
  return { kind: 'converted', value: again.value };
}

/** The pages of a form, in order (fields without a page are on page 1). */
export function formPages(fields: readonly Pick<CustomFieldRuleModel, 'PageNumber'>[]): number[] {
  const pages = new Set(fields.map((f) => f.PageNumber ?? 1));
  if (pages.size === 0) pages.add(1);
  return [...pages].sort((a, b) => a - b);
}

/** The fields of one page in their order. */
export function fieldsOfPage<F extends CustomFieldRuleModel>(fields: readonly F[], page: number): F[] {
  return fields
    .filter((f) => (f.PageNumber ?? 1) === page)
    .sort((a, b) => (a.SortOrder ?? 0) - (b.SortOrder ?? 0) || a.CustomFieldId - b.CustomFieldId);
}

/**
 * The page after `page`: the GoTo of the last answered branching choice on the page when it names a later page
 * that exists, else the next page; null after the last page.
 */
export function nextPage(
  fields: readonly CustomFieldRuleModel[],
  values: Readonly<Record<number, unknown>>,
  page: number,
): number | null {
  const pages = formPages(fields);
  let target: number | null = null;
  for (const f of fieldsOfPage(fields, page)) {
    if (!BRANCHING_DATA_TYPES.includes(f.CustomFieldDataTypeId)) continue;
    const choice = f.SelectListItems.find((c) => c.Id === values[f.CustomFieldId] && !c.isDeleted);
    const other =
      (values[f.CustomFieldId] as { Other?: unknown } | null)?.Other !== undefined ? otherChoice(f) : null;
    const goTo = (choice ?? other)?.GoTo;
    if (goTo !== null && goTo !== undefined && goTo > page && pages.includes(goTo)) target = goTo;
  }
  if (target !== null) return target;
  return pages.find((p) => p > page) ?? null;
}

/** The pages a person filling the form goes through, from the first, following the branches of the values. */
export function pagePath(
  fields: readonly CustomFieldRuleModel[],
  values: Readonly<Record<number, unknown>>,
): number[] {
  const path: number[] = [];
  let page: number | null = formPages(fields)[0] ?? 1;
  while (page !== null && !path.includes(page)) {
    path.push(page);
    page = nextPage(fields, values, page);
  }
  return path;
}

/**
 * Required fields without an answer, on the pages the values' branches go through (a page a branch skips asks
 * nothing). Archived fields and section headings are never missing.
 */
export function missingRequired(
  fields: readonly CustomFieldRuleModel[],
  values: Readonly<Record<number, unknown>>,
): CustomFieldRuleModel[] {
  const path = pagePath(fields, values);
  return fields.filter(
    (f) =>
      f.Required &&
      !f.IsArchived &&
      f.CustomFieldDataTypeId !== T.SectionHeading &&
      path.includes(f.PageNumber ?? 1) &&
      !(f.CustomFieldDataTypeId === T.Checkbox
        ? values[f.CustomFieldId] === true
        : hasCustomValue(values[f.CustomFieldId])),
  );
}
