/**
 * Saved reports mailed as CSV on a schedule (issue 20, decision 0176): daily, weekly on a weekday or monthly on a
 * day, to staff users of the association and typed addresses. The daily job of every association (decision 0181)
 * sends each schedule due on the association's calendar day once.
 */
import { z } from 'zod';
import { reportParameterValuesSchema } from './report-parameters.rules.ts';

export const REPORT_SCHEDULE_FREQUENCIES = ['daily', 'weekly', 'monthly'] as const;
export type ReportScheduleFrequency = (typeof REPORT_SCHEDULE_FREQUENCIES)[number];
/** Recipients of one schedule at most (users and addresses together). */
export const REPORT_SCHEDULE_MAX_RECIPIENTS = 50;
/** ISO weekdays, 1 Monday to 7 Sunday, as the schedule form names them. */
export const WEEKDAY_NAMES = [
  'Monday',
  'Tuesday',
  'Wednesday',
  'Thursday',
  'Friday',
  'Saturday',
  'Sunday',
] as const;

export const reportScheduleInputSchema = z
  .object({
    Frequency: z.enum(REPORT_SCHEDULE_FREQUENCIES),
    Weekday: z.number().int().min(1).max(7).nullable().default(null),
    DayOfMonth: z.number().int().min(1).max(31).nullable().default(null),
    UserIds: z.array(z.number().int().min(1)).max(REPORT_SCHEDULE_MAX_RECIPIENTS).default([]),
    Addresses: z
      .array(z.string().trim().toLowerCase().pipe(z.email('Enter a valid email address.').max(200)))
      .max(REPORT_SCHEDULE_MAX_RECIPIENTS)
      .default([]),
    /** The report's parameter values each send runs with (a date range kept as its option). */
    Parameters: reportParameterValuesSchema.default({}),
  })
  .superRefine((v, ctx) => {
    if (v.Frequency === 'weekly' && v.Weekday === null)
      ctx.addIssue({ code: 'custom', path: ['Weekday'], message: 'Choose the day of the week.' });
    if (v.Frequency === 'monthly' && v.DayOfMonth === null)
      ctx.addIssue({ code: 'custom', path: ['DayOfMonth'], message: 'Choose the day of the month.' });
    if (v.UserIds.length + v.Addresses.length === 0)
      ctx.addIssue({ code: 'custom', path: ['UserIds'], message: 'Choose at least one recipient.' });
    if (v.UserIds.length + v.Addresses.length > REPORT_SCHEDULE_MAX_RECIPIENTS)
      ctx.addIssue({
        code: 'custom',
        path: ['Addresses'],
        message: `A schedule has at most ${REPORT_SCHEDULE_MAX_RECIPIENTS} recipients.`,
      });
  });
export type ReportScheduleInput = z.input<typeof reportScheduleInputSchema>;

export const reportScheduleSchema = z.object({
  ScheduleId: z.number().int(),
  SavedReportId: z.number().int(),
  Frequency: z.enum(REPORT_SCHEDULE_FREQUENCIES),
  Weekday: z.number().int().nullable(),
  DayOfMonth: z.number().int().nullable(),
  UserIds: z.array(z.number().int()),
  Addresses: z.array(z.string()),
  Parameters: z.record(z.string(), z.unknown()),
  /** Names of the chosen users, in the order of UserIds (a user gone from the association is left out). */
  UserNames: z.array(z.string()),
  IsActive: z.boolean(),
  /** The association's calendar day of the last send, YYYY-MM-DD. */
  LastSentOn: z.string().nullable(),
  LastOutcome: z.string().nullable(),
  /** Why a schedule stopped (its owner lost access), else empty. */
  Note: z.string(),
  Summary: z.string(),
});
export type ReportSchedule = z.infer<typeof reportScheduleSchema>;

function lastDayOfMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

/** Whether a schedule sends on a calendar day (YYYY-MM-DD); a monthly day past a month's end is its last day. */
export function scheduleDueOn(
  s: { Frequency: ReportScheduleFrequency; Weekday: number | null; DayOfMonth: number | null },
  day: string,
): boolean {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(day);
  if (!m) return false;
  const [year, month, date] = [Number(m[1]), Number(m[2]), Number(m[3])];
  if (s.Frequency === 'daily') return true;
  if (s.Frequency === 'weekly') {
    const weekday = ((new Date(Date.UTC(year, month - 1, date)).getUTCDay() + 6) % 7) + 1;
    return weekday === s.Weekday;
  }
  if (s.DayOfMonth === null) return false;
  return date === Math.min(s.DayOfMonth, lastDayOfMonth(year, month));
}

/** "Every day", "Every Monday", "On day 31 of every month (its last day when shorter)". */
export function scheduleSummary(s: {
  Frequency: ReportScheduleFrequency;
  Weekday: number | null;
  DayOfMonth: number | null;
}): string {
  if (s.Frequency === 'daily') return 'Every day';
  if (s.Frequency === 'weekly') return `Every ${WEEKDAY_NAMES[(s.Weekday ?? 1) - 1]}`;
  const d = s.DayOfMonth ?? 1;
  return `On day ${d} of every month${d > 28 ? ' (its last day when shorter)' : ''}`;
}
