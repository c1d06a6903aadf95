/**
 * The rules of tasks and projects, pure: statuses and priorities, dependencies and their cycles, whether a task may
 * start, a project's progress, how due a task is in the association's timezone, relative due dates of project
 * templates and the next occurrence of a recurring task (both in the association's timezone, so a daylight saving
 * change never moves a due time).
 */
import { TZDate } from '@date-fns/tz';
import { addDays } from 'date-fns/addDays';
import { addMonths } from 'date-fns/addMonths';
import { addWeeks } from 'date-fns/addWeeks';
import { addYears } from 'date-fns/addYears';

export const PROJECT_STATUSES = [
  { Id: 'planned', Name: 'Planned' },
  { Id: 'active', Name: 'Active' },
  { Id: 'on_hold', Name: 'On hold' },
  { Id: 'done', Name: 'Done' },
  { Id: 'cancelled', Name: 'Cancelled' },
] as const;
export type ProjectStatus = (typeof PROJECT_STATUSES)[number]['Id'];

/** The statuses of a task, in the order of the board's columns. */
export const TASK_STATUSES = [
  { Id: 'todo', Name: 'To do' },
  { Id: 'in_progress', Name: 'In progress' },
  { Id: 'waiting', Name: 'Waiting' },
  { Id: 'done', Name: 'Done' },
  { Id: 'cancelled', Name: 'Cancelled' },
] as const;
export type TaskStatus = (typeof TASK_STATUSES)[number]['Id'];

export const TASK_PRIORITIES = [
  { Id: 'low', Name: 'Low' },
  { Id: 'normal', Name: 'Normal' },
  { Id: 'high', Name: 'High' },
  { Id: 'urgent', Name: 'Urgent' },
] as const;
export type TaskPriority = (typeof TASK_PRIORITIES)[number]['Id'];

/** What a project produces (its result type). */
export const PROJECT_RESULT_TYPES = [
  { Id: 'event', Name: 'An event' },
  { Id: 'publication', Name: 'A publication' },
  { Id: 'campaign', Name: 'A campaign' },
  { Id: 'policy', Name: 'A policy or decision' },
  { Id: 'service', Name: 'A service or system' },
  { Id: 'other', Name: 'Other' },
] as const;

/** The kinds of record a project relates to. */
export const PROJECT_RELATED_TYPES = [
  { Id: 'contact', Name: 'Contact' },
  { Id: 'event', Name: 'Event' },
  { Id: 'membershipType', Name: 'Membership type' },
  { Id: 'committee', Name: 'Committee' },
] as const;

export const RECURRENCE_FREQUENCIES = [
  { Id: 'daily', Name: 'Every day' },
  { Id: 'weekly', Name: 'Every week' },
  { Id: 'monthly', Name: 'Every month' },
  { Id: 'yearly', Name: 'Every year' },
] as const;
export type RecurrenceFrequency = (typeof RECURRENCE_FREQUENCIES)[number]['Id'];

/** A task is finished when done or cancelled: it no longer holds up the tasks waiting on it. */
export function isFinished(status: unknown): boolean {
  return status === 'done' || status === 'cancelled';
}

/** Statuses that mean work has started on the task: only allowed once every task it waits on is finished. */
export function isStarted(status: unknown): boolean {
  return status === 'in_progress' || status === 'done';
}

/** One dependency: `taskId` waits on `dependsOn`. */
export interface DependencyEdge {
  taskId: number;
  dependsOn: number;
}

/**
 * The cycle that adding `edge` to `edges` would make, as the chain of task ids from the waiting task back to itself
 * ([A, B, A]: A waits on B, which waits on A); null when the edge makes none. A task waiting on itself is a cycle.
 */
export function dependencyCycle(edges: readonly DependencyEdge[], edge: DependencyEdge): number[] | null {
  if (edge.taskId === edge.dependsOn) return [edge.taskId, edge.taskId];
  const next = new Map<number, number[]>();
  for (const e of edges) {
    const list = next.get(e.taskId);
    if (list) list.push(e.dependsOn);
    else next.set(e.taskId, [e.dependsOn]);
  }
  // A path from what the task would wait on back to the task closes a cycle: breadth first, the shortest one.
  const cameFrom = new Map<number, number>([[edge.dependsOn, edge.taskId]]);
  const queue = [edge.dependsOn];
  while (queue.length > 0) {
    const at = queue.shift() as number;
    if (at === edge.taskId) {
      const chain = [at];
      let step = cameFrom.get(at) as number;
      while (step !== edge.taskId) {
        chain.push(step);
        step = cameFrom.get(step) as number;
      }
      chain.push(edge.taskId);
      return chain.reverse();
    }
    for (const n of next.get(at) ?? []) {
      if (!cameFrom.has(n)) {
        cameFrom.set(n, at);
        queue.push(n);
      }
    }
  }
  return null;
}

/** Whether a set of dependencies has a cycle anywhere (used by tests and to check stored data). */
export function hasCycle(edges: readonly DependencyEdge[]): boolean {
  const kept: DependencyEdge[] = [];
  for (const e of edges) {
    if (dependencyCycle(kept, e)) return true;
    kept.push(e);
  }
  return false;
}

/** The message a refused dependency answers: the chain named by the tasks' titles. */
export function cycleMessage(chain: readonly number[], titleOf: (id: number) => string): string {
  if (chain.length === 2 && chain[0] === chain[1]) return 'A task cannot wait on itself.';
  const names = chain.map((id) => `"${titleOf(id)}"`);
  return `This dependency would make a cycle: ${names[0]} waits on ${names.slice(1).join(', which waits on ')}. Remove one of these dependencies first.`;
}

