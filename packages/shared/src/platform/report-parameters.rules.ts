/**
 * Parameters of a saved report (issue 20): values asked when the report runs, each filtering one field of its list.
 * A date or date-and-time field asks a date range (the 0-37 options of spec 000 section 9, Custom with its own
 * days, either end open), a choice, lookup, country, time zone or yes/no field asks one value (equals), a number or
 * money field one number (equals), a text field a text (contains). A schedule and a dashboard pin keep the values
 * they run with; a date range is kept as its option, so "Last Month" is always last month on the day it runs.
 */
import { z } from 'zod';
import { calendarDay, isCalendarDay } from './fields/date-input.rules.ts';
import {
  calendarRangeToInstants,
  DATE_RANGE_CUSTOM,
  DATE_RANGE_OPTIONS,
  dateRangeValueToRange,
} from './fields/date-range.rules.ts';
import type { FilterCriterion } from './list-protocol.schema.ts';
import type { FieldDeclaration, FieldType } from './resource.ts';

export const REPORT_MAX_PARAMETERS = 10;

export const reportParameterSchema = z.object({
  /** Its key in the run's body (and in a schedule's or pin's kept values). */
  name: z
    .string()
    .regex(/^[A-Za-z][A-Za-z0-9_]{0,49}$/, 'A parameter name is a letter then letters, digits or _.'),
  label: z.string().trim().min(1).max(100),
  /** The list's field it filters (a filterable one). */
  field: z.string().min(1).max(100),
  required: z.boolean().default(false),
});
export type ReportParameterDefinition = z.infer<typeof reportParameterSchema>;

/** The values of a run (and kept by a schedule or a pin): by parameter name. */
export const reportParameterValuesSchema = z
  .record(z.string().max(50), z.unknown())
  .refine((v) => Object.keys(v).length <= REPORT_MAX_PARAMETERS * 2, 'Too many parameter values.');
export type ReportParameterValues = z.infer<typeof reportParameterValuesSchema>;

export type ReportParameterKind = 'dateRange' | 'choice' | 'number' | 'text';
const KINDS: Partial<Record<FieldType, ReportParameterKind>> = {
  date: 'dateRange',
  datetime: 'dateRange',
  select: 'choice',
  selectValid: 'choice',
  lookup: 'choice',
  country: 'choice',
  timezone: 'choice',
  boolean: 'choice',
  number: 'number',
  currency: 'number',
  text: 'text',
  email: 'text',
};

/** What a parameter over a field asks, or null when the field cannot be a parameter. */
export function parameterKind(field: FieldDeclaration | undefined): ReportParameterKind | null {
  return field ? (KINDS[field.type] ?? null) : null;
}

/** Fields a parameter may filter: filterable fields of a kind above. */
export function parameterFields(r: {
  fields: Record<string, FieldDeclaration>;
  filterable: readonly string[];
}): string[] {
  return r.filterable.filter((name) => parameterKind(r.fields[name]) !== null);
}

/** What is wrong with a report's parameters, one message each. */
export function reportParameterProblems(
  r: { fields: Record<string, FieldDeclaration>; filterable: readonly string[] },
  parameters: readonly ReportParameterDefinition[],
): string[] {
  const problems: string[] = [];
  const allowed = parameterFields(r);
  const names = new Set<string>();
  for (const p of parameters) {
    if (!allowed.includes(p.field)) problems.push(`A parameter cannot filter ${p.field}.`);
    if (names.has(p.name.toLowerCase())) problems.push(`Two parameters are named ${p.name}.`);
    names.add(p.name.toLowerCase());
  }
  return problems;
}

/** A date range parameter's value: the option id (0-37), and for Custom its own days (either may be open). */
export interface ReportDateRangeValue {
  Range: number;
  StartDate?: string | null;
  EndDate?: string | null;
}

function dateRangeOf(value: unknown): ReportDateRangeValue | null | 'invalid' {
  if (value === undefined || value === null || value === '') return null;
  if (typeof value === 'number' || typeof value === 'string') {
    const id = Number(value);
    return Number.isInteger(id) ? { Range: id } : 'invalid';
  }
  if (typeof value !== 'object' || Array.isArray(value)) return 'invalid';
  const v = value as Record<string, unknown>;
  const id = Number(v.Range);
  if (v.Range === undefined || v.Range === null || !Number.isInteger(id)) return 'invalid';
  const day = (d: unknown) => (d === undefined || d === null || d === '' ? null : String(d));
  return { Range: id, StartDate: day(v.StartDate), EndDate: day(v.EndDate) };
}

const isEmpty = (v: unknown) =>
  v === undefined ||
  v === null ||
  v === '' ||
  (typeof v === 'object' && !Array.isArray(v) && dateRangeOf(v) === null);

/**
 * The criteria a run's values add to the report's own (each parameter given, on its field), or the messages per
 * parameter name (a 400's errors map). A required parameter must be given; an optional one left empty filters
 * nothing. Days are the association's (`timeZone`); `now` decides what "Last Month" is.
 */
