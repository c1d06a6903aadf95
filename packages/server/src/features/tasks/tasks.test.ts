/**
 * Tasks and projects through the API: dependencies and their cycles, the start rule on saves and on the board,
 * recurrence and templates across a daylight saving change, reminders sent once per day and task, mentions mailed,
 * My tasks, search hits for staff only, and members who never see a task.
 */
import { withTenantTx } from '@guildhall/db';
import type { MyTasks, SearchAnswer, TaskCard } from '@guildhall/shared';
import { sql } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  client,
  seedTenant,
  signIn,
  type TenantWithUsers,
  type TestContext,
  testApp,
} from '../../../test/helpers.ts';
import { queueDaily } from '../../platform/jobs.ts';
import { REMINDER_JOB, sendReminders } from './tasks.service.ts';

type Model = Record<string, unknown>;
type Client = ReturnType<typeof client>;

let ctx: TestContext;
let t: TenantWithUsers;
let other: TenantWithUsers;
let api: Client;
let admin: Client;
let member: Client;
let apiOther: Client;
let staffUser: { displayName: string; email: string };
let adminUser: { displayName: string; email: string };

async function save(c: Client, path: string, view: string, model: Model): Promise<Model> {
  const res = await c.post(`/api/tasks/${path}/${view}Save`, model);
  expect(res.statusCode, res.body).toBe(200);
  return (res.json() as { Data: Model }).Data;
}
const project = (model: Model) => save(api, 'projects', 'project', { Status: 'active', ...model });
const task = (model: Model) => save(api, 'tasks', 'task', { Status: 'todo', Priority: 'normal', ...model });
const getTask = async (id: unknown) => (await api.post('/api/tasks/tasks/taskGet', { id })).json() as Model;
const waitOn = (taskId: unknown, dependsOn: unknown) =>
  api.post('/api/tasks/dependencies/dependencySave', { TaskId: taskId, DependsOnTaskId: dependsOn });

/** A user's name and address as the association's user list shows them. */
async function userOf(c: Client, id: number): Promise<{ displayName: string; email: string }> {
  const res = await c.get(`/api/users/${id}`);
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { displayName: string; email: string };
}

async function outbox(c: Client): Promise<{ id: number; to: string; subject: string }[]> {
  const res = await c.get('/api/mail/outbox');
  expect(res.statusCode, res.body).toBe(200);
  return res.json() as { id: number; to: string; subject: string }[];
}

beforeAll(async () => {
  ctx = await testApp();
  t = await seedTenant(ctx.database);
  other = await seedTenant(ctx.database);
  api = client(ctx.app, (await signIn(ctx.app, t.staff)).cookie);
  admin = client(ctx.app, (await signIn(ctx.app, t.admin)).cookie);
  member = client(ctx.app, (await signIn(ctx.app, t.member)).cookie);
  apiOther = client(ctx.app, (await signIn(ctx.app, other.staff)).cookie);
  staffUser = await userOf(admin, t.staff.id);
  adminUser = await userOf(admin, t.admin.id);
});
afterAll(async () => {
  await ctx?.close();
});