/**
 * Why a task may not take a status: it starts (in progress or done) while tasks it waits on are unfinished. Null
 * when it may. `blockers` are the tasks it waits on.
 */
export function startRefusal(
  status: unknown,
  blockers: readonly { Title: string; Status: unknown }[],
): string | null {
  if (!isStarted(status)) return null;
  const open = blockers.filter((b) => !isFinished(b.Status)).map((b) => `"${b.Title}"`);
  if (open.length === 0) return null;
  const list =
    open.length <= 3 ? open.join(', ') : `${open.slice(0, 3).join(', ')} and ${open.length - 3} more`;
  return `This task cannot start before the tasks it waits on are done: ${list}.`;
}

/** A project's progress in percent: its finished tasks among those not cancelled (0 when it has none). */
export function projectProgress(statuses: readonly unknown[]): number {
  const counted = statuses.filter((s) => s !== 'cancelled');
  if (counted.length === 0) return 0;
  return Math.floor((100 * counted.filter((s) => s === 'done').length) / counted.length);
}

export type DueState = 'none' | 'overdue' | 'today' | 'thisWeek' | 'later';

/** The calendar date (YYYY-MM-DD) of an instant in a timezone. */
export function zonedDate(at: Date, timeZone: string): string {
  const d = new TZDate(at.getTime(), timeZone);
  return `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
}

/**
 * How due an unfinished task is at `now`, in the association's timezone: overdue once its due time passed, today
 * when due later today, this week when due within the next 7 days, later otherwise.
 */
export function dueState(dueAt: Date | null, now: Date, timeZone: string): DueState {
  if (!dueAt) return 'none';
  if (dueAt.getTime() < now.getTime()) return 'overdue';
  const today = zonedDate(now, timeZone);
  const due = zonedDate(dueAt, timeZone);
  if (due === today) return 'today';
  const weekEnd = zonedDate(addDays(new TZDate(now.getTime(), timeZone), 7), timeZone);
  return due <= weekEnd ? 'thisWeek' : 'later';
}

function zonedAt(date: string, time: string, timeZone: string): TZDate {
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  const [hh, mm] = time.split(':').map(Number) as [number, number];
  return new TZDate(y, m - 1, d, hh, mm, 0, timeZone);
}

/**
 * A template task's due instant: `offsetDays` from the anchor date (the project's due date; negative is before it)
 * at `time` (HH:MM, wall clock) in the association's timezone. Counting in calendar days keeps the wall-clock time
 * across a daylight saving change ("120 days before, 09:00" is 09:00 local, whatever the offset).
 */
export function relativeDueAt(anchorDate: string, offsetDays: number, time: string, timeZone: string): Date {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(anchorDate)) throw new Error(`Not a date: ${anchorDate}`);
  if (!/^\d{2}:\d{2}$/.test(time)) throw new Error(`Not a time: ${time}`);
  return new Date(addDays(zonedAt(anchorDate, time, timeZone), offsetDays).getTime());
}

/** A template task's offset spoken: "120 days before", "on the day", "3 days after". */
export function offsetLabel(offsetDays: number): string {
  if (offsetDays === 0) return 'on the due date';
  const n = Math.abs(offsetDays);
  return `${n} day${n === 1 ? '' : 's'} ${offsetDays < 0 ? 'before' : 'after'}`;
}

/**
 * The next due instant of a recurring task: `interval` periods after `dueAt`, the same wall-clock time in the
 * association's timezone (a weekly 09:00 task stays at 09:00 across a daylight saving change). A monthly task due on
 * the 31st falls on the month's last day when the month is shorter.
 */
export function nextOccurrence(
  dueAt: Date,
  frequency: RecurrenceFrequency,
  interval: number,
  timeZone: string,
): Date {
  const n = Math.max(1, Math.floor(interval));
  const local = new TZDate(dueAt.getTime(), timeZone);
  const next =
    frequency === 'daily'
      ? addDays(local, n)
      : frequency === 'weekly'
        ? addWeeks(local, n)
        : frequency === 'monthly'
          ? addMonths(local, n)
          : addYears(local, n);
  return new Date(next.getTime());
}

/** A recurrence rule spoken: "Every week", "Every 2 months". */
export function recurrenceLabel(frequency: unknown, interval: unknown): string {
  const f = RECURRENCE_FREQUENCIES.find((r) => r.Id === frequency);
  if (!f) return 'Does not repeat';
  const n = Number(interval) > 1 ? Math.floor(Number(interval)) : 1;
  if (n === 1) return f.Name;
  const unit = { daily: 'days', weekly: 'weeks', monthly: 'months', yearly: 'years' }[f.Id];
  return `Every ${n} ${unit}`;
}

/** The @mentions of a comment: `@username` words, lower-cased, each once, in order. */
export function mentionsOf(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/(?:^|[^\w@.])@([a-z0-9][a-z0-9._-]{0,62}[a-z0-9]|[a-z0-9])/gi)) {
    const name = (m[1] ?? '').toLowerCase();
    if (!out.includes(name)) out.push(name);
  }
  return out;
}

/** How many of an assignee's tasks the reminder lists: "2 overdue, 1 due today". */
export function reminderSummary(overdue: number, dueToday: number): string {
  const parts: string[] = [];
  if (overdue > 0) parts.push(`${overdue} overdue`);
  if (dueToday > 0) parts.push(`${dueToday} due today`);
  return parts.join(', ');
}

/** The reminder mail's default subject for one assignee on one day. */
export function reminderSubject(overdue: number, dueToday: number): string {
  return `Your tasks: ${reminderSummary(overdue, dueToday)}`;
}
