/**
 * The SQL of custom fields: definitions, and values in the typed values table (decision 0111). Every statement
 * names the tenant explicitly besides row-level security.
 */
import { customFields, customFieldValues, files, type Tx } from '@guildhall/db';
import {
  type CustomField,
  type CustomFieldVisibility,
  otherChoice,
  type SelectListItem,
  CUSTOM_FIELD_DATA_TYPES as T,
} from '@guildhall/shared';
import { and, asc, count, eq, inArray, isNull, or, sql } from 'drizzle-orm';

type FieldRow = typeof customFields.$inferSelect;
type ValueRow = typeof customFieldValues.$inferSelect;
export type ValueColumns = Omit<ValueRow, 'tenantId' | 'fieldId' | 'recordId' | 'updatedAt'>;

export function fieldOfRow(row: FieldRow, valueCount?: number): CustomField {
  return {
    CustomFieldId: row.customFieldId,
    Entity: row.entity,
    Name: row.name,
    HelpText: row.helpText,
    CustomFieldDataTypeId: row.dataTypeId,
    Required: row.required,
    DefaultValue: row.defaultValue ?? null,
    PageNumber: row.pageNumber,
    SortOrder: row.sortOrder,
    Visibility: row.visibility as CustomFieldVisibility,
    InDirectory: row.inDirectory,
    Searchable: row.searchable,
    IsPublic: row.isPublic,
    IsArchived: row.isArchived,
    SelectListItems: (row.choices as SelectListItem[]) ?? [],
    ScopeId: row.scopeId ?? null,
    ...(valueCount !== undefined ? { ValueCount: valueCount } : {}),
    Version: row.version,
  };
}

export function rowOfField(f: Omit<CustomField, 'CustomFieldId' | 'Version' | 'ValueCount'>) {
  return {
    entity: f.Entity,
    name: f.Name,
    helpText: f.HelpText ?? null,
    dataTypeId: f.CustomFieldDataTypeId,
    required: f.Required,
    defaultValue: f.DefaultValue ?? null,
    pageNumber: f.PageNumber,
    sortOrder: f.SortOrder,
    visibility: f.Visibility,
    inDirectory: f.InDirectory,
    searchable: f.Searchable,
    isPublic: f.IsPublic,
    isArchived: f.IsArchived,
    choices: f.SelectListItems,
    scopeId: f.ScopeId ?? null,
  };
}

/**
 * The live fields of an entity in form order (page, order, id). `scope`: all of them (undefined), those of no scope
 * (null), those of one scope record only (`{ only }`), or those a record of that scope record is asked (`{ record }`:
 * no scope, or its own).
 */
export async function fieldsOf(
  tx: Tx,
  tenantId: string,
  entity: string,
  scope?: null | { only: number } | { record: number | null },
): Promise<CustomField[]> {
  const scoped =
    scope === undefined
      ? undefined
      : scope === null
        ? isNull(customFields.scopeId)
        : 'only' in scope
          ? eq(customFields.scopeId, scope.only)
          : scope.record === null
            ? isNull(customFields.scopeId)
            : or(isNull(customFields.scopeId), eq(customFields.scopeId, scope.record));
  const rows = await tx
    .select()
    .from(customFields)
    .where(
      and(
        eq(customFields.tenantId, tenantId),
        eq(customFields.entity, entity),
        eq(customFields.isDeleted, false),
        scoped,
      ),
    )
    .orderBy(asc(customFields.pageNumber), asc(customFields.sortOrder), asc(customFields.customFieldId));
  return rows.map((r) => fieldOfRow(r));
}

export async function valueCounts(tx: Tx, tenantId: string, ids: number[]): Promise<Map<number, number>> {
  if (ids.length === 0) return new Map();
  const rows = await tx
    .select({ fieldId: customFieldValues.fieldId, n: count() })
    .from(customFieldValues)
    .where(and(eq(customFieldValues.tenantId, tenantId), inArray(customFieldValues.fieldId, ids)))
    .groupBy(customFieldValues.fieldId);
  return new Map(rows.map((r) => [r.fieldId, Number(r.n)]));
}