describe('projects and tasks', () => {
  it('keeps a project’s progress from its tasks and names the assignees', async () => {
    const p = await project({ Name: 'Website refresh', DueDate: '2026-12-01' });
    const a = await task({ Title: 'Choose a designer', ProjectId: p.ProjectId });
    await task({ Title: 'Write the copy', ProjectId: p.ProjectId });
    await task({ Title: 'Dropped idea', ProjectId: p.ProjectId, Status: 'cancelled' });
    // The creator is the first assignee.
    expect((await getTask(a.TaskId)).AssigneeNames).toBe(staffUser.displayName);
    const added = await api.post('/api/tasks/assignees/assigneeSave', {
      TaskId: a.TaskId,
      UserId: t.admin.id,
    });
    expect(added.statusCode, added.body).toBe(200);
    expect(String((await getTask(a.TaskId)).AssigneeNames)).toContain(adminUser.displayName);
    await save(api, 'tasks', 'task', { ...(await getTask(a.TaskId)), Status: 'done' });
    const got = (await api.post('/api/tasks/projects/projectGet', { id: p.ProjectId })).json() as Model;
    expect(got).toMatchObject({ Progress: 50, TaskCount: 3, OpenTaskCount: 1 });
    expect((await getTask(a.TaskId)).CompletedAt).toBeTruthy();
  });

  it('refuses a member as an assignee', async () => {
    const a = await task({ Title: 'Only for staff' });
    const res = await api.post('/api/tasks/assignees/assigneeSave', {
      TaskId: a.TaskId,
      UserId: t.member.id,
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe('Only staff users can be assigned tasks.');
  });

  it('saves a checklist item and counts it on the task without making the task’s version stale', async () => {
    const a = await task({ Title: 'Print the programme' });
    const before = await getTask(a.TaskId);
    await save(api, 'checklist', 'item', {
      TaskId: a.TaskId,
      Title: 'Proof read',
      IsDone: true,
      SortOrder: 1,
    });
    await save(api, 'checklist', 'item', { TaskId: a.TaskId, Title: 'Send to printer', SortOrder: 2 });
    const after = await getTask(a.TaskId);
    expect(after).toMatchObject({ ChecklistDone: 1, ChecklistTotal: 2, Version: before.Version });
    await save(api, 'tasks', 'task', { ...after, Priority: 'high' });
  });
});

describe('dependencies', () => {
  it('refuses to start a task before the tasks it waits on are done, then allows it', async () => {
    const venue = await task({ Title: 'Book the venue' });
    const catering = await task({ Title: 'Order catering' });
    expect((await waitOn(catering.TaskId, venue.TaskId)).statusCode).toBe(200);
    const res = await api.post('/api/tasks/tasks/taskSave', {
      ...(await getTask(catering.TaskId)),
      Status: 'in_progress',
    });
    expect(res.statusCode).toBe(400);
    expect(res.json().message).toBe(
      'This task cannot start before the tasks it waits on are done: "Book the venue".',
    );
    await save(api, 'tasks', 'task', { ...(await getTask(venue.TaskId)), Status: 'done' });
    await save(api, 'tasks', 'task', { ...(await getTask(catering.TaskId)), Status: 'in_progress' });
  });

  it('refuses a cycle with a message naming it, and a task waiting on itself', async () => {
    const a = await task({ Title: 'Draft the budget' });
    const b = await task({ Title: 'Board approval' });
    const c = await task({ Title: 'Publish the budget' });
    expect((await waitOn(b.TaskId, a.TaskId)).statusCode).toBe(200);
    expect((await waitOn(c.TaskId, b.TaskId)).statusCode).toBe(200);
    const cycle = await waitOn(a.TaskId, c.TaskId);
    expect(cycle.statusCode).toBe(400);
    expect(cycle.json().message).toBe(
      'This dependency would make a cycle: "Draft the budget" waits on "Publish the budget", which waits on "Board approval", which waits on "Draft the budget". Remove one of these dependencies first.',
    );
    expect(cycle.json().errors.DependsOnTaskId).toHaveLength(1);
    const self = await waitOn(a.TaskId, a.TaskId);
    expect(self.statusCode).toBe(400);
    expect(self.json().message).toBe('A task cannot wait on itself.');
    expect((await waitOn(b.TaskId, a.TaskId)).json().message).toBe('This task already waits on that task.');
  });

  it('refuses a move on the board while a task waits, and orders the column', async () => {
    const p = await project({ Name: 'Board project' });
    const a = await task({ Title: 'First', ProjectId: p.ProjectId });
    const b = await task({ Title: 'Second', ProjectId: p.ProjectId });
    const c = await task({ Title: 'Third', ProjectId: p.ProjectId });
    expect((await waitOn(c.TaskId, a.TaskId)).statusCode).toBe(200);
    const refused = await api.post('/api/tasks/board/move', { TaskId: c.TaskId, Status: 'in_progress' });
    expect(refused.statusCode).toBe(409);
    expect(refused.json().message).toContain('"First"');
    const moved = await api.post('/api/tasks/board/move', {
      TaskId: c.TaskId,
      Status: 'todo',
      BeforeTaskId: a.TaskId,
    });
    expect(moved.statusCode, moved.body).toBe(200);
    const board = (await api.get(`/api/tasks/board/${p.ProjectId}`)).json() as { Tasks: TaskCard[] };
    expect(board.Tasks.map((x) => x.Title)).toEqual(['Third', 'First', 'Second']);
    expect(board.Tasks[0]?.WaitingOn).toEqual(['First']);
    const done = await api.post('/api/tasks/board/move', { TaskId: b.TaskId, Status: 'done' });
    expect((done.json() as TaskCard).Status).toBe('done');
    const activity = (await api.get(`/api/tasks/projects/${p.ProjectId}/activity`)).json() as {
      Entries: { Action: string; What: string }[];
    };
    expect(activity.Entries.some((e) => e.Action === 'moved to Done' && e.What === 'the task "Second"')).toBe(
      true,
    );
  });
});

describe('recurrence and templates in the association’s timezone (America/Chicago)', () => {
  it('makes the next weekly occurrence at the same local time across the spring change', async () => {
    // 2 March 2026 09:00 CST (UTC-6); daylight saving starts 8 March; 9 March 09:00 is CDT (UTC-5).
    const weekly = await task({
      Title: 'Weekly newsletter',
      DueAt: '2026-03-02T15:00:00.000Z',
      RecurrenceFrequency: 'weekly',
      RecurrenceInterval: 1,
    });
    await save(api, 'checklist', 'item', {
      TaskId: weekly.TaskId,
      Title: 'Collect news',
      IsDone: true,
      SortOrder: 1,
    });
    await save(api, 'tasks', 'task', { ...(await getTask(weekly.TaskId)), Status: 'done' });
    // Reopened and done again: still one follow-up.
    await save(api, 'tasks', 'task', { ...(await getTask(weekly.TaskId)), Status: 'todo' });
    await save(api, 'tasks', 'task', { ...(await getTask(weekly.TaskId)), Status: 'done' });
    const next = await withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, (tx) =>
      tx.execute(
        sql`select task_id, due_at, status, checklist_done, checklist_total from tasks where previous_task_id = ${weekly.TaskId}`,
      ),
    );
    const rows = (next as unknown as { rows: Model[] }).rows;
    expect(rows).toHaveLength(1);
    expect(new Date(rows[0]?.due_at as string).toISOString()).toBe('2026-03-09T14:00:00.000Z');
    expect(rows[0]).toMatchObject({ status: 'todo', checklist_done: 0, checklist_total: 1 });
  });

  it('creates a project from a template with relative due dates across the autumn change', async () => {
    const tpl = await save(api, 'templates', 'template', { Name: 'Annual conference', ResultType: 'event' });
    await save(api, 'template-tasks', 'templateTask', {
      TemplateId: tpl.TemplateId,
      Title: 'Book the venue',
      OffsetDays: -120,
      DueTime: '09:00',
      Priority: 'high',
      Checklist: 'Shortlist three venues\nSign the contract',
    });
    await save(api, 'template-tasks', 'templateTask', {
      TemplateId: tpl.TemplateId,
      Title: 'Conference day',
      OffsetDays: 0,
      DueTime: '09:00',
    });
    const options = (await api.get('/api/tasks/template-options')).json() as {
      Templates: { TemplateId: number; TaskCount: number }[];
    };
    expect(options.Templates.find((x) => x.TemplateId === tpl.TemplateId)?.TaskCount).toBe(2);
    const made = await api.post(`/api/tasks/template-options/${tpl.TemplateId}/projects`, {
      Name: 'Annual conference 2026',
      DueDate: '2026-11-10',
      OwnerUserId: t.staff.id,
    });
    expect(made.statusCode, made.body).toBe(200);
    const { ProjectId, TaskCount } = made.json() as { ProjectId: number; TaskCount: number };
    expect(TaskCount).toBe(2);
    const board = (await api.get(`/api/tasks/board/${ProjectId}`)).json() as { Tasks: TaskCard[] };
    const due = Object.fromEntries(board.Tasks.map((x) => [x.Title, x.DueAt]));
    // 120 days before 10 November 2026 is 13 July, 09:00 CDT (UTC-5); 10 November 09:00 is CST (UTC-6).
    expect(due).toEqual({
      'Book the venue': '2026-07-13T14:00:00.000Z',
      'Conference day': '2026-11-10T15:00:00.000Z',
    });
    expect(board.Tasks[0]).toMatchObject({
      ChecklistTotal: 2,
      AssigneeNames: staffUser.displayName,
      Priority: 'high',
    });
    const p = (await api.post('/api/tasks/projects/projectGet', { id: ProjectId })).json() as Model;
    expect(p).toMatchObject({
      Name: 'Annual conference 2026',
      TemplateName: 'Annual conference',
      Status: 'planned',
    });
  });

  it('refuses a template of another association', async () => {
    const tpl = await save(api, 'templates', 'template', { Name: 'Private template' });
    const res = await apiOther.post(`/api/tasks/template-options/${tpl.TemplateId}/projects`, {
      Name: 'Stolen',
      DueDate: '2026-11-10',
    });
    expect(res.statusCode).toBe(404);
  });
});

describe('reminders, mentions and My tasks', () => {
  it('mails each assignee their overdue and due tasks once per day and task', async () => {
    const solo = await seedTenant(ctx.database);
    const soloApi = client(ctx.app, (await signIn(ctx.app, solo.staff)).cookie);
    const now = new Date();
    const yesterday = new Date(now.getTime() - 86_400_000).toISOString();
    const later = new Date(now.getTime() + 30 * 86_400_000).toISOString();
    await save(soloApi, 'tasks', 'task', {
      Title: 'Renew the insurance',
      Status: 'todo',
      Priority: 'high',
      DueAt: yesterday,
    });
    await save(soloApi, 'tasks', 'task', {
      Title: 'Far away',
      Status: 'todo',
      Priority: 'low',
      DueAt: later,
    });
    await save(soloApi, 'tasks', 'task', {
      Title: 'Finished',
      Status: 'done',
      Priority: 'low',
      DueAt: yesterday,
    });
    const first = await sendReminders(ctx.app.services, ctx.database, solo.tenant.id, now);
    expect(first).toEqual({ mails: 1, tasks: 1 });
    const again = await sendReminders(ctx.app.services, ctx.database, solo.tenant.id, now);
    expect(again).toEqual({ mails: 0, tasks: 0 });
    const soloAdmin = client(ctx.app, (await signIn(ctx.app, solo.admin)).cookie);
    expect((await soloAdmin.post('/api/tasks/reminders/run')).json()).toEqual({ mails: 0, tasks: 0 });
    const soloStaff = await userOf(soloAdmin, solo.staff.id);
    const mails = (await outbox(soloAdmin)).filter((m) => m.to === soloStaff.email);
    expect(mails.map((m) => m.subject)).toEqual(['Your tasks: 1 overdue']);
    expect((await soloApi.post('/api/tasks/reminders/run')).statusCode).toBe(403);
  });

  it('mails a mentioned colleague after the comment is saved', async () => {
    const a = await task({ Title: 'Sponsor letters' });
    await save(api, 'comments', 'comment', {
      TaskId: a.TaskId,
      Body: `@${t.admin.username} can you sign these?`,
    });
    let mails: { to: string; subject: string }[] = [];
    for (let i = 0; i < 100 && !mails.some((m) => m.to === adminUser.email); i++) {
      await new Promise((r) => setTimeout(r, 100));
      mails = await outbox(admin);
    }
    expect(mails.find((m) => m.to === adminUser.email)?.subject).toBe(
      `${staffUser.displayName} mentioned you on "Sponsor letters"`,
    );
    const comments = await api.post('/api/tasks/comments/commentData', {
      Criteria: [{ PropertyName: 'TaskId', Operator: 'eq', Value: a.TaskId }],
    });
    expect(comments.json().Results[0]).toMatchObject({ AuthorName: staffUser.displayName });
  });

  it('lists My tasks with the widget’s counts', async () => {
    const mine = await seedTenant(ctx.database);
    const mineApi = client(ctx.app, (await signIn(ctx.app, mine.staff)).cookie);
    const day = 86_400_000;
    await save(mineApi, 'tasks', 'task', {
      Title: 'Late',
      Status: 'todo',
      Priority: 'normal',
      DueAt: new Date(Date.now() - day).toISOString(),
    });
    await save(mineApi, 'tasks', 'task', {
      Title: 'Soon',
      Status: 'todo',
      Priority: 'normal',
      DueAt: new Date(Date.now() + 3 * day).toISOString(),
    });
    await save(mineApi, 'tasks', 'task', { Title: 'Someday', Status: 'todo', Priority: 'normal' });
    await save(mineApi, 'tasks', 'task', { Title: 'Closed', Status: 'done', Priority: 'normal' });
    const my = (await mineApi.get('/api/tasks/my')).json() as MyTasks;
    expect(my).toMatchObject({ Overdue: 1, DueThisWeek: 1, Open: 3 });
    expect(my.Tasks.map((x) => x.Title)).toEqual(['Late', 'Soon', 'Someday']);
    const all = (await mineApi.get('/api/tasks/my?include=all')).json() as MyTasks;
    expect(all.Tasks).toHaveLength(4);
  });
});

describe('who sees tasks', () => {
  it('finds projects and tasks in the staff search, opening the project’s screen', async () => {
    const p = await project({ Name: 'Membership drive Zephyrine' });
    const a = await task({ Title: 'Zephyrine flyers', ProjectId: p.ProjectId });
    const res = (await api.get('/api/search/global/backoffice/zephyrine?v=2')).json() as SearchAnswer;
    const hits = res.Records.map((h) => `${h.Type}:${h.Id}`);
    expect(hits).toContain(`Project:${p.ProjectId}`);
    expect(hits).toContain(`Task:${p.ProjectId}-${a.TaskId}`);
    const mic = (await member.get('/api/search/global/mic/zephyrine?v=2')).json() as SearchAnswer;
    expect(mic.Records).toEqual([]);
    const theirs = (await apiOther.get('/api/search/global/backoffice/zephyrine?v=2')).json() as SearchAnswer;
    expect(theirs.Records).toEqual([]);
  });

  it('never shows a member any task or project', async () => {
    for (const [method, url] of [
      ['POST', '/api/tasks/tasks/taskData'],
      ['POST', '/api/tasks/projects/projectData'],
      ['POST', '/api/tasks/comments/commentData'],
      ['GET', '/api/tasks/my'],
      ['GET', '/api/tasks/template-options'],
    ] as const) {
      const res = method === 'GET' ? await member.get(url) : await member.post(url, {});
      expect(res.statusCode, url).toBe(403);
    }
  });
});

describe('names instead of ids in the lists', () => {
  it('keeps the project, contact and owner names on tasks and projects, renamed with the project', async () => {
    const contact = await api.post('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Ines',
      LastName: 'Moreau',
    });
    expect(contact.statusCode, contact.body).toBe(200);
    const contactId = (contact.json() as { Data: Model }).Data.ContactId;
    const p = await project({ Name: 'Gala dinner', OwnerUserId: t.admin.id, RelatedContactId: contactId });
    const a = await task({ Title: 'Book the band', ProjectId: p.ProjectId, ContactId: contactId });
    const list = await api.post('/api/tasks/tasks/taskData?$top=50&$skip=0', { SearchText: 'Book the band' });
    expect(list.statusCode, list.body).toBe(200);
    const row = (list.json() as { Results: Model[] }).Results.find((r) => r.TaskId === a.TaskId);
    expect(row).toMatchObject({ ProjectName: 'Gala dinner', ContactName: 'Moreau, Ines' });
    const projects = await api.post('/api/tasks/projects/projectData?$top=50&$skip=0', {
      SearchText: 'Gala',
    });
    const prow = (projects.json() as { Results: Model[] }).Results.find((r) => r.ProjectId === p.ProjectId);
    expect(prow).toMatchObject({ OwnerName: adminUser.displayName, RelatedContactName: 'Moreau, Ines' });

    const before = await getTask(a.TaskId);
    await save(api, 'projects', 'project', { ...p, Name: 'Spring gala dinner' });
    const after = await getTask(a.TaskId);
    expect(after.ProjectName).toBe('Spring gala dinner');
    // A name kept by another record's write does not make the task stale.
    expect(after.Version).toBe(before.Version);
  });
});

