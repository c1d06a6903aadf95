/**
 * The audit log as people read it: which record (its name, never an internal id), and what changed, field by field
 * with the field's label and its values as the screens show them.
 */
import { formatPhone } from './fields/phone.rules.ts';
import { recordNameOf } from './record-name.ts';
import type { FieldDeclaration, Model, ResourceDeclaration } from './resource.ts';

export interface AuditChange {
  field: string;
  label: string;
  before: string;
  after: string;
}

const NONE = '—';
const isModel = (v: unknown): v is Model => typeof v === 'object' && v !== null && !Array.isArray(v);

/** A stored value as the screens show it: option names, Yes/No, formatted phones, lists joined. */
export function auditValueText(field: FieldDeclaration | undefined, value: unknown): string {
  if (value === null || value === undefined || value === '') return NONE;
  const option = (v: unknown) => field?.options?.find((o) => o.Id === v)?.Name ?? String(v);
  if (Array.isArray(value)) return value.length === 0 ? NONE : value.map(option).join(', ');
  if (typeof value === 'boolean') return value ? 'Yes' : 'No';
  if (field?.type === 'phone') return formatPhone(String(value));
  if (field?.type === 'flags' && typeof value === 'number')
    return (
      (field.options ?? [])
        .filter((o) => (value & Number(o.Id)) === Number(o.Id))
        .map((o) => o.Name)
        .join(', ') || NONE
    );
  if (field?.options) return option(value);
  if (typeof value === 'object') return JSON.stringify(value);
  return String(value);
}

/** The record a merge entry kept (its `kept` side), else the model itself. */
function recordSide(value: unknown): Model | null {
  if (!isModel(value)) return null;
  return isModel(value.kept) ? value.kept : value;
}

/**
 * The fields whose value differs between before and after, in the resource's field order, labelled. A create lists
 * the fields it set, a delete those it cleared; a merge compares the kept record before and after.
 */
export function auditChanges(
  resource: Pick<ResourceDeclaration, 'fields' | 'key'> | null,
  before: unknown,
  after: unknown,
): AuditChange[] {
  const b = recordSide(before) ?? {};
  const a = recordSide(after) ?? {};
  const names = resource
    ? Object.keys(resource.fields)
    : [...new Set([...Object.keys(b), ...Object.keys(a)])].sort();
  const changes: AuditChange[] = [];
  for (const name of names) {
    if (resource && name === resource.key) continue;
    const field = resource?.fields[name];
    const was = auditValueText(field, b[name]);
    const now = auditValueText(field, a[name]);
    if (was === now) continue;
    changes.push({ field: name, label: field?.label ?? name, before: was, after: now });
  }
  return changes;
}

/** Labels of audited entities that no resource declares. */
const AUDIT_ENTITY_LABELS: Record<string, string> = {
  savedReports: 'Saved report',
  savedQueries: 'Saved query',
  systemTemplates: 'System message',
};

/** `savedReports` → "Saved report": a camel-case, plural entity name as a noun. */
function entityLabel(entity: string): string {
  const words = entity
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replace(/[_-]+/g, ' ')
    .trim()
    .toLowerCase()
    .replace(/s$/, '');
  return words ? words[0]?.toUpperCase() + words.slice(1) : entity;
}

/**
 * "Contact Adams, William (A0000138)": the record of an entry, by its resource's title and the record's name (a
 * moment that names it read in `timeZone`: "Occurrence 02/10/2027 8:30 AM CST").
 */
export function auditRecordText(
  resource: Pick<ResourceDeclaration, 'recordName' | 'columns' | 'title' | 'fields'> | null,
  entity: string,
  before: unknown,
  after: unknown,
  timeZone?: string,
): string {
  const model = recordSide(after) ?? recordSide(before);
  if (!resource) {
    // Entities written outside the generic layer (saved reports, signatures): a label, and the record's own title.
    const noun = AUDIT_ENTITY_LABELS[entity] ?? entityLabel(entity);
    const name = model
      ? [model.Title, model.Name, model.title, model.name].find((v) => typeof v === 'string')
      : null;
    return name ? `${noun} ${name}` : noun;
  }
  const noun = resource.title.replace(/s$/, '');
  return model ? `${noun} ${recordNameOf(resource, model, timeZone)}` : noun;
}

/** For a merge entry: the name of the contact absorbed (its `merged` side), else null. */
export function auditMergedName(
  resource: Pick<ResourceDeclaration, 'recordName' | 'columns' | 'title'> | null,
  before: unknown,
): string | null {
  if (!resource || !isModel(before) || !isModel(before.merged)) return null;
  return recordNameOf(resource, before.merged);
}
