import { DEFAULT_TENANT_SETTINGS } from '@guildhall/shared';

const cache = new Map<string, Intl.DateTimeFormat>();

function formatter(timeZone: string, withTime: boolean): Intl.DateTimeFormat {
  const key = `${timeZone}|${withTime}`;
  let f = cache.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(undefined, {
        dateStyle: 'medium',
        ...(withTime ? { timeStyle: 'short' } : {}),
        timeZone,
      });
    } catch {
      f = new Intl.DateTimeFormat(undefined, {
        dateStyle: 'medium',
        ...(withTime ? { timeStyle: 'short' } : {}),
        timeZone: DEFAULT_TENANT_SETTINGS.defaultTimezone,
      });
    }
    cache.set(key, f);
  }
  return f;
}

/** A timestamp in the tenant's timezone (spec 000 section 9: fallback America/Chicago). */
export function formatDateTime(value: string | null | undefined, timeZone: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatter(timeZone, true).format(date);
}

export function formatDate(value: string | null | undefined, timeZone: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatter(timeZone, false).format(date);
}
