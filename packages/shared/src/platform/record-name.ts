/**
 * A record's name (dialogs, messages, the audit log). A module of its own: naming a record by a moment formats dates,
 * which the screens that only read resource declarations need not load.
 */
import {
  DATE_TYPES,
  DEFAULT_TIMEZONE,
  formatDateInput,
  formatDateValue,
  isCalendarDay,
  isInstantText,
} from './fields/date-input.rules.ts';
import type { FieldType, Model, ResourceDeclaration } from './resource.ts';

/**
 * A moment that names a record, as people read it: a date and time in `timeZone` ("02/10/2027 8:30 AM CST"), a day
 * ("01/11/2027"); null when the field is not a moment or the text is not one.
 */
export function momentName(type: FieldType | undefined, value: string, timeZone: string): string | null {
  if (type === 'datetime' && isInstantText(value))
    return formatDateValue(value, DATE_TYPES.DateAndTime, timeZone);
  if (type === 'date' && isCalendarDay(value.slice(0, 10))) return formatDateInput(value.slice(0, 10));
  return null;
}

/**
 * A record's name as people know it, never its internal id: the resource's own rule, else its first text field
 * among DisplayName, Name and Title, else the first list column's value (a moment read in `timeZone`: an
 * occurrence by its start), else "this <noun>".
 */
export function recordNameOf(
  r: Pick<ResourceDeclaration, 'recordName' | 'columns' | 'title'> &
    Partial<Pick<ResourceDeclaration, 'fields'>>,
  model: Model,
  timeZone: string = DEFAULT_TIMEZONE,
): string {
  const own = r.recordName?.(model);
  if (own && own.trim() !== '') return own;
  for (const f of ['DisplayName', 'Name', 'Title', r.columns[0]?.field]) {
    const v = f ? model[f] : undefined;
    if (typeof v !== 'string' || v.trim() === '') continue;
    const moment = momentName(f ? r.fields?.[f]?.type : undefined, v, timeZone);
    if (moment !== null) return moment;
    // A choice is named by its option ("Employee of"), not its stored id ("employeeOf").
    const option = f ? r.fields?.[f]?.options?.find((o) => o.Id === v) : undefined;
    return option ? option.Name : v.trim();
  }
  return `this ${r.title.replace(/s$/, '').toLowerCase()}`;
}
