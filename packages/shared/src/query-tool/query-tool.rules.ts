/**
 * The query tool's pure rules: the filter of the list of queries (spec 001 sections 5 and 9: applied from 3
 * characters), the named parameters of a query's SQL (`:name`, found outside literals, quoted identifiers and
 * comments, never the `::` of a cast) and the values of a run's form, checked against the declared types.
 */
import { isCalendarDay } from '../platform/fields/date-input.rules.ts';
import { DATE_RANGE_CUSTOM, dateRangeValueToRange } from '../platform/fields/date-range.rules.ts';
import type { QueryDeclaration, QueryParameter } from './query.ts';

/** "Query filter minimum 3 characters" (spec 001 section 9). */
export const QUERY_FILTER_MIN_LENGTH = 3;
/** Rows of one page of the HTML results panel. */
export const QUERY_PAGE_SIZE = 50;

interface Filterable {
  name: string;
  title: string;
  description: string;
  group: string;
}

/** Whether the filter text is long enough to apply ("only when more than 2 characters are typed"). */
export function queryFilterApplies(text: string): boolean {
  return text.trim().length >= QUERY_FILTER_MIN_LENGTH;
}

/** The queries the filter box keeps: all of them below 3 characters, else those whose words contain every word. */
export function filterQueries<T extends Filterable>(queries: readonly T[], text: string): T[] {
  if (!queryFilterApplies(text)) return [...queries];
  const words = text.trim().toLowerCase().split(/\s+/);
  return queries.filter((q) => {
    const hay = `${q.title} ${q.name} ${q.description} ${q.group}`.toLowerCase();
    return words.every((w) => hay.includes(w));
  });
}

/** A query's SQL cut at its placeholders: `strings` has one more entry than `names`. */
export interface SplitSql {
  strings: string[];
  names: string[];
}

const NAME_START = /[A-Za-z_]/;
const NAME_PART = /[A-Za-z0-9_]/;

/**
 * Cuts the SQL at each `:name` placeholder. Text inside '…' (and E'…' with backslash escapes), "…" identifiers,
 * $tag$…$tag$ bodies, -- and nested /* *\/ comments is left alone, and so is the `::` of a cast.
 */
export function splitPlaceholders(sql: string): SplitSql {
  const strings: string[] = [];
  const names: string[] = [];
  let start = 0;
  let i = 0;
  const n = sql.length;
  while (i < n) {
    const c = sql[i] as string;
    const next = sql[i + 1];
    if (c === "'") {
      const escapes = i > 0 && /[eE]/.test(sql[i - 1] as string) && !NAME_PART.test(sql[i - 2] ?? ' ');
      i++;
      while (i < n) {
        if (escapes && sql[i] === '\\') i += 2;
        else if (sql[i] === "'" && sql[i + 1] === "'") i += 2;
        else if (sql[i] === "'") break;
        else i++;
      }
      i++;
    } else if (c === '"') {
      i++;
      while (i < n && !(sql[i] === '"' && sql[i + 1] !== '"')) i += sql[i] === '"' ? 2 : 1;
      i++;
    } else if (c === '-' && next === '-') {
      while (i < n && sql[i] !== '\n') i++;
    } else if (c === '/' && next === '*') {
      let depth = 1;
      i += 2;
      while (i < n && depth > 0) {
        if (sql[i] === '/' && sql[i + 1] === '*') {
          depth++;
          i += 2;
        } else if (sql[i] === '*' && sql[i + 1] === '/') {
          depth--;
          i += 2;
        } else i++;
      }
    } else if (c === '$' && (next === '$' || (next !== undefined && NAME_START.test(next)))) {
      const tagEnd = sql.indexOf('$', i + 1);
      const tag = tagEnd > 0 ? sql.slice(i, tagEnd + 1) : '';
      if (tag && /^\$[A-Za-z_0-9]*\$$/.test(tag) && !NAME_PART.test(sql[i - 1] ?? ' ')) {
        const close = sql.indexOf(tag, tagEnd + 1);
        i = close < 0 ? n : close + tag.length;
      } else i++;
    } else if (c === ':' && next === ':') {
      i += 2;
    } else if (c === ':' && next !== undefined && NAME_START.test(next) && sql[i - 1] !== ':') {
      let j = i + 1;
      while (j < n && NAME_PART.test(sql[j] as string)) j++;
      strings.push(sql.slice(start, i));
      names.push(sql.slice(i + 1, j));
      start = j;
      i = j;
    } else i++;
  }
  strings.push(sql.slice(start));
  return { strings, names };
}

/** The SQL with each placeholder as `$1`, `$2`, … in order (one number per occurrence), as the parser reads it. */
export function numberedSql(split: SplitSql): string {
  let out = split.strings[0] ?? '';
  for (let k = 0; k < split.names.length; k++) out += `$${k + 1}${split.strings[k + 1] ?? ''}`;
  return out;
}

/** The placeholder names a parameter provides: its name, or `name_start` and `name_end` for a date range. */
export function placeholderNamesOf(parameter: QueryParameter): string[] {
  return parameter.type === 'dateRange'
    ? [`${parameter.name}_start`, `${parameter.name}_end`]
    : [parameter.name];
}