describe('names that follow a rename of the record they name', () => {
  it('renames a task’s contact and event, and a project’s contact, event and membership type, without a conflict', async () => {
    const saved = async (path: string, model: Model) => {
      const res = await api.post(path, model);
      expect(res.statusCode, res.body).toBe(200);
      return (res.json() as { Data: Model }).Data;
    };
    const contact = await saved('/api/contacts/contacts/contactSave', {
      ContactType: 'individual',
      Status: 'active',
      FirstName: 'Lena',
      LastName: 'Vogel',
    });
    const day = new Date(Date.now() + 30 * 86_400_000);
    day.setUTCHours(18, 0, 0, 0);
    const event = await saved('/api/events/events/eventSave', {
      Name: 'Autumn congress',
      Status: 'draft',
      Visibility: 'public',
      StartsAt: day.toISOString(),
      EndsAt: new Date(day.getTime() + 3 * 3_600_000).toISOString(),
    });
    const type = await saved('/api/memberships/types/typeSave', {
      Name: 'Student',
      TermKind: 'anniversary',
      DurationMonths: 12,
      IsActive: true,
    });
    const p = await project({
      Name: 'Congress sponsorship',
      RelatedContactId: contact.ContactId,
      RelatedEventId: event.EventId,
      RelatedMembershipTypeId: type.MembershipTypeId,
    });
    const loaded = (await api.post('/api/tasks/projects/projectGet', { id: p.ProjectId })).json() as Model;
    expect(loaded).toMatchObject({
      RelatedContactName: 'Vogel, Lena',
      RelatedEventName: 'Autumn congress',
      RelatedMembershipTypeName: 'Student',
    });
    const a = await task({ Title: 'Call the sponsor', ContactId: contact.ContactId, EventId: event.EventId });
    const before = await getTask(a.TaskId);
    expect(before).toMatchObject({ ContactName: 'Vogel, Lena', EventName: 'Autumn congress' });

    await saved('/api/contacts/contacts/contactSave', { ...contact, LastName: 'Vogel-Brandt' });
    await saved('/api/events/events/eventSave', { ...event, Name: 'Autumn congress 2027' });
    await saved('/api/memberships/types/typeSave', { ...type, Name: 'Student (under 26)' });

    const after = await getTask(a.TaskId);
    expect(after).toMatchObject({ ContactName: 'Vogel-Brandt, Lena', EventName: 'Autumn congress 2027' });
    expect(after.Version).toBe(before.Version);
    const list = await api.post('/api/tasks/tasks/taskData?$top=50&$skip=0', {
      SearchText: 'Call the sponsor',
    });
    const row = (list.json() as { Results: Model[] }).Results.find((r) => r.TaskId === a.TaskId);
    expect(row).toMatchObject({ ContactName: 'Vogel-Brandt, Lena', EventName: 'Autumn congress 2027' });
    const prow = (await api.post('/api/tasks/projects/projectGet', { id: p.ProjectId })).json() as Model;
    expect(prow).toMatchObject({
      RelatedContactName: 'Vogel-Brandt, Lena',
      RelatedEventName: 'Autumn congress 2027',
      RelatedMembershipTypeName: 'Student (under 26)',
      Version: loaded.Version,
    });
    // The project saved from its form as it was loaded still saves (the kept names never raise a conflict).
    await project({ ...prow, Status: 'on_hold' });
  });

  it('refuses another association’s event as a project’s related event', async () => {
    const day = new Date(Date.now() + 40 * 86_400_000);
    const res = await apiOther.post('/api/events/events/eventSave', {
      Name: 'Their event',
      Status: 'draft',
      Visibility: 'public',
      StartsAt: day.toISOString(),
      EndsAt: new Date(day.getTime() + 3_600_000).toISOString(),
    });
    expect(res.statusCode, res.body).toBe(200);
    const theirs = (res.json() as { Data: Model }).Data.EventId;
    const mine = await api.post('/api/tasks/projects/projectSave', {
      Name: 'Borrowed event',
      Status: 'planned',
      RelatedEventId: theirs,
    });
    // Ids are numbered per association: the same number may be one of ours; otherwise it is refused.
    if (mine.statusCode === 200) {
      const saved = (mine.json() as { Data: Model }).Data;
      expect(saved.RelatedEventName).not.toBe('Their event');
    } else expect(mine.statusCode).toBe(400);
  });
});

