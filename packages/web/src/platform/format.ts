import { DEFAULT_TENANT_SETTINGS, formatInstant } from '@guildhall/shared';

const cache = new Map<string, Intl.DateTimeFormat>();

type Precision = 'date' | 'minute' | 'second';

function formatter(timeZone: string, precision: Precision): Intl.DateTimeFormat {
  const key = `${timeZone}|${precision}`;
  let f = cache.get(key);
  if (!f) {
    try {
      f = new Intl.DateTimeFormat(undefined, {
        dateStyle: 'medium',
        ...(precision === 'date' ? {} : { timeStyle: precision === 'second' ? 'medium' : 'short' }),
        timeZone,
      });
    } catch {
      f = new Intl.DateTimeFormat(undefined, {
        dateStyle: 'medium',
        ...(precision === 'date' ? {} : { timeStyle: precision === 'second' ? 'medium' : 'short' }),
        timeZone: DEFAULT_TENANT_SETTINGS.defaultTimezone,
      });
    }
    cache.set(key, f);
  }
  return f;
}

/**
 * A timestamp in the tenant's timezone (spec 000 section 9: fallback America/Chicago), with the zone's name: the
 * shared formatter every screen uses (decision 0091).
 */
export function formatDateTime(
  value: string | null | undefined,
  timeZone: string,
  precision: Exclude<Precision, 'date'> = 'minute',
): string {
  return formatInstant(value, timeZone, precision);
}

export function formatDate(value: string | null | undefined, timeZone: string): string {
  if (!value) return '';
  const date = new Date(value);
  if (Number.isNaN(date.getTime())) return value;
  return formatter(timeZone, 'date').format(date);
}