/** Problems of a declaration: a placeholder nothing provides, a parameter the SQL never uses, a select without options. */
export function queryDeclarationProblems(query: Pick<QueryDeclaration, 'sql' | 'parameters'>): string[] {
  const problems: string[] = [];
  const used = new Set(splitPlaceholders(query.sql).names);
  const provided = new Set<string>();
  for (const p of query.parameters) {
    if (!/^[A-Za-z_][A-Za-z0-9_]*$/.test(p.name))
      problems.push(`Parameter name ${p.name} is not a plain name.`);
    const names = placeholderNamesOf(p);
    for (const name of names) provided.add(name);
    if (!names.some((name) => used.has(name))) problems.push(`Parameter ${p.name} is not used by the SQL.`);
    if (p.type === 'select' && !p.options?.length && !p.lookup)
      problems.push(`Select parameter ${p.name} has no options and no lookup.`);
  }
  for (const name of used) if (!provided.has(name)) problems.push(`:${name} is not a declared parameter.`);
  return problems;
}

/**
 * The parameters a query written by an association provides: each placeholder is a text parameter (the SQL casts
 * it where it needs another type, `:since::date`).
 */
export function inferredParameters(sql: string): QueryParameter[] {
  const seen = new Set<string>();
  const out: QueryParameter[] = [];
  for (const name of splitPlaceholders(sql).names) {
    if (seen.has(name)) continue;
    seen.add(name);
    out.push({ name, label: labelOf(name), type: 'text' });
  }
  return out;
}

function labelOf(name: string): string {
  const words = name
    .replace(/([a-z0-9])([A-Z])/g, '$1 $2')
    .replaceAll('_', ' ')
    .trim()
    .toLowerCase();
  return words.charAt(0).toUpperCase() + words.slice(1);
}

export type QueryValue = string | number | null;

export interface BoundParameters {
  /** Value per placeholder name. */
  values: Record<string, QueryValue>;
  /** Field messages per parameter name, as a 400's errors map. */
  errors: Record<string, string[]>;
}

const NUMBER = /^-?(\d+(\.\d*)?|\.\d+)$/;
/** Longest text value a parameter takes. */
export const QUERY_TEXT_MAX = 500;

/**
 * The values of a run's form for the declared parameters. A date range arrives as the option id in `name` (0-37)
 * and, for Custom (0), `name_StartDate` and `name_EndDate`; it binds `name_start` and `name_end` (yyyy-MM-dd, both
 * ends included, either may be open). `allowedKeys` are a lookup select's keys, read by the server.
 */
export function bindQueryParameters(
  parameters: readonly QueryParameter[],
  form: Readonly<Record<string, unknown>>,
  now: Date,
  timeZone: string,
  allowedKeys: Readonly<Record<string, readonly string[]>> = {},
): BoundParameters {
  const values: Record<string, QueryValue> = {};
  const errors: Record<string, string[]> = {};
  const fail = (p: QueryParameter, message: string) => {
    errors[p.name] = [message];
  };
  const text = (key: string): string => {
    const v = form[key];
    if (Array.isArray(v)) return String(v[0] ?? '').trim();
    return v == null ? '' : String(v).trim();
  };
  for (const p of parameters) {
    const given = text(p.name) || (form[p.name] === undefined ? (p.default ?? '') : '');
    if (p.type === 'dateRange') {
      values[`${p.name}_start`] = null;
      values[`${p.name}_end`] = null;
      const id = given === '' ? null : Number(given);
      if (id === null) {
        if (p.required) fail(p, `${p.label} is required.`);
        continue;
      }
      if (!Number.isInteger(id) || id < 0 || id > 37) {
        fail(p, `${p.label} is not a date range option.`);
        continue;
      }
      const start = text(`${p.name}_StartDate`) || null;
      const end = text(`${p.name}_EndDate`) || null;
      if (id === DATE_RANGE_CUSTOM && ((start && !isCalendarDay(start)) || (end && !isCalendarDay(end)))) {
        fail(p, `${p.label}: enter dates as yyyy-mm-dd.`);
        continue;
      }
      const range = dateRangeValueToRange({ Range: id, StartDate: start, EndDate: end }, now, { timeZone });
      if (!range) {
        if (p.required) fail(p, `${p.label} is required.`);
        continue;
      }
      if (range.StartDate && range.EndDate && range.StartDate > range.EndDate) {
        fail(p, `${p.label}: the start is after the end.`);
        continue;
      }
      values[`${p.name}_start`] = range.StartDate;
      values[`${p.name}_end`] = range.EndDate;
      continue;
    }
    values[p.name] = null;
    if (given === '') {
      if (p.required) fail(p, `${p.label} is required.`);
      continue;
    }
    switch (p.type) {
      case 'number':
        if (!NUMBER.test(given) || !Number.isFinite(Number(given))) fail(p, `${p.label} must be a number.`);
        else values[p.name] = Number(given);
        break;
      case 'date':
        if (!isCalendarDay(given)) fail(p, `${p.label}: enter a date as yyyy-mm-dd.`);
        else values[p.name] = given;
        break;
      case 'select': {
        const keys = p.options ? p.options.map((o) => o.Key) : (allowedKeys[p.name] ?? []);
        if (!keys.includes(given)) fail(p, `${p.label}: choose one of the options.`);
        else values[p.name] = given;
        break;
      }
      default:
        if (given.length > QUERY_TEXT_MAX) fail(p, `${p.label} is longer than ${QUERY_TEXT_MAX} characters.`);
        else values[p.name] = given;
    }
  }
  return { values, errors };
}
