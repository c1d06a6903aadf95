import { DATE_TYPES, formatDateValue, formatInstant } from '@guildhall/shared';

/**
 * A timestamp in the tenant's timezone (spec 000 section 9: fallback America/Chicago), with the zone's name: the
 * shared formatter every screen uses (decision 0091).
 */
export function formatDateTime(
  value: string | null | undefined,
  timeZone: string,
  precision: 'minute' | 'second' = 'minute',
): string {
  return formatInstant(value, timeZone, precision);
}

/** The day of a moment in a time zone, as every date of the product reads ("11/09/2026"); '' for none. */
export function formatDay(value: string | null | undefined, timeZone: string): string {
  if (!value) return '';
  return Number.isNaN(new Date(value).getTime())
    ? value
    : formatDateValue(value, DATE_TYPES.DateOnly, timeZone);
}
