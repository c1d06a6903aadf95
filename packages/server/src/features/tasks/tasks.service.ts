/**
 * The work of tasks and projects beyond the generic layer: the board (moving a card), My tasks and the dashboard's
 * counts, projects made from templates (relative due dates in the association's timezone), the next occurrence of
 * a recurring task, mention mails and the daily reminder mails (once per day, task and assignee).
 */
import { type Database, type Tx, withTenantTx } from '@guildhall/db';
import {
  type BoardMove,
  DEFAULT_TIMEZONE,
  dueState,
  formatInstant,
  type InstantiateTemplate,
  isFinished,
  nextOccurrence,
  type ProjectActivity,
  RECURRENCE_FREQUENCIES,
  type RecurrenceFrequency,
  relativeDueAt,
  reminderSummary,
  resolveTimeZone,
  startRefusal,
  TASK_STATUSES,
  type TaskCard,
  taskMentionMail,
  taskReminderMail,
  zonedDate,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { badRequest, HttpError, notFound } from '../../platform/errors.ts';
import { type ClaimedJob, type JobHandler, PermanentJobError } from '../../platform/jobs.ts';
import type { Services } from '../../platform/services.ts';
import { communicationsApi } from '../communications/communications.module.ts';
import * as repo from './tasks.repo.ts';

export const MENTION_JOB = 'tasks-mention-mail';
export const REMINDER_JOB = 'tasks-reminders';

async function timeZoneOf(tx: Tx, auth: Pick<AuthContext, 'tenantId' | 'tenantSettings'>): Promise<string> {
  return resolveTimeZone(
    auth.tenantSettings?.defaultTimezone ?? (await repo.tenantTimezone(tx, auth.tenantId)),
  );
}

function cardOf(t: repo.TaskRow, waitingOn: string[], now: Date, timeZone: string): TaskCard {
  return {
    TaskId: t.TaskId,
    Title: t.Title,
    Status: t.Status,
    Priority: t.Priority,
    DueAt: t.DueAt ? t.DueAt.toISOString() : null,
    AssigneeNames: t.AssigneeNames,
    ProjectId: t.ProjectId,
    ProjectName: t.ProjectName,
    SortOrder: t.SortOrder,
    ChecklistDone: t.ChecklistDone,
    ChecklistTotal: t.ChecklistTotal,
    DueState: isFinished(t.Status) ? 'none' : dueState(t.DueAt, now, timeZone),
    WaitingOn: waitingOn,
  };
}

async function cardsOf(tx: Tx, auth: AuthContext, tasks: repo.TaskRow[]): Promise<TaskCard[]> {
  const timeZone = await timeZoneOf(tx, auth);
  const blockers = await repo.blockersOf(
    tx,
    auth.tenantId,
    tasks.map((t) => t.TaskId),
  );
  const now = new Date();
  return tasks.map((t) =>
    cardOf(
      t,
      (blockers.get(t.TaskId) ?? []).filter((b) => !isFinished(b.Status)).map((b) => b.Title),
      now,
      timeZone,
    ),
  );
}

/** The cards of a project's board (and calendar). */
export async function projectBoard(tx: Tx, auth: AuthContext, projectId: number): Promise<TaskCard[]> {
  if ((await repo.projectName(tx, auth.tenantId, projectId)) === null) throw notFound();
  return cardsOf(tx, auth, await repo.projectTasks(tx, auth.tenantId, projectId));
}

/** The signed-in user's tasks and the counts of the dashboard widget. */
export async function myTasks(tx: Tx, auth: AuthContext, include: 'open' | 'all') {
  const open = await cardsOf(tx, auth, await repo.userTasks(tx, auth.tenantId, auth.userId, 'open'));
  const tasks =
    include === 'all'
      ? await cardsOf(tx, auth, await repo.userTasks(tx, auth.tenantId, auth.userId, 'all'))
      : open;
  return {
    Overdue: open.filter((t) => t.DueState === 'overdue').length,
    DueToday: open.filter((t) => t.DueState === 'today').length,
    DueThisWeek: open.filter((t) => t.DueState === 'today' || t.DueState === 'thisWeek').length,
    Open: open.length,
    Tasks: tasks,
  };
}

/**
 * Moves a card on the board: its new status (refused while the tasks it waits on are unfinished) and its place
 * before another card of the column (or at its end). Audited as an update of the task.
 */
export async function moveCard(
  tx: Tx,
  auth: AuthContext,
  move: BoardMove,
  services: Services,
): Promise<TaskCard> {
  const task = await repo.findTask(tx, auth.tenantId, move.TaskId);
  if (!task || task.IsDeleted) throw notFound();
  if (!TASK_STATUSES.some((s) => s.Id === move.Status))
    throw badRequest('Choose one of the board’s columns.');
  if (move.Status !== task.Status) {
    const blockers = (await repo.blockersOf(tx, auth.tenantId, [task.TaskId])).get(task.TaskId) ?? [];
    const refusal = startRefusal(move.Status, blockers);
    if (refusal) throw new HttpError(409, refusal);
  }
  const column =
    task.ProjectId === null
      ? []
      : (await repo.projectTasks(tx, auth.tenantId, task.ProjectId)).filter(
          (t) => t.Status === move.Status && t.TaskId !== task.TaskId,
        );
  const beforeIndex = move.BeforeTaskId ? column.findIndex((t) => t.TaskId === move.BeforeTaskId) : -1;
  const ordered = [...column];
  ordered.splice(beforeIndex < 0 ? ordered.length : beforeIndex, 0, task);
  // Renumber the column (a few dozen cards) so that the order is plain integers.
  let order = 1;
  for (const t of ordered) {
    if (t.TaskId === task.TaskId) await repo.placeTask(tx, auth.tenantId, t.TaskId, move.Status, order);
    else if (t.SortOrder !== order) await repo.setSortOrder(tx, auth.tenantId, t.TaskId, order);
    order++;
  }
  if (move.Status !== task.Status) {
    await audit(tx, auth, {
      action: 'update',
      entity: 'tasks',
      entityId: String(task.TaskId),
      before: { Status: task.Status },
      after: { Status: move.Status },
    });
    if (task.ProjectId !== null) await repo.refreshProjectProgress(tx, auth.tenantId, task.ProjectId);
    await repo.refreshTaskSearch(tx, auth.tenantId, task.TaskId);
    if (move.Status === 'done') await createFollowUp(tx, auth, task.TaskId);
  }
  void services;
  const moved = await repo.findTask(tx, auth.tenantId, task.TaskId);
  if (!moved) throw notFound();
  const [card] = await cardsOf(tx, auth, [moved]);
  return card as TaskCard;
}

/**
 * The next occurrence of a recurring task once it is done: a copy due one period later (same wall-clock time in the
 * association's timezone), with its assignees and an unticked checklist. Made once, whatever reopens and closes it.
 */
export async function createFollowUp(tx: Tx, auth: AuthContext, taskId: number): Promise<number | null> {
  const t = await repo.findTask(tx, auth.tenantId, taskId);
  if (!t?.RecurrenceFrequency || !t.DueAt) return null;
  if (!RECURRENCE_FREQUENCIES.some((f) => f.Id === t.RecurrenceFrequency)) return null;
  if (await repo.followUpExists(tx, auth.tenantId, taskId)) return null;
  const timeZone = await timeZoneOf(tx, auth);
  const dueAt = nextOccurrence(
    t.DueAt,
    t.RecurrenceFrequency as RecurrenceFrequency,
    t.RecurrenceInterval ?? 1,
    timeZone,
  );
  const id = await repo.insertTask(tx, auth.tenantId, {
    projectId: t.ProjectId,
    title: t.Title,
    description: t.Description,
    status: 'todo',
    priority: t.Priority,
    dueAt,
    contactId: t.ContactId,
    recurrenceFrequency: t.RecurrenceFrequency,
    recurrenceInterval: t.RecurrenceInterval,
    sortOrder: await repo.nextSortOrder(tx, auth.tenantId, t.ProjectId),
    previousTaskId: t.TaskId,
    createdBy: auth.userId,
  });
  for (const a of await repo.assigneesOf(tx, auth.tenantId, taskId))
    await repo.addAssignee(tx, auth.tenantId, id, a.userId);
  await repo.copyChecklist(tx, auth.tenantId, taskId, id);
  await repo.refreshAssigneeNames(tx, auth.tenantId, id);
  await repo.refreshChecklistCounts(tx, auth.tenantId, id);
  if (t.ProjectId !== null) await repo.refreshProjectProgress(tx, auth.tenantId, t.ProjectId);
  await repo.refreshTaskSearch(tx, auth.tenantId, id);
  await audit(tx, auth, {
    action: 'create',
    entity: 'tasks',
    entityId: String(id),
    after: { Title: t.Title, DueAt: dueAt.toISOString(), RepeatOf: taskId },
  });
  return id;
}

/** The templates a project can be made from. */
export async function templateOptions(tx: Tx, auth: AuthContext) {
  return { Templates: (await repo.templates(tx, auth.tenantId)).map(({ ResultType: _r, ...t }) => t) };
}

/**
 * A project made from a template: its tasks due at their offsets from the project's due date, at their time of day
 * in the association's timezone (09:00 when the template names none), with their checklists.
 */
export async function instantiateTemplate(
  tx: Tx,
  auth: AuthContext,
  templateId: number,
  input: InstantiateTemplate,
): Promise<{ ProjectId: number; TaskCount: number }> {
  const template = (await repo.templates(tx, auth.tenantId)).find((t) => t.TemplateId === templateId);
  if (!template) throw notFound();
  const timeZone = await timeZoneOf(tx, auth);
  if (input.OwnerUserId) {
    const owner = await repo.tenantUser(tx, auth.tenantId, input.OwnerUserId);
    if (owner?.loginType !== 'staff')
      throw badRequest('Choose a staff user as the owner.', { OwnerUserId: ['Choose a staff user.'] });
  }
  const projectId = await repo.insertProject(tx, auth.tenantId, {
    name: input.Name,
    description: template.Description,
    status: 'planned',
    startDate: input.StartDate ?? null,
    dueDate: input.DueDate,
    ownerUserId: input.OwnerUserId ?? null,
    resultType: template.ResultType,
    templateName: template.Name,
  });
  const tasks = await repo.templateTasks(tx, auth.tenantId, templateId);
  let order = 1;
  for (const t of tasks) {
    const dueAt = relativeDueAt(input.DueDate, t.offsetDays, (t.dueTime ?? '09:00').slice(0, 5), timeZone);
    const id = await repo.insertTask(tx, auth.tenantId, {
      projectId,
      title: t.title,
      description: null,
      status: 'todo',
      priority: t.priority ?? 'normal',
      dueAt,
      contactId: null,
      recurrenceFrequency: null,
      recurrenceInterval: null,
      sortOrder: order++,
      previousTaskId: null,
      createdBy: auth.userId,
    });
    const items = (t.checklist ?? '')
      .split('\n')
      .map((l) => l.trim())
      .filter((l) => l !== '');
    if (items.length > 0) {
      await repo.insertChecklistItems(tx, auth.tenantId, id, items);
      await repo.refreshChecklistCounts(tx, auth.tenantId, id);
    }
    if (input.OwnerUserId) {
      await repo.addAssignee(tx, auth.tenantId, id, input.OwnerUserId);
      await repo.refreshAssigneeNames(tx, auth.tenantId, id);
    }
    await repo.refreshTaskSearch(tx, auth.tenantId, id);
  }
  await repo.refreshProjectProgress(tx, auth.tenantId, projectId);
  await repo.refreshProjectSearch(tx, auth.tenantId, projectId);
  await audit(tx, auth, {
    action: 'create',
    entity: 'projects',
    entityId: String(projectId),
    after: { Name: input.Name, DueDate: input.DueDate, Template: template.Name, Tasks: tasks.length },
  });
  return { ProjectId: projectId, TaskCount: tasks.length };
}

/** The activity of a project: who changed it or its tasks, and what. */
export async function projectActivity(
  tx: Tx,
  auth: AuthContext,
  projectId: number,
): Promise<ProjectActivity> {
  const name = await repo.projectName(tx, auth.tenantId, projectId);
  if (name === null) throw notFound();
  const timeZone = await timeZoneOf(tx, auth);
  const rows = await repo.projectActivity(tx, auth.tenantId, projectId);
  const titles = await repo.taskTitles(
    tx,
    auth.tenantId,
    rows.filter((r) => r.entity === 'tasks' && r.entityId).map((r) => Number(r.entityId)),
  );
  const statusName = (s: unknown) => TASK_STATUSES.find((x) => x.Id === s)?.Name ?? String(s);
  return {
    Entries: rows.map((r) => {
      const before = (r.before ?? {}) as Record<string, unknown>;
      const after = (r.after ?? {}) as Record<string, unknown>;
      const what =
        r.entity === 'projects'
          ? `the project ${name}`
          : `the task "${titles.get(Number(r.entityId)) ?? `#${r.entityId}`}"`;
      let action = r.action === 'create' ? 'created' : r.action === 'delete' ? 'deleted' : 'changed';
      if (r.entity === 'tasks' && r.action === 'update' && before.Status !== after.Status && after.Status)
        action = `moved to ${statusName(after.Status)}`;
      return { At: formatInstant(r.at, timeZone), Who: r.who ?? 'The system', Action: action, What: what };
    }),
  };
}

/** Queues the mails of a comment's mentions (sent by the job after the comment commits). */
export async function mailMentions(
  services: Services,
  tx: Tx,
  auth: AuthContext,
  taskId: number,
  body: string,
  usernames: readonly string[],
): Promise<void> {
  const users = (await repo.staffByUsernames(tx, auth.tenantId, usernames)).filter(
    (u) => u.id !== auth.userId,
  );
  if (users.length === 0) return;
  await services.jobs.enqueue(tx, {
    tenantId: auth.tenantId,
    kind: MENTION_JOB,
    userId: auth.userId,
    payload: { taskId, body: body.slice(0, 4000), userIds: users.map((u) => u.id) },
  });
}

export function mentionHandler(services: Services): JobHandler {
  return async (database: Database, job: ClaimedJob) => {
    const taskId = Number(job.payload.taskId);
    const userIds = Array.isArray(job.payload.userIds) ? job.payload.userIds.map(Number) : [];
    if (!Number.isSafeInteger(taskId)) throw new PermanentJobError('No task.');
    const { task, recipients, author, org } = await withTenantTx(
      database.db,
      { tenantId: job.tenantId },
      async (tx) => ({
        task: await repo.findTask(tx, job.tenantId, taskId),
        recipients: (await Promise.all(userIds.map((id) => repo.tenantUser(tx, job.tenantId, id)))).filter(
          (u) => u !== null,
        ),
        author: job.userId === null ? null : await repo.tenantUser(tx, job.tenantId, job.userId),
        org: await repo.tenantName(tx, job.tenantId),
      }),
    );
    if (!task || task.IsDeleted) return;
    const base = services.config.publicUrl.replace(/\/$/, '');
    for (const r of recipients) {
      await communicationsApi.sendSystemMail(services, job.tenantId, taskMentionMail, {
        to: r.email,
        values: {
          'User.DisplayName': r.displayName,
          'Mention.Author': author?.displayName ?? 'A colleague',
          'Mention.Comment': String(job.payload.body ?? ''),
          'Task.Title': task.Title,
          'Task.Project': task.ProjectName ? ` of the project ${task.ProjectName}` : '',
          'Task.Link': `${base}/micronet/list/tasks/tasks/${task.TaskId}`,
        },
      });
    }
  };
}

/**
 * The daily reminders of one association: each assignee gets one mail listing their open tasks overdue or due today
 * (in the association's timezone), and a task is in an assignee's mail once per day whatever runs the job again.
 * The reminder rows are claimed and the mails queued in one transaction, so a second run the same day finds nothing
 * to claim; the mails go through the platform mailer (the outbox).
 */
export async function sendReminders(
  services: Services,
  database: Database,
  tenantId: string,
  now: Date = new Date(),
): Promise<{ mails: number; tasks: number }> {
  const plan = await withTenantTx(database.db, { tenantId }, async (tx) => {
    const timeZone = resolveTimeZone((await repo.tenantTimezone(tx, tenantId)) ?? DEFAULT_TIMEZONE);
    const day = zonedDate(now, timeZone);
    // Due before the end of the association's day: the next day's midnight there.
    const endOfDay = relativeDueAt(day, 1, '00:00', timeZone);
    const rows = (await repo.dueAssignments(tx, tenantId, endOfDay)).filter(
      (r) => r.loginType === 'staff' && r.isActive,
    );
    const claimed = await repo.claimReminders(
      tx,
      tenantId,
      day,
      rows.map((r) => ({ taskId: r.taskId, userId: r.userId })),
    );
    const byUser = new Map<number, typeof rows>();
    for (const r of rows) {
      if (!claimed.has(`${r.taskId}:${r.userId}`)) continue;
      const list = byUser.get(r.userId) ?? [];
      list.push(r);
      byUser.set(r.userId, list);
    }
    return { byUser, timeZone, org: await repo.tenantName(tx, tenantId) };
  });
  let mails = 0;
  let tasks = 0;
  for (const list of plan.byUser.values()) {
    const first = list[0];
    if (!first) continue;
    const overdue = list.filter((r) => r.dueAt.getTime() < now.getTime());
    const today = list.filter((r) => r.dueAt.getTime() >= now.getTime());
    const line = (r: (typeof list)[number]) =>
      `${r.title}${r.projectName ? ` (${r.projectName})` : ''}: due ${formatInstant(r.dueAt, plan.timeZone)}`;
    await communicationsApi.sendSystemMail(services, tenantId, taskReminderMail, {
      to: first.email,
      values: {
        'User.DisplayName': first.displayName,
        'Reminder.Summary': reminderSummary(overdue.length, today.length),
        'Reminder.Link': `${services.config.publicUrl.replace(/\/$/, '')}/a/tasks/my`,
      },
      lists: {
        'Reminder.Tasks': [
          { heading: 'Overdue', items: overdue.map(line) },
          { heading: 'Due today', items: today.map(line) },
        ],
      },
    });
    mails++;
    tasks += list.length;
  }
  return { mails, tasks };
}

export function reminderHandler(services: Services): JobHandler {
  return async (database: Database, job: ClaimedJob) => {
    const at = typeof job.payload.at === 'string' ? new Date(job.payload.at) : new Date();
    await sendReminders(services, database, job.tenantId, Number.isNaN(at.getTime()) ? new Date() : at);
  };
}