export async function findField(tx: Tx, tenantId: string, id: number): Promise<CustomField | null> {
  const [row] = await tx
    .select()
    .from(customFields)
    .where(
      and(
        eq(customFields.tenantId, tenantId),
        eq(customFields.customFieldId, id),
        eq(customFields.isDeleted, false),
      ),
    )
    .limit(1);
  return row ? fieldOfRow(row) : null;
}

export async function insertField(
  tx: Tx,
  tenantId: string,
  f: Omit<CustomField, 'CustomFieldId' | 'Version' | 'ValueCount'>,
): Promise<CustomField> {
  const [row] = await tx
    .insert(customFields)
    .values({ tenantId, ...rowOfField(f) })
    .returning();
  if (!row) throw new Error('custom field not inserted');
  return fieldOfRow(row);
}

/** Writes a field over the version it was read at; null when another save came first. */
export async function updateField(
  tx: Tx,
  tenantId: string,
  id: number,
  f: Omit<CustomField, 'CustomFieldId' | 'Version' | 'ValueCount'>,
  version: number | undefined,
): Promise<CustomField | null> {
  const where = [eq(customFields.tenantId, tenantId), eq(customFields.customFieldId, id)];
  if (version !== undefined) where.push(eq(customFields.version, version));
  const [row] = await tx
    .update(customFields)
    .set({ ...rowOfField(f), updatedAt: new Date() })
    .where(and(...where))
    .returning();
  return row ? fieldOfRow(row) : null;
}

export async function deleteField(tx: Tx, tenantId: string, id: number): Promise<void> {
  await tx
    .update(customFields)
    .set({ isDeleted: true, updatedAt: new Date() })
    .where(and(eq(customFields.tenantId, tenantId), eq(customFields.customFieldId, id)));
}

const EMPTY: ValueColumns = {
  textValue: null,
  numberValue: null,
  dateValue: null,
  datetimeValue: null,
  boolValue: null,
  choiceId: null,
  choiceIds: null,
  fileValue: null,
};

/** A normalised value in the typed column of its field's type. */
export function columnsOfValue(field: CustomField, value: unknown): ValueColumns {
  const type = field.CustomFieldDataTypeId;
  switch (type) {
    case T.Number:
    case T.Currency:
      return { ...EMPTY, numberValue: String(value) };
    case T.Date:
      return { ...EMPTY, dateValue: String(value) };
    case T.DateTime:
      return { ...EMPTY, datetimeValue: new Date(String(value)) };
    case T.Checkbox:
      return { ...EMPTY, boolValue: value === true };
    case T.Dropdown:
    case T.YesNo:
      return { ...EMPTY, choiceId: Number(value) };
    case T.DropdownWithFillIn: {
      const other = (value as { Other?: unknown } | null)?.Other;
      if (typeof other === 'string')
        return { ...EMPTY, choiceId: otherChoice(field)?.Id ?? null, textValue: other };
      return { ...EMPTY, choiceId: Number(value) };
    }
    case T.MultiChoice:
      return { ...EMPTY, choiceIds: (value as number[]).map(Number) };
    case T.FileUpload:
      return { ...EMPTY, fileValue: value };
    default:
      return { ...EMPTY, textValue: String(value) };
  }
}

/** A stored row as the value the API carries. */
export function valueOfColumns(field: CustomField, row: ValueColumns): unknown {
  const type = field.CustomFieldDataTypeId;
  switch (type) {
    case T.Number:
    case T.Currency:
      return row.numberValue === null ? null : Number(row.numberValue);
    case T.Date:
      return row.dateValue;
    case T.DateTime:
      return row.datetimeValue ? new Date(row.datetimeValue).toISOString() : null;
    case T.Checkbox:
      return row.boolValue;
    case T.Dropdown:
    case T.YesNo:
      return row.choiceId === null ? null : Number(row.choiceId);
    case T.DropdownWithFillIn:
      if (row.textValue !== null && row.textValue !== undefined) return { Other: row.textValue };
      return row.choiceId === null ? null : Number(row.choiceId);
    case T.MultiChoice:
      return row.choiceIds ? row.choiceIds.map(Number) : null;
    case T.FileUpload:
      return row.fileValue ?? null;
    default:
      return row.textValue;
  }
}

