/**
 * Search documents follow the definitions (decision 0111): the documents of an entity's records hold the texts of
 * its searchable fields (staff's, and members' when published to them). When a field's definition changes in a way
 * those texts read (made searchable or not, published in the directory or not, its visibility, its type, a choice
 * renamed or deleted, the field deleted), the documents of the records with a value are rewritten: at once when
 * they are few, else by a background job in batches, so the change is saved without waiting for a large
 * association's records.
 */
import { type Database, type Tx, withTenantTx } from '@guildhall/db';
import { CUSTOM_FIELD_DATA_TYPES, type CustomField, DROPDOWN_DATA_TYPES } from '@guildhall/shared';
import { type JobHandler, PermanentJobError } from '../../platform/jobs.ts';
import type { Services } from '../../platform/services.ts';
import * as repo from './custom-fields.repo.ts';

export const SEARCH_REFRESH_JOB = 'custom-fields-search-refresh';
/** Records rewritten at once, in the change's transaction, when no more have a value (else a job). */
const INLINE_LIMIT = 200;
const BATCH = 1000;

/** The types whose values join the search documents: texts, and the names of chosen choices. */
export const SEARCHED_TYPES: readonly number[] = [
  CUSTOM_FIELD_DATA_TYPES.Text,
  CUSTOM_FIELD_DATA_TYPES.MultiLineText,
  CUSTOM_FIELD_DATA_TYPES.Email,
  CUSTOM_FIELD_DATA_TYPES.Phone,
  CUSTOM_FIELD_DATA_TYPES.Website,
  ...DROPDOWN_DATA_TYPES,
];

/** The texts a searchable value gives its record's documents (a choice by its live name, a fill-in's own text). */
export function searchedTexts(field: CustomField, value: unknown): string[] {
  if (typeof value === 'string') return value.trim() === '' ? [] : [value];
  if (!DROPDOWN_DATA_TYPES.includes(field.CustomFieldDataTypeId) || value === null || value === undefined)
    return [];
  const other = (value as { Other?: unknown }).Other;
  if (typeof other === 'string') return other.trim() === '' ? [] : [other];
  const ids = Array.isArray(value) ? value : [value];
  return field.SelectListItems.filter((c) => ids.includes(c.Id) && !c.isDeleted).map((c) => c.Name);
}

/** What of a field the documents read; null when they read nothing of it. */
function indexedShape(field: CustomField | null): string | null {
  if (!field?.Searchable || !SEARCHED_TYPES.includes(field.CustomFieldDataTypeId)) return null;
  return JSON.stringify({
    type: field.CustomFieldDataTypeId,
    member: field.InDirectory && field.Visibility !== 'staff',
    choices: DROPDOWN_DATA_TYPES.includes(field.CustomFieldDataTypeId)
      ? field.SelectListItems.filter((c) => !c.isDeleted).map((c) => [c.Id, c.Name])
      : null,
  });
}

export type SearchRefreshServices = Pick<Services, 'search' | 'jobs' | 'config'>;

/**
 * After a field's definition changed (`after` null: deleted), rewrites the documents of its records when what they
 * read of it changed: at once for a few records, else queued. Answers how: 'none', 'done' or 'queued'.
 */
export async function followDefinition(
  tx: Tx,
  tenantId: string,
  services: SearchRefreshServices,
  before: CustomField,
  after: CustomField | null,
  userId: number | null,
  /** The records to rewrite when the values table no longer names them all (a type change lost some values). */
  recordIds?: readonly number[],
): Promise<'none' | 'done' | 'queued'> {
  const entity = before.Entity;
  if (!services.search.entityTypes.includes(entity)) return 'none';
  if (indexedShape(before) === indexedShape(after)) return 'none';
  const limit = services.config.searchRefreshInlineLimit ?? INLINE_LIMIT;
  const ids = recordIds ?? (await repo.recordIdsWithValue(tx, tenantId, before.CustomFieldId, 0, limit + 1));
  if (ids.length === 0) return 'none';
  if (ids.length <= limit) {
    await services.search.writeMany(tx, tenantId, entity, ids);
    return 'done';
  }
  await services.jobs.enqueue(tx, {
    tenantId,
    kind: SEARCH_REFRESH_JOB,
    payload: { entity, fieldId: before.CustomFieldId, ...(recordIds ? { recordIds: [...recordIds] } : {}) },
    userId,
  });
  return 'queued';
}

/** The job: the documents of every record with a value of the field, a batch per transaction, in key order. */
export function searchRefreshHandler(services: Services): JobHandler {
  return async (database: Database, job) => {
    const entity = String(job.payload.entity ?? '');
    const fieldId = Number(job.payload.fieldId);
    if (!services.search.entityTypes.includes(entity) || !Number.isSafeInteger(fieldId))
      throw new PermanentJobError(`Nothing to rewrite for ${entity} field ${String(job.payload.fieldId)}.`);
    const listed = job.payload.recordIds;
    if (Array.isArray(listed)) {
      const ids = listed.map(Number).filter(Number.isSafeInteger);
      for (let i = 0; i < ids.length; i += BATCH)
        await withTenantTx(database.db, { tenantId: job.tenantId }, (tx) =>
          services.search.writeMany(tx, job.tenantId, entity, ids.slice(i, i + BATCH)),
        );
      return;
    }
    let after = 0;
    for (;;) {
      const ids = await withTenantTx(database.db, { tenantId: job.tenantId }, async (tx) => {
        const batch = await repo.recordIdsWithValue(tx, job.tenantId, fieldId, after, BATCH);
        if (batch.length > 0) await services.search.writeMany(tx, job.tenantId, entity, batch);
        return batch;
      });
      if (ids.length < BATCH) return;
      after = ids[ids.length - 1] ?? after;
    }
  };
}
