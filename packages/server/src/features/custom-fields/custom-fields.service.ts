/**
 * Custom fields: the definitions staff with the setup permission keep per entity, the type change with its dry
 * run, and the values of a record, checked against their field's type on every write (decision 0111).
 */
import type { Tx } from '@guildhall/db';
import {
  CUSTOM_FIELD_DATA_TYPES,
  type CustomField,
  type CustomFieldBody,
  type CustomValues,
  changeCustomFieldType,
  clearBackwardBranches,
  columnOf,
  convertCustomValue,
  customFieldEntities,
  customFieldKey,
  customValueText,
  missingRequired,
  normalizeCustomValue,
  OTHER_CHOICE_NAME,
  type RecordCustomValues,
  recordNameOf,
  type SelectListItem,
  type TenantSettings,
  type TypeChangeOutcome,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import type { ExtraAnswers, ExtraImport } from '../../platform/resources/extra-fields.ts';
import type { BoundResource } from '../../platform/resources/registry.ts';
import { findRow } from '../../platform/resources/resource.repo.ts';
import { recordModel, settingsFor, tenantSettingsOf } from '../../platform/resources/resource.service.ts';
import type { SearchIndex } from '../../platform/services.ts';
import * as repo from './custom-fields.repo.ts';
import {
  followDefinition,
  SEARCHED_TYPES,
  type SearchRefreshServices,
  searchedTexts,
} from './custom-fields.search.ts';

const AUDIT_ENTITY = 'custom_fields';

/** The entities whose records take custom fields: every resource declaring `customFields`. */
export function entitiesOf(resources: readonly BoundResource[]) {
  const map = customFieldEntities(resources.map((b) => b.resource));
  return [...map].map(([Entity, r]) => ({ Entity, Title: r.customFields?.title ?? r.title }));
}

function boundOfEntity(resources: readonly BoundResource[], entity: string): BoundResource {
  const bound = resources.find((b) => b.resource.customFields?.entity === entity && !b.resource.fixture);
  if (!bound) throw new HttpError(400, `${entity} records do not take custom fields.`);
  return bound;
}

/** The fields of an entity: those of no scope, or (`scopeId`) those belonging to one record (an event's questions). */
export async function listFields(
  tx: Tx,
  auth: AuthContext,
  entity: string,
  scopeId: number | null = null,
): Promise<CustomField[]> {
  const fields = await repo.fieldsOf(tx, auth.tenantId, entity, scopeId === null ? null : { only: scopeId });
  const counts = await repo.valueCounts(
    tx,
    auth.tenantId,
    fields.map((f) => f.CustomFieldId),
  );
  return fields.map((f) => ({ ...f, ValueCount: counts.get(f.CustomFieldId) ?? 0 }));
}

/**
 * The choices as saved: new ones (Id 0 or less) numbered after the field's highest id, a saved choice the client
 * left out kept as deleted (answers may name it), the built-in Other unchangeable, backward branches cleared.
 */
function settleChoices(
  body: Pick<CustomField, 'CustomFieldDataTypeId' | 'PageNumber' | 'SelectListItems'>,
  saved: readonly SelectListItem[],
): SelectListItem[] {
  let next = Math.max(0, ...saved.map((c) => c.Id)) + 1;
  const seen = new Set<number>();
  const items: SelectListItem[] = [];
  for (const item of body.SelectListItems) {
    const before = saved.find((c) => c.Id === item.Id && item.Id > 0);
    if (item.Id > 0 && !before)
      throw new HttpError(400, `The choice ${item.Name} is not one of this field's.`);
    if (before && seen.has(before.Id)) continue;
    if (before) seen.add(before.Id);
    const fixed = before?.DisableUpdate
      ? { ...before, GoTo: item.GoTo ?? null }
      : {
          Id: before ? before.Id : next++,
          Name: item.Name.trim(),
          GoTo: item.GoTo ?? null,
          // Only the built-in Other of a fill-in is unchangeable (the type-change rules add it).
          DisableUpdate:
            !before &&
            Boolean(item.DisableUpdate) &&
            body.CustomFieldDataTypeId === CUSTOM_FIELD_DATA_TYPES.DropdownWithFillIn &&
            item.Name === OTHER_CHOICE_NAME,
          IsHidden: Boolean(item.IsHidden),
          isDeleted: Boolean(item.isDeleted),
        };
    items.push(fixed);
  }
  // A saved choice left out is kept as deleted (answers may name it); the built-in Other is kept as it is.
  for (const c of saved) if (!seen.has(c.Id)) items.push(c.DisableUpdate ? c : { ...c, isDeleted: true });
  const names = new Set<string>();
  for (const c of items.filter((i) => !i.isDeleted)) {
    const key = c.Name.toLowerCase();
    if (names.has(key)) throw new HttpError(400, `Two choices are named ${c.Name}.`);
    names.add(key);
  }
  return clearBackwardBranches({ ...body, SelectListItems: items }).SelectListItems;
}

function checkDefault(field: CustomField): unknown {
  if (field.DefaultValue === undefined || field.DefaultValue === null || field.DefaultValue === '')
    return null;
  const check = normalizeCustomValue(field, field.DefaultValue, { ignoreRequired: true });
  if ('error' in check)
    throw new HttpError(400, `Default value: ${check.error}`, { DefaultValue: [check.error] });
  return check.value;
}

export async function createField(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  body: CustomFieldBody,
): Promise<CustomField> {
  const bound = boundOfEntity(resources, body.Entity);
  await checkScope(tx, auth, resources, bound, body.ScopeId ?? null);
  // The type's own choices (Yes and No, the built-in Other) as the type-change rules make them.
  const typed = changeCustomFieldType(
    { ...body, SelectListItems: body.SelectListItems.map((c) => ({ ...c, Id: 0 })) },
    body.CustomFieldDataTypeId,
  );
  const SelectListItems = settleChoices(typed, []);
  const draft = { ...body, SelectListItems, DefaultValue: null } as CustomField;
  const field = await repo.insertField(tx, auth.tenantId, {
    ...draft,
    DefaultValue: checkDefault({ ...draft, CustomFieldId: 0, DefaultValue: body.DefaultValue ?? null }),
  });
  await audit(tx, auth, {
    action: 'create',
    entity: AUDIT_ENTITY,
    entityId: field.CustomFieldId,
    after: field,
  });
  return { ...field, ValueCount: 0 };
}

export async function updateField(
  tx: Tx,
  auth: AuthContext,
  id: number,
  body: CustomFieldBody & { Version?: number | undefined },
  services: SearchRefreshServices,
): Promise<CustomField> {
  const before = await repo.findField(tx, auth.tenantId, id);
  if (!before) throw notFound();
  if (body.Entity !== before.Entity || (body.ScopeId ?? null) !== (before.ScopeId ?? null))
    throw new HttpError(400, 'A custom field stays on its entity.');
  if (body.CustomFieldDataTypeId !== before.CustomFieldDataTypeId)
    throw new HttpError(
      400,
      'Change the type through “Change type”, which first shows what becomes of the stored values.',
    );
  const SelectListItems = settleChoices(body, before.SelectListItems);
  const draft = { ...body, SelectListItems, CustomFieldId: id, Version: before.Version } as CustomField;
  const after = await repo.updateField(
    tx,
    auth.tenantId,
    id,
    { ...draft, DefaultValue: checkDefault({ ...draft, DefaultValue: body.DefaultValue ?? null }) },
    body.Version,
  );
  if (!after)
    throw new HttpError(409, 'Someone else changed this field since you opened it. Reload it and try again.');
  await audit(tx, auth, { action: 'update', entity: AUDIT_ENTITY, entityId: id, before, after });
  await followDefinition(tx, auth.tenantId, services, before, after, auth.userId);
  const counts = await repo.valueCounts(tx, auth.tenantId, [id]);
  return { ...after, ValueCount: counts.get(id) ?? 0 };
}

export async function deleteField(
  tx: Tx,
  auth: AuthContext,
  id: number,
  services: SearchRefreshServices,
): Promise<void> {
  const before = await repo.findField(tx, auth.tenantId, id);
  if (!before) throw notFound();
  await repo.deleteField(tx, auth.tenantId, id);
  await audit(tx, auth, { action: 'delete', entity: AUDIT_ENTITY, entityId: id, before });
  await followDefinition(tx, auth.tenantId, services, before, null, auth.userId);
}

async function recordNames(
  tx: Tx,
  auth: AuthContext,
  bound: BoundResource,
  ids: readonly number[],
): Promise<Map<number, string>> {
  const out = new Map<number, string>();
  for (const id of ids) {
    const row = await findRow(tx, bound, auth.tenantId, id);
    out.set(id, row ? recordNameOf(bound.resource, recordModel(bound, row)) : `record ${id} (deleted)`);
  }
  return out;
}

/**
 * Changes a field's type (spec 000 section 4): the choices by the shared rules, each stored value kept, converted
 * or lost. Without `confirm` nothing is written: the answer is the dry run.
 */
export async function changeType(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  id: number,
  newTypeId: number,
  confirm: boolean,
  services: SearchRefreshServices,
): Promise<TypeChangeOutcome> {
  const before = await repo.findField(tx, auth.tenantId, id);
  if (!before) throw notFound();
  if (!Object.values(CUSTOM_FIELD_DATA_TYPES).includes(newTypeId as never))
    throw new HttpError(400, 'Choose one of the listed data types.');
  const bound = boundOfEntity(resources, before.Entity);
  const changed = changeCustomFieldType(before, newTypeId);
  const after: CustomField = { ...changed, SelectListItems: settleChoices(changed, before.SelectListItems) };
  const stored = await repo.allValuesOf(tx, auth.tenantId, before);
  let kept = 0;
  let converted = 0;
  let lost = 0;
  const changes: { recordId: number; before: unknown; after: unknown; kind: 'converted' | 'lost' }[] = [];
  for (const { recordId, value } of stored) {
    const outcome = convertCustomValue(before, after, value);
    if (outcome.kind === 'kept') kept++;
    else {
      if (outcome.kind === 'converted') converted++;
      else lost++;
      changes.push({ recordId, before: value, after: outcome.value, kind: outcome.kind });
    }
  }
  const shown = changes.slice(0, 20);
  const names = await recordNames(
    tx,
    auth,
    bound,
    shown.map((c) => c.recordId),
  );
  if (confirm) {
    const written = await repo.updateField(
      tx,
      auth.tenantId,
      id,
      { ...after, DefaultValue: null },
      before.Version,
    );
    if (!written)
      throw new HttpError(
        409,
        'Someone else changed this field since you opened it. Reload it and try again.',
      );
    for (const c of changes)
      await repo.writeValue(tx, auth.tenantId, written, c.recordId, c.kind === 'lost' ? null : c.after);
    await audit(tx, auth, {
      action: 'change-type',
      entity: AUDIT_ENTITY,
      entityId: id,
      before: {
        CustomFieldDataTypeId: before.CustomFieldDataTypeId,
        SelectListItems: before.SelectListItems,
      },
      after: {
        CustomFieldDataTypeId: newTypeId,
        SelectListItems: written.SelectListItems,
        Kept: kept,
        Converted: converted,
        Lost: lost,
      },
    });
    // Every record that had a value: a lost one no longer has a row to find it by.
    await followDefinition(
      tx,
      auth.tenantId,
      services,
      before,
      written,
      auth.userId,
      stored.map((v) => v.recordId),
    );
  }
  return {
    FromTypeId: before.CustomFieldDataTypeId,
    ToTypeId: newTypeId,
    Total: stored.length,
    Kept: kept,
    Converted: converted,
    Lost: lost,
    Examples: shown.map((c) => ({
      RecordId: c.recordId,
      RecordName: names.get(c.recordId) ?? '',
      Before: customValueText(before, c.before),
      After: c.kind === 'lost' ? null : customValueText(after, c.after),
    })),
    SelectListItems: after.SelectListItems,
    Applied: confirm,
  };
}

/** Who reads a record's values: staff read every field; a member only those visible to members (own record). */
export type Viewer = 'staff' | 'member';

function visibleTo(viewer: Viewer, field: CustomField): boolean {
  return viewer === 'staff' || field.Visibility !== 'staff';
}
function editableBy(viewer: Viewer, field: CustomField): boolean {
  if (field.IsArchived || field.CustomFieldDataTypeId === CUSTOM_FIELD_DATA_TYPES.SectionHeading)
    return false;
  // Members do not upload to the library: a file field is theirs to see, not to change.
  if (viewer === 'member' && field.CustomFieldDataTypeId === CUSTOM_FIELD_DATA_TYPES.FileUpload) return false;
  return viewer === 'staff' || field.Visibility === 'memberEdit';
}

/** A live record of the resource, or 404; answers the record's scope record (its EventId) when the entity has a scope. */
async function checkRecord(
  tx: Tx,
  auth: Pick<AuthContext, 'tenantId'>,
  bound: BoundResource,
  recordId: number,
): Promise<{ record: number | null } | undefined> {
  const row = await findRow(tx, bound, auth.tenantId, recordId);
  const soft = bound.resource.softDelete;
  const deleted = soft ? row?.[columnOf(bound.resource, soft.deleted)] : false;
  if (!row || deleted === true) throw notFound();
  const scope = bound.resource.customFields?.scope;
  if (!scope) return undefined;
  const value = row[columnOf(bound.resource, scope.field)];
  return { record: value === null || value === undefined ? null : Number(value) };
}

/** A field given a scope: its entity must have one, and the scope record must be a live record of its resource. */
async function checkScope(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  bound: BoundResource,
  scopeId: number | null,
): Promise<void> {
  if (scopeId === null) return;
  const scope = bound.resource.customFields?.scope;
  if (!scope) throw new HttpError(400, 'These fields belong to every record: they take no scope.');
  const owner = resources.find((b) => b.resource.name === scope.resource);
  if (!owner) throw new HttpError(400, 'These fields take no scope.');
  await checkRecord(tx, auth, owner, scopeId);
}

export async function recordValues(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  entity: string,
  recordId: number,
  viewer: Viewer,
): Promise<RecordCustomValues> {
  const bound = boundOfEntity(resources, entity);
  const scope = await checkRecord(tx, auth, bound, recordId);
  const fields = (await repo.fieldsOf(tx, auth.tenantId, entity, scope)).filter((f) => visibleTo(viewer, f));
  const values = (await repo.valuesOf(tx, auth.tenantId, fields, [recordId])).get(recordId) ?? {};
  return {
    Fields: fields,
    Values: values,
    Editable: fields.filter((f) => editableBy(viewer, f)).map((f) => f.CustomFieldId),
  };
}

/**
 * Checks values given for a record (those given; `current` are its stored ones): each against its field's type, a
 * field the viewer may not edit (or not of the entity) refused, never skipped; required fields on the pages the
 * answers go through must have one; a file names a file of the association's library that is still there.
 */
async function checkValues(
  tx: Tx,
  tenantId: string,
  all: readonly CustomField[],
  current: Record<string, unknown>,
  input: CustomValues,
  viewer: Viewer,
  settings: TenantSettings,
): Promise<{ writes: [CustomField, unknown][] } | { errors: Record<string, string[]> }> {
  const byId = new Map(all.map((f) => [f.CustomFieldId, f]));
  const errors: Record<string, string[]> = {};
  const next: Record<number, unknown> = Object.fromEntries(
    Object.entries(current).map(([k, v]) => [Number(k), v]),
  );
  const writes: [CustomField, unknown][] = [];
  for (const [key, raw] of Object.entries(input)) {
    const field = byId.get(Number(key));
    if (!field || !visibleTo(viewer, field)) {
      errors[customFieldKey(Number(key))] = ['No such field.'];
      continue;
    }
    if (!editableBy(viewer, field)) {
      if (JSON.stringify(raw ?? null) !== JSON.stringify(current[key] ?? null))
        errors[customFieldKey(field.CustomFieldId)] = [`${field.Name} cannot be changed here.`];
      continue;
    }
    const check = normalizeCustomValue(field, raw, {
      ignoreRequired: true,
      websitePrefix: settings.websitePrefix,
      timeZone: settings.defaultTimezone,
    });
    if ('error' in check) errors[customFieldKey(field.CustomFieldId)] = [check.error];
    else {
      next[field.CustomFieldId] = check.value;
      writes.push([field, check.value]);
    }
  }
  const askable = all.filter((f) => editableBy(viewer, f) && visibleTo(viewer, f));
  for (const f of missingRequired(askable, next)) {
    const key = customFieldKey(f.CustomFieldId);
    if (!errors[key]) errors[key] = [`${f.Name} is required.`];
  }
  for (const [field, value] of writes) {
    if (field.CustomFieldDataTypeId !== CUSTOM_FIELD_DATA_TYPES.FileUpload || value === null) continue;
    const fileId = (value as { FileId: number }).FileId;
    if (!(await repo.fileExists(tx, tenantId, fileId)))
      errors[customFieldKey(field.CustomFieldId)] = [`${field.Name}: upload the file again.`];
  }
  return Object.keys(errors).length > 0 ? { errors } : { writes };
}

/**
 * Writes a record's values (those given; the others stay): each checked against its field's type, required fields
 * on the pages the answers go through must have one. A field the caller may not edit is refused, never skipped.
 */
export async function saveRecordValues(
  tx: Tx,
  auth: AuthContext,
  resources: readonly BoundResource[],
  entity: string,
  recordId: number,
  input: CustomValues,
  viewer: Viewer,
  /** The global search index: a changed searchable text is rewritten into the record's documents. */
  search?: SearchIndex,
): Promise<RecordCustomValues> {
  const bound = boundOfEntity(resources, entity);
  const scope = await checkRecord(tx, auth, bound, recordId);
  const all = await repo.fieldsOf(tx, auth.tenantId, entity, scope);
  const current = (await repo.valuesOf(tx, auth.tenantId, all, [recordId])).get(recordId) ?? {};
  const checked = await checkValues(
    tx,
    auth.tenantId,
    all,
    current,
    input,
    viewer,
    await settingsFor(tx, auth),
  );
  if ('errors' in checked) {
    const first = Object.values(checked.errors)[0]?.[0] ?? 'The values are not valid.';
    throw new HttpError(400, first, checked.errors);
  }
  const { writes } = checked;
  const changed = writes.filter(
    ([f, v]) => JSON.stringify(v ?? null) !== JSON.stringify(current[String(f.CustomFieldId)] ?? null),
  );
  for (const [field, value] of changed) await repo.writeValue(tx, auth.tenantId, field, recordId, value);
  if (changed.length > 0)
    await audit(tx, auth, {
      action: 'update',
      entity: bound.resource.name,
      entityId: recordId,
      before: Object.fromEntries(
        changed.map(([f]) => [f.Name, customValueText(f, current[String(f.CustomFieldId)])]),
      ),
      after: Object.fromEntries(changed.map(([f, v]) => [f.Name, customValueText(f, v)])),
    });
  if (search?.entityTypes.includes(entity) && changed.some(([f]) => f.Searchable))
    await search.write(tx, auth.tenantId, entity, recordId);
  return recordValues(tx, auth, resources, entity, recordId, viewer);
}

/**
 * The fields of an entity asked on another feature's form of its records (an event registration's questions,
 * decision 0111): shown, checked and written as the record's own custom-fields form does.
 */
export function answersOf(entity: string): ExtraAnswers {
  const asked = (viewer: Viewer, f: CustomField) =>
    editableBy(viewer, f) ||
    (f.CustomFieldDataTypeId === CUSTOM_FIELD_DATA_TYPES.SectionHeading &&
      !f.IsArchived &&
      visibleTo(viewer, f));
  return {
    async fields(tx, tenantId, audience, scope) {
      return (await repo.fieldsOf(tx, tenantId, entity, { record: scope ?? null })).filter((f) =>
        asked(audience, f),
      );
    },
    async check(tx, tenantId, input, audience, scope) {
      const all = await repo.fieldsOf(tx, tenantId, entity, { record: scope ?? null });
      const checked = await checkValues(
        tx,
        tenantId,
        all,
        {},
        input,
        audience,
        await tenantSettingsOf(tx, tenantId),
      );
      if ('errors' in checked) return checked;
      return {
        values: Object.fromEntries(checked.writes.map(([f, v]) => [String(f.CustomFieldId), v])),
      };
    },
    async write(tx, tenantId, key, values) {
      const byId = new Map((await repo.fieldsOf(tx, tenantId, entity)).map((f) => [f.CustomFieldId, f]));
      const rows: { field: CustomField; recordId: number; value: unknown }[] = [];
      for (const [id, value] of Object.entries(values)) {
        const field = byId.get(Number(id));
        if (!field) throw new Error(`No custom field ${id} of ${entity}.`);
        if (value !== null && value !== undefined) rows.push({ field, recordId: key, value });
      }
      await repo.writeValues(tx, tenantId, rows);
    },
  };
}

/**
 * A duplicate merged into the record kept (decision 0111): the kept record keeps its values and takes the
 * duplicate's where it has none; the duplicate's values that differ from the kept record's are answered as
 * "Name: value" lines, which the merge writes into the kept record's notes as it does for built-in fields.
 */
export async function mergeRecordValues(
  tx: Tx,
  tenantId: string,
  entity: string,
  keepId: number,
  goneId: number,
): Promise<string[]> {
  const fields = await repo.fieldsOf(tx, tenantId, entity);
  const values = await repo.valuesOf(tx, tenantId, fields, [keepId, goneId]);
  const kept = values.get(keepId) ?? {};
  const gone = values.get(goneId) ?? {};
  const lines: string[] = [];
  for (const f of fields) {
    const key = String(f.CustomFieldId);
    const theirs = gone[key];
    const own = kept[key];
    if (theirs === undefined || theirs === null || own === undefined || own === null) continue;
    const text = customValueText(f, theirs);
    if (text !== customValueText(f, own)) lines.push(`${f.Name}: ${text}`);
  }
  await repo.mergeRecordValues(tx, tenantId, entity, keepId, goneId);
  return lines;
}

/**
 * How an import fills an entity's custom fields (decision 0111): every live field but a file (an upload, not a
 * cell) and a section heading, each cell checked by `normalizeCustomValue` as a form's value is (a choice by its
 * name, several separated by ";"); required is the form's business, an empty cell leaves the value as it is.
 */
export async function importerOf(
  tx: Tx,
  tenantId: string,
  entity: string,
  settings: TenantSettings,
): Promise<ExtraImport> {
  const fields = (await repo.fieldsOf(tx, tenantId, entity)).filter(
    (f) =>
      !f.IsArchived &&
      f.CustomFieldDataTypeId !== CUSTOM_FIELD_DATA_TYPES.FileUpload &&
      f.CustomFieldDataTypeId !== CUSTOM_FIELD_DATA_TYPES.SectionHeading,
  );
  const byKey = new Map(fields.map((f) => [customFieldKey(f.CustomFieldId), f]));
  return {
    fields: fields.map((f) => ({ Id: customFieldKey(f.CustomFieldId), Name: f.Name })),
    parse(key, text) {
      const field = byKey.get(key);
      if (!field) return { error: 'There is no such custom field.' };
      const check = normalizeCustomValue(field, text.trim(), {
        ignoreRequired: true,
        websitePrefix: settings.websitePrefix,
        timeZone: settings.defaultTimezone,
      });
      if ('error' in check)
        return { error: check.error.includes(field.Name) ? check.error : `${field.Name}: ${check.error}` };
      return { value: check.value };
    },
    async write(t, tenant, records) {
      const rows: { field: CustomField; recordId: number; value: unknown }[] = [];
      for (const r of records)
        for (const [key, value] of Object.entries(r.values)) {
          const field = byKey.get(key);
          if (field && value !== null && value !== undefined)
            rows.push({ field, recordId: Number(r.key), value });
        }
      await repo.writeValues(t, tenant, rows);
    },
  };
}

/**
 * The texts of records' searchable fields (texts, chosen choices' names) for their search documents: staff find every one; members, in the
 * directory, only those published there that members may read (a staff-only value never reaches their index).
 */
export async function searchTextsOf(
  tx: Tx,
  tenantId: string,
  entity: string,
  keys: readonly number[],
): Promise<Map<number, { staff: string[]; member: string[] }>> {
  const out = new Map<number, { staff: string[]; member: string[] }>();
  if (keys.length === 0) return out;
  const fields = (await repo.fieldsOf(tx, tenantId, entity)).filter(
    (f) => f.Searchable && SEARCHED_TYPES.includes(f.CustomFieldDataTypeId),
  );
  if (fields.length === 0) return out;
  const values = await repo.valuesOf(tx, tenantId, fields, keys);
  for (const [key, byField] of values) {
    const texts = { staff: [] as string[], member: [] as string[] };
    for (const f of fields) {
      const found = searchedTexts(f, byField[String(f.CustomFieldId)]);
      texts.staff.push(...found);
      if (f.InDirectory && f.Visibility !== 'staff') texts.member.push(...found);
    }
    if (texts.staff.length > 0) out.set(key, texts);
  }
  return out;
}

/**
 * The fields records show in the member directory: those the association publishes there and members may read, in
 * form order, as their names and texts (a file, which is the library's, and a section heading are not shown).
 */
export async function publishedOf(
  tx: Tx,
  tenantId: string,
  entity: string,
  keys: readonly number[],
): Promise<Map<number, { Name: string; Value: string }[]>> {
  const out = new Map<number, { Name: string; Value: string }[]>();
  const fields = (await repo.fieldsOf(tx, tenantId, entity)).filter(
    (f) =>
      f.InDirectory &&
      f.Visibility !== 'staff' &&
      f.CustomFieldDataTypeId !== CUSTOM_FIELD_DATA_TYPES.FileUpload &&
      f.CustomFieldDataTypeId !== CUSTOM_FIELD_DATA_TYPES.SectionHeading,
  );
  if (fields.length === 0 || keys.length === 0) return out;
  const values = await repo.valuesOf(tx, tenantId, fields, keys);
  for (const [key, byField] of values) {
    const shown: { Name: string; Value: string }[] = [];
    for (const f of fields) {
      const text = customValueText(f, byField[String(f.CustomFieldId)]);
      if (text !== '') shown.push({ Name: f.Name, Value: text });
    }
    out.set(key, shown);
  }
  return out;
}