describe('the daily reminder run', () => {
  it('is queued by the platform once a day per association, from 07:00 in its timezone', async () => {
    const tz = (await api.get('/api/auth/me')).json().tenant.settings.defaultTimezone as string;
    expect(tz).toBe('America/Chicago');
    const queued = () =>
      withTenantTx(ctx.database.db, { tenantId: t.tenant.id }, async (tx) => {
        const r = await tx.execute(
          sql`select count(*)::int as n from jobs where kind = ${REMINDER_JOB} and payload->>'day' = '2031-03-10'`,
        );
        return (r as unknown as { rows: { n: number }[] }).rows[0]?.n ?? 0;
      });
    // 06:00 in Chicago: not yet.
    await queueDaily(ctx.database, [REMINDER_JOB], new Date('2031-03-10T11:00:00Z'));
    expect(await queued()).toBe(0);
    // 09:00 in Chicago: queued once, however often the instances check.
    expect(await queueDaily(ctx.database, [REMINDER_JOB], new Date('2031-03-10T15:00:00Z'))).toBeGreaterThan(
      0,
    );
    await queueDaily(ctx.database, [REMINDER_JOB], new Date('2031-03-10T15:10:00Z'));
    await queueDaily(ctx.database, [REMINDER_JOB], new Date('2031-03-11T04:59:00Z'));
    expect(await queued()).toBe(1);
  });
});
