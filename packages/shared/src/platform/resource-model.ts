/**
 * Checks and normalises a model against its resource's field declarations, applying the shared input rules.
 * The server runs it on every save (a 400 with the errors map when something is wrong); the web may run it too.
 */

import { parseCountry } from './fields/country.rules.ts';
import { isCalendarDay, parseDateInput } from './fields/date-input.rules.ts';
import { DATE_RANGE_OPTIONS } from './fields/date-range.rules.ts';
import { validateEmailAddress } from './fields/email.rules.ts';
import {
  applyNumberLimits,
  hasRequiredSelection,
  keepAllowedValue,
  keepAllowedValues,
  parseBooleanInput,
  parseCurrencyInput,
} from './fields/field-input.rules.ts';
import { parsePhone } from './fields/phone.rules.ts';
import { parseDecimalRange } from './fields/range.rules.ts';
import { withinEditorMaxLength } from './fields/rich-text.rules.ts';
import { isTimeZone } from './fields/timezone.rules.ts';
import { parseWebsite } from './fields/website.rules.ts';
import type { FieldDeclaration, Model, ResourceDeclaration } from './resource.ts';

export interface NormalizeOptions {
  websitePrefix?: string;
  timeZone?: string;
  /** Only these fields (an inline edit); the others are neither read nor required. */
  only?: readonly string[];
}

export interface NormalizeResult {
  model: Model;
  errors: Record<string, string[]>;
}

const TIME = /^([01]\d|2[0-3]):([0-5]\d)(:[0-5]\d)?$/;

function isEmpty(value: unknown): boolean {
  return value === undefined || value === null || (typeof value === 'string' && value.trim() === '');
}

type Check = { value: unknown } | { error: string };

/** One field: its normalised value, or the message for the person who typed it. Never throws. */
export function normalizeField(field: FieldDeclaration, raw: unknown, options: NormalizeOptions = {}): Check {
  try {
    return normalizeValue(field, raw, options);
  } catch {
    // A value no conversion accepts (an object whose toString is not a function, say).
    return { error: `${field.label} is not valid.` };
  }
}