export function bindReportParameters(
  parameters: readonly ReportParameterDefinition[],
  fields: Record<string, FieldDeclaration>,
  values: Readonly<Record<string, unknown>>,
  now: Date,
  timeZone: string,
): { criteria: FilterCriterion[]; errors: Record<string, string[]> } {
  const criteria: FilterCriterion[] = [];
  const errors: Record<string, string[]> = {};
  for (const p of parameters) {
    const field = fields[p.field];
    const kind = parameterKind(field);
    const value = values[p.name];
    if (!field || !kind) continue;
    if (isEmpty(value)) {
      if (p.required) errors[p.name] = [`${p.label} is required.`];
      continue;
    }
    if (kind === 'dateRange') {
      const given = dateRangeOf(value);
      if (given === 'invalid' || (given && (given.Range < 0 || given.Range > 37))) {
        errors[p.name] = [`${p.label} is not a date range.`];
        continue;
      }
      if (!given) continue;
      if (
        given.Range === DATE_RANGE_CUSTOM &&
        ((given.StartDate && !isCalendarDay(given.StartDate)) ||
          (given.EndDate && !isCalendarDay(given.EndDate)))
      ) {
        errors[p.name] = [`${p.label}: enter dates as yyyy-mm-dd.`];
        continue;
      }
      const range = dateRangeValueToRange(
        { Range: given.Range, StartDate: given.StartDate ?? null, EndDate: given.EndDate ?? null },
        now,
        { timeZone },
      );
      if (!range) {
        if (p.required) errors[p.name] = [`${p.label} is required.`];
        continue;
      }
      if (range.StartDate && range.EndDate && range.StartDate > range.EndDate) {
        errors[p.name] = [`${p.label}: the start is after the end.`];
        continue;
      }
      if (field.type === 'date') {
        if (range.StartDate) criteria.push({ PropertyName: p.field, Operator: 'ge', Value: range.StartDate });
        if (range.EndDate) criteria.push({ PropertyName: p.field, Operator: 'le', Value: range.EndDate });
      } else {
        // A date and time: from midnight of the first day to midnight after the last, in the association's zone.
        if (range.StartDate) {
          const day = calendarDay(range.StartDate, timeZone);
          const { start } = calendarRangeToInstants({ StartDate: day, EndDate: day }, timeZone);
          criteria.push({ PropertyName: p.field, Operator: 'ge', Value: start });
        }
        if (range.EndDate) {
          const day = calendarDay(range.EndDate, timeZone);
          const { endExclusive } = calendarRangeToInstants({ StartDate: day, EndDate: day }, timeZone);
          criteria.push({ PropertyName: p.field, Operator: 'lt', Value: endExclusive });
        }
      }
      continue;
    }
    if (typeof value === 'object') {
      errors[p.name] = [`${p.label} takes one value.`];
      continue;
    }
    if (kind === 'number') {
      const n = Number(value);
      if (!Number.isFinite(n)) {
        errors[p.name] = [`${p.label} must be a number.`];
        continue;
      }
      criteria.push({ PropertyName: p.field, Operator: 'eq', Value: n });
      continue;
    }
    if (kind === 'text') {
      criteria.push({ PropertyName: p.field, Operator: 'contains', Value: String(value).slice(0, 500) });
      continue;
    }
    // A choice: the option's id as declared (a number or a text), yes/no as a boolean.
    let v: unknown = value;
    if (field.type === 'boolean') v = value === true || value === 'true' || value === '1' || value === 1;
    else if (field.options) {
      const option = field.options.find((o) => String(o.Id) === String(value));
      if (!option) {
        errors[p.name] = [`${p.label} is not one of its choices.`];
        continue;
      }
      v = option.Id;
    } else if (field.type === 'lookup' && /^\d{1,15}$/.test(String(value))) v = Number(value);
    else v = String(value).slice(0, 200);
    criteria.push({ PropertyName: p.field, Operator: 'eq', Value: v });
  }
  return { criteria, errors };
}

/**
 * The values a run, a schedule or a pin keeps, as a line to read ("Joined: Last Month · Type: Regular"); empty
 * when none is given. A lookup shows its record's name when `names` has it (by parameter name: the screen reads it
 * through the lookup), else its record's number.
 */
export function describeParameterValues(
  parameters: readonly ReportParameterDefinition[],
  fields: Record<string, FieldDeclaration>,
  values: Readonly<Record<string, unknown>>,
  names: Readonly<Record<string, string | null | undefined>> = {},
): string {
  const parts: string[] = [];
  for (const p of parameters) {
    const value = values[p.name];
    if (isEmpty(value)) continue;
    const field = fields[p.field];
    let text: string;
    if (parameterKind(field) === 'dateRange') {
      const range = dateRangeOf(value);
      if (!range || range === 'invalid') continue;
      if (range.Range === DATE_RANGE_CUSTOM) text = `${range.StartDate ?? '…'} to ${range.EndDate ?? '…'}`;
      else text = DATE_RANGE_OPTIONS.find((o) => o.Id === range.Range)?.Name ?? String(range.Range);
    } else if (field?.type === 'boolean') text = value === true || value === 'true' ? 'Yes' : 'No';
    else if (field?.type === 'lookup' && names[p.name]) text = names[p.name] as string;
    else text = field?.options?.find((o) => String(o.Id) === String(value))?.Name ?? String(value);
    parts.push(`${p.label}: ${text}`);
  }
  return parts.join(' · ');
}
