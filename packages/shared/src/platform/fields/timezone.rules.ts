/**
 * The timezone option list (spec 000 section 3: "Timezone option: TimezoneId, DisplayName, OlsonName"), served by
 * GET /api/utils/timezones for every timezone select. TimezoneId is the IANA (Olson) name itself: stable across
 * releases of the timezone database, and what the settings store.
 */
import { z } from 'zod';

export const timezoneOptionSchema = z.object({
  TimezoneId: z.string(),
  DisplayName: z.string(),
  OlsonName: z.string(),
});
export type TimezoneOption = z.infer<typeof timezoneOptionSchema>;

/** A time zone name the runtime knows (an IANA name such as America/Chicago, or UTC). */
export function isTimeZone(tz: string): boolean {
  try {
    new Intl.DateTimeFormat('en-US', { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** Minutes east of UTC of a zone at an instant ("GMT-05:00" -> -300). */
export function utcOffsetMinutes(zone: string, at: Date): number {
  const part = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longOffset' })
    .formatToParts(at)
    .find((p) => p.type === 'timeZoneName')?.value;
  const m = /GMT([+-])(\d{2}):(\d{2})/.exec(part ?? '');
  if (!m) return 0;
  const minutes = Number(m[2]) * 60 + Number(m[3]);
  return m[1] === '-' ? -minutes : minutes;
}

function offsetText(minutes: number): string {
  const sign = minutes < 0 ? '-' : '+';
  const abs = Math.abs(minutes);
  return `UTC${sign}${String(Math.floor(abs / 60)).padStart(2, '0')}:${String(abs % 60).padStart(2, '0')}`;
}

/**
 * One option per zone, west to east, then by name: "(UTC-06:00) Chicago, Central Time". The offset is the one in
 * force at `at` (so it follows daylight saving time).
 */
export function timezoneOptions(zones: readonly string[], at: Date): TimezoneOption[] {
  const rows = [...new Set(zones)].map((zone) => {
    const offset = utcOffsetMinutes(zone, at);
    const generic = new Intl.DateTimeFormat('en-US', { timeZone: zone, timeZoneName: 'longGeneric' })
      .formatToParts(at)
      .find((p) => p.type === 'timeZoneName')?.value;
    const city = (zone.split('/').pop() ?? zone).replaceAll('_', ' ');
    const region = generic && !/^GMT/.test(generic) ? `, ${generic}` : '';
    return { offset, zone, DisplayName: `(${offsetText(offset)}) ${city}${region}` };
  });
  rows.sort((a, b) => a.offset - b.offset || a.zone.localeCompare(b.zone));
  return rows.map((r) => ({ TimezoneId: r.zone, DisplayName: r.DisplayName, OlsonName: r.zone }));
}