/** The values of records (of one entity's fields), keyed by record then field. */
export async function valuesOf(
  tx: Tx,
  tenantId: string,
  fields: readonly CustomField[],
  recordIds: readonly number[],
): Promise<Map<number, Record<string, unknown>>> {
  const out = new Map<number, Record<string, unknown>>(recordIds.map((id) => [id, {}]));
  if (fields.length === 0 || recordIds.length === 0) return out;
  const byId = new Map(fields.map((f) => [f.CustomFieldId, f]));
  const rows = await tx
    .select()
    .from(customFieldValues)
    .where(
      and(
        eq(customFieldValues.tenantId, tenantId),
        inArray(customFieldValues.recordId, [...recordIds]),
        inArray(customFieldValues.fieldId, [...byId.keys()]),
      ),
    );
  for (const row of rows) {
    const field = byId.get(row.fieldId);
    const values = out.get(row.recordId);
    if (field && values) values[String(row.fieldId)] = valueOfColumns(field, row);
  }
  return out;
}

/** Sets (or, with null, removes) one record's value of a field. */
export async function writeValue(
  tx: Tx,
  tenantId: string,
  field: CustomField,
  recordId: number,
  value: unknown,
): Promise<void> {
  if (value === null || value === undefined) {
    await tx
      .delete(customFieldValues)
      .where(
        and(
          eq(customFieldValues.tenantId, tenantId),
          eq(customFieldValues.fieldId, field.CustomFieldId),
          eq(customFieldValues.recordId, recordId),
        ),
      );
    return;
  }
  const columns = columnsOfValue(field, value);
  await tx
    .insert(customFieldValues)
    .values({ tenantId, fieldId: field.CustomFieldId, recordId, ...columns })
    .onConflictDoUpdate({
      target: [customFieldValues.tenantId, customFieldValues.fieldId, customFieldValues.recordId],
      set: { ...columns, updatedAt: new Date() },
    });
}

/** Every stored value of a field (for a type change), by record. */
export async function allValuesOf(
  tx: Tx,
  tenantId: string,
  field: CustomField,
): Promise<{ recordId: number; value: unknown }[]> {
  const rows = await tx
    .select()
    .from(customFieldValues)
    .where(and(eq(customFieldValues.tenantId, tenantId), eq(customFieldValues.fieldId, field.CustomFieldId)))
    .orderBy(asc(customFieldValues.recordId));
  return rows.map((r) => ({ recordId: r.recordId, value: valueOfColumns(field, r) }));
}

/** The ids of an entity's fields, deleted ones included (their values belong to the record all the same). */
function fieldIdsOf(tenantId: string, entity: string) {
  return sql`(select custom_field_id from custom_fields where tenant_id = ${tenantId} and entity = ${entity})`;
}

/** Removes every value of a record that was deleted (a deleted record's values go with it, decision 0111). */
export async function deleteRecordValues(tx: Tx, tenantId: string, entity: string, recordId: number) {
  await tx.execute(sql`delete from custom_field_values
    where tenant_id = ${tenantId} and record_id = ${recordId} and field_id in ${fieldIdsOf(tenantId, entity)}`);
}

/**
 * A duplicate merged into the record kept: the kept record keeps each value it has and takes the duplicate's where
 * it has none; the duplicate's values are then dropped (it is deleted).
 */