function normalizeValue(field: FieldDeclaration, raw: unknown, options: NormalizeOptions): Check {
  const label = field.label;
  if (isEmpty(raw) && field.type !== 'multiSelect' && field.type !== 'flags' && field.type !== 'boolean') {
    return field.required ? { error: `${label} is required.` } : { value: null };
  }
  switch (field.type) {
    case 'text':
    case 'textarea':
    case 'richText': {
      if (typeof raw !== 'string') return { error: `${label} must be text.` };
      if (field.maxLength !== undefined && raw.length > field.maxLength)
        return { error: `${label} has at most ${field.maxLength} characters.` };
      if (field.type === 'richText' && !withinEditorMaxLength(raw, field.editorMaxLength))
        return { error: `${label} has at most ${field.editorMaxLength} characters.` };
      return { value: field.type === 'text' ? raw.trim() : raw };
    }
    case 'number': {
      const n = typeof raw === 'number' ? raw : Number(raw);
      if (!Number.isFinite(n)) return { error: `${label} must be a number.` };
      const limited = applyNumberLimits(n, { min: field.min ?? null, max: field.max ?? null });
      if (!limited.valid) return { error: `${label} is at least ${field.min}.` };
      return { value: limited.value };
    }
    case 'currency': {
      // A number is already cents; text is money as typed ("1,234.50").
      const cents =
        typeof raw === 'number' ? (Number.isInteger(raw) ? raw : null) : parseCurrencyInput(String(raw));
      if (cents === null) return { error: `${label} must be an amount of money.` };
      const limited = applyNumberLimits(cents, { min: field.min ?? null, max: field.max ?? null });
      if (!limited.valid) return { error: `${label} is at least ${field.min}.` };
      return { value: limited.value };
    }
    case 'boolean': {
      if (isEmpty(raw)) return field.required ? { error: `${label} is required.` } : { value: false };
      const b =
        typeof raw === 'string' || typeof raw === 'number' || typeof raw === 'boolean'
          ? parseBooleanInput(raw)
          : null;
      return b === null ? { error: `${label} must be yes or no.` } : { value: b };
    }
    case 'date': {
      if (typeof raw !== 'string') return { error: `${label} must be a date.` };
      if (isCalendarDay(raw)) return { value: raw };
      const parsed = parseDateInput(raw, options.timeZone ? { timeZone: options.timeZone } : {});
      return parsed.ok ? { value: parsed.value } : { error: parsed.error };
    }
    case 'datetime': {
      const d = typeof raw === 'string' || typeof raw === 'number' ? new Date(raw) : null;
      return d && !Number.isNaN(d.getTime())
        ? { value: d.toISOString() }
        : { error: `${label} must be a date and time.` };
    }
    case 'time':
      return typeof raw === 'string' && TIME.test(raw)
        ? { value: raw }
        : { error: `${label} must be a time (hh:mm).` };
    case 'phone': {
      // Never emptied or cut: what is not a phone number is refused with the reason (decision 0090).
      const phone = typeof raw === 'string' || typeof raw === 'number' ? parsePhone(String(raw)) : null;
      if (!phone) return { error: `${label} must be text.` };
      return phone.ok ? { value: phone.value } : { error: `${label}: ${phone.error}` };
    }
    case 'website': {
      if (typeof raw !== 'string') return { error: `${label} must be text.` };
      const site = parseWebsite(raw, options.websitePrefix);
      if (!site.ok) return { error: `${label}: ${site.error}` };
      if (field.maxLength !== undefined && (site.value ?? '').length > field.maxLength)
        return { error: `${label} has at most ${field.maxLength} characters.` };
      return { value: site.value };
    }
    case 'country': {
      const country = parseCountry(raw);
      return country.ok ? { value: country.value } : { error: `${label}: ${country.error}` };
    }
    case 'email': {
      const result = validateEmailAddress(String(raw));
      return result.Valid ? { value: String(raw).trim() } : { error: result.ErrorMessages.join(', ') };
    }
    case 'select': {
      const allowed = (field.options ?? []).map((o) => o.Id);
      return allowed.includes(raw as string | number)
        ? { value: raw }
        : { error: `Choose one of the listed ${label}.` };
    }
    case 'selectValid': {
      const allowed = (field.options ?? []).map((o) => o.Id);
      const kept = keepAllowedValue(raw as string | number, allowed);
      return kept === '' && field.required
        ? { error: `${label} is required.` }
        : { value: kept === '' ? null : kept };
    }
    case 'multiSelect': {
      const list = raw == null ? [] : raw;
      if (!Array.isArray(list)) return { error: `${label} must be a list.` };
      const kept = keepAllowedValues(
        list as (string | number)[],
        (field.options ?? []).map((o) => o.Id),
      );
      if (field.required && !hasRequiredSelection(kept)) return { error: `Choose at least one ${label}.` };
      return { value: kept };
    }
    case 'flags': {
      const mask = raw == null ? 0 : Number(raw);
      if (!Number.isSafeInteger(mask) || mask < 0) return { error: `${label} must be a set of flags.` };
      const known = (field.options ?? []).reduce((m, o) => m | Number(o.Id), 0);
      if ((mask & ~known) !== 0) return { error: `${label} holds an unknown flag.` };
      if (field.required && mask === 0) return { error: `Choose at least one ${label}.` };
      return { value: mask };
    }
    case 'decimalRange': {
      const parsed = parseDecimalRange(raw);
      if ('value' in parsed) return parsed;
      return parsed.error === 'order'
        ? { error: `${label}: the start is after the end.` }
        : { error: `${label} needs numbers (leave a side empty for no limit).` };
    }
    case 'dateRange': {
      const r = raw as { Range?: unknown; StartDate?: unknown; EndDate?: unknown };
      if (typeof r !== 'object' || !DATE_RANGE_OPTIONS.some((o) => o.Id === r.Range))
        return { error: `Choose a ${label} option.` };
      const start = typeof r.StartDate === 'string' && isCalendarDay(r.StartDate) ? r.StartDate : null;
      const end = typeof r.EndDate === 'string' && isCalendarDay(r.EndDate) ? r.EndDate : null;
      if (start && end && start > end) return { error: `${label}: the start is after the end.` };
      return { value: { Range: r.Range, StartDate: start, EndDate: end } };
    }
    case 'timezone':
      return typeof raw === 'string' && isTimeZone(raw)
        ? { value: raw }
        : { error: 'Choose a known time zone.' };
    case 'lookup': {
      const id = Number(raw);
      return Number.isSafeInteger(id) && id > 0 ? { value: id } : { error: `Choose a ${label}.` };
    }
    case 'image': {
      // The id of a library file; whether it is one of the association's images is the server's check.
      const id = typeof raw === 'number' || typeof raw === 'string' ? Number(raw) : Number.NaN;
      return Number.isSafeInteger(id) && id > 0
        ? { value: id }
        : { error: `${label}: choose an image of the library.` };
    }
  }
}

/** Every writable field of the model, normalised; the errors map names each field that is wrong. */
export function normalizeModel(
  resource: ResourceDeclaration,
  input: Model,
  options: NormalizeOptions = {},
): NormalizeResult {
  const model: Model = {};
  const errors: Record<string, string[]> = {};
  for (const [name, field] of Object.entries(resource.fields)) {
    if (field.readOnly) continue;
    if (options.only && !options.only.includes(name)) continue;
    const result = normalizeField(field, input[name], options);
    if ('error' in result) errors[name] = [result.error];
    else model[name] = result.value;
  }
  return { model, errors };
}
