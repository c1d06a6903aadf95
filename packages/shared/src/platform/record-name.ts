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
import type { Model, ResourceDeclaration } from './resource.ts';

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
    const type = f ? r.fields?.[f]?.type : undefined;
    if (type === 'datetime' && isInstantText(v)) return formatDateValue(v, DATE_TYPES.DateAndTime, timeZone);
    if (type === 'date' && isCalendarDay(v.slice(0, 10))) return formatDateInput(v.slice(0, 10));
    // A choice is named by its option ("Employee of"), not its stored id ("employeeOf").
    const option = f ? r.fields?.[f]?.options?.find((o) => o.Id === v) : undefined;
    return option ? option.Name : v.trim();
  }
  return `this ${r.title.replace(/s$/, '').toLowerCase()}`;
}