export async function mergeRecordValues(
  tx: Tx,
  tenantId: string,
  entity: string,
  keepId: number,
  goneId: number,
): Promise<void> {
  await tx.execute(sql`insert into custom_field_values
      (tenant_id, field_id, record_id, text_value, number_value, date_value, datetime_value, bool_value, choice_id,
       choice_ids, file_value, updated_at)
    select tenant_id, field_id, ${keepId}, text_value, number_value, date_value, datetime_value, bool_value,
       choice_id, choice_ids, file_value, now()
      from custom_field_values
     where tenant_id = ${tenantId} and record_id = ${goneId} and field_id in ${fieldIdsOf(tenantId, entity)}
    on conflict (tenant_id, field_id, record_id) do nothing`);
  await deleteRecordValues(tx, tenantId, entity, goneId);
}

/** Whether a library file of the association exists and is not deleted (a file field's value names one). */
export async function fileExists(tx: Tx, tenantId: string, fileId: number): Promise<boolean> {
  const [row] = await tx
    .select({ id: files.fileId })
    .from(files)
    .where(and(eq(files.tenantId, tenantId), eq(files.fileId, fileId), eq(files.isDeleted, false)))
    .limit(1);
  return row !== undefined;
}

/**
 * Values of many records in one statement (an import's batch): each row's typed columns travel in one JSON
 * parameter read by `jsonb_to_recordset`; a value a record already has is replaced.
 */
export async function writeValues(
  tx: Tx,
  tenantId: string,
  rows: readonly { field: CustomField; recordId: number; value: unknown }[],
): Promise<void> {
  const BATCH = 1000;
  for (let i = 0; i < rows.length; i += BATCH) {
    const json = JSON.stringify(
      rows.slice(i, i + BATCH).map(({ field, recordId, value }) => {
        const c = columnsOfValue(field, value);
        return {
          field_id: field.CustomFieldId,
          record_id: recordId,
          text_value: c.textValue,
          number_value: c.numberValue,
          date_value: c.dateValue,
          datetime_value: c.datetimeValue ? new Date(c.datetimeValue).toISOString() : null,
          bool_value: c.boolValue,
          choice_id: c.choiceId,
          choice_ids: c.choiceIds,
          file_value: c.fileValue,
        };
      }),
    );
    await tx.execute(sql`insert into custom_field_values
        (tenant_id, field_id, record_id, text_value, number_value, date_value, datetime_value, bool_value, choice_id,
         choice_ids, file_value, updated_at)
      select ${tenantId}::uuid, r.field_id, r.record_id, r.text_value, r.number_value, r.date_value,
         r.datetime_value, r.bool_value, r.choice_id, r.choice_ids, r.file_value, now()
        from jsonb_to_recordset(${json}::jsonb) as r(field_id bigint, record_id bigint, text_value text,
          number_value numeric, date_value date, datetime_value timestamptz, bool_value boolean, choice_id bigint,
          choice_ids bigint[], file_value jsonb)
      on conflict (tenant_id, field_id, record_id) do update set text_value = excluded.text_value,
        number_value = excluded.number_value, date_value = excluded.date_value,
        datetime_value = excluded.datetime_value, bool_value = excluded.bool_value, choice_id = excluded.choice_id,
        choice_ids = excluded.choice_ids, file_value = excluded.file_value, updated_at = now()`);
  }
}

/** The records with a value of a field, in key order after `after`, at most `limit` (its primary key's order). */
export async function recordIdsWithValue(
  tx: Tx,
  tenantId: string,
  fieldId: number,
  after: number,
  limit: number,
): Promise<number[]> {
  const rows = await tx
    .select({ id: customFieldValues.recordId })
    .from(customFieldValues)
    .where(
      and(
        eq(customFieldValues.tenantId, tenantId),
        eq(customFieldValues.fieldId, fieldId),
        sql`${customFieldValues.recordId} > ${after}`,
      ),
    )
    .orderBy(asc(customFieldValues.recordId))
    .limit(limit);
  return rows.map((r) => Number(r.id));
}
