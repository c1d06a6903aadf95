/**
 * The SQL of tasks and projects beyond the generic layer: dependencies, derived fields (assignee names, checklist
 * counts, project progress), the board, My tasks, templates, reminders and search documents. Every statement
 * names its tenant explicitly besides row-level security.
 */
import { rowsOf, searchDocuments, type Tx } from '@guildhall/db';
import { foldSearchText, type SearchDocumentInput, searchTextOf } from '@guildhall/shared';
import { sql } from 'drizzle-orm';

const num = (v: unknown) => (v === null || v === undefined ? null : Number(v));

export interface TaskRow {
  TaskId: number;
  Title: string;
  Status: string;
  Priority: string;
  DueAt: Date | null;
  AssigneeNames: string | null;
  ProjectId: number | null;
  ProjectName: string | null;
  SortOrder: number;
  ChecklistDone: number;
  ChecklistTotal: number;
  RecurrenceFrequency: string | null;
  RecurrenceInterval: number | null;
  ContactId: number | null;
  Description: string | null;
  IsDeleted: boolean;
}

const TASK_COLUMNS = sql`t.task_id, t.title, t.status, t.priority, t.due_at, t.assignee_names, t.project_id,
  p.name as project_name, t.sort_order, t.checklist_done, t.checklist_total, t.recurrence_frequency,
  t.recurrence_interval, t.contact_id, t.description, t.is_deleted`;

function taskOf(r: Record<string, unknown>): TaskRow {
  return {
    TaskId: Number(r.task_id),
    Title: String(r.title),
    Status: String(r.status),
    Priority: String(r.priority),
    DueAt: r.due_at === null || r.due_at === undefined ? null : new Date(r.due_at as string),
    AssigneeNames: (r.assignee_names as string | null) ?? null,
    ProjectId: num(r.project_id),
    ProjectName: (r.project_name as string | null) ?? null,
    SortOrder: Number(r.sort_order ?? 0),
    ChecklistDone: Number(r.checklist_done ?? 0),
    ChecklistTotal: Number(r.checklist_total ?? 0),
    RecurrenceFrequency: (r.recurrence_frequency as string | null) ?? null,
    RecurrenceInterval: num(r.recurrence_interval),
    ContactId: num(r.contact_id),
    Description: (r.description as string | null) ?? null,
    IsDeleted: r.is_deleted === true,
  };
}

export async function findTask(tx: Tx, tenantId: string, taskId: number): Promise<TaskRow | null> {
  const [r] = rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select ${TASK_COLUMNS} from tasks t
        left join projects p on p.tenant_id = t.tenant_id and p.project_id = t.project_id
       where t.tenant_id = ${tenantId} and t.task_id = ${taskId}`),
  );
  return r ? taskOf(r) : null;
}

/** The live tasks of a project, in board order. */
export async function projectTasks(tx: Tx, tenantId: string, projectId: number): Promise<TaskRow[]> {
  return rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select ${TASK_COLUMNS} from tasks t
        left join projects p on p.tenant_id = t.tenant_id and p.project_id = t.project_id
       where t.tenant_id = ${tenantId} and t.project_id = ${projectId} and not t.is_deleted
       order by t.sort_order, t.due_at nulls last, t.task_id
       limit 2000`),
  ).map(taskOf);
}

/** Live tasks assigned to a user (open ones, or all), soonest due first. */
export async function userTasks(
  tx: Tx,
  tenantId: string,
  userId: number,
  include: 'open' | 'all',
): Promise<TaskRow[]> {
  const open = include === 'open' ? sql`and t.status not in ('done', 'cancelled')` : sql``;
  return rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select ${TASK_COLUMNS} from tasks t
        left join projects p on p.tenant_id = t.tenant_id and p.project_id = t.project_id
       where t.tenant_id = ${tenantId} and not t.is_deleted ${open}
         and exists (select 1 from task_assignees a
                      where a.tenant_id = t.tenant_id and a.task_id = t.task_id and a.user_id = ${userId}
                        and not a.is_deleted)
       order by t.due_at nulls last, t.task_id
       limit 500`),
  ).map(taskOf);
}

/** Titles and statuses of the live tasks each of these tasks waits on. */
export async function blockersOf(
  tx: Tx,
  tenantId: string,
  taskIds: readonly number[],
): Promise<Map<number, { TaskId: number; Title: string; Status: string }[]>> {
  const out = new Map<number, { TaskId: number; Title: string; Status: string }[]>();
  if (taskIds.length === 0) return out;
  const rows = rowsOf<{ task_id: string; depends_on: string; title: string; status: string }>(
    await tx.execute(sql`
      select d.task_id, d.depends_on_task_id as depends_on, b.title, b.status
        from task_dependencies d
        join tasks b on b.tenant_id = d.tenant_id and b.task_id = d.depends_on_task_id and not b.is_deleted
       where d.tenant_id = ${tenantId} and not d.is_deleted
         and d.task_id in (${sql.join(
           taskIds.map((id) => sql`${id}`),
           sql`, `,
         )})`),
  );
  for (const r of rows) {
    const id = Number(r.task_id);
    const list = out.get(id) ?? [];
    list.push({ TaskId: Number(r.depends_on), Title: r.title, Status: r.status });
    out.set(id, list);
  }
  return out;
}

/** Every live dependency of the association's live tasks (the graph a new one is checked against). */
export async function dependencyEdges(
  tx: Tx,
  tenantId: string,
): Promise<{ taskId: number; dependsOn: number }[]> {
  return rowsOf<{ task_id: string; depends_on: string }>(
    await tx.execute(sql`
      select d.task_id, d.depends_on_task_id as depends_on from task_dependencies d
       where d.tenant_id = ${tenantId} and not d.is_deleted`),
  ).map((r) => ({ taskId: Number(r.task_id), dependsOn: Number(r.depends_on) }));
}

export async function taskTitles(
  tx: Tx,
  tenantId: string,
  ids: readonly number[],
): Promise<Map<number, string>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<{ task_id: string; title: string }>(
    await tx.execute(sql`
      select task_id, title from tasks where tenant_id = ${tenantId}
         and task_id in (${sql.join(
           ids.map((id) => sql`${id}`),
           sql`, `,
         )})`),
  );
  return new Map(rows.map((r) => [Number(r.task_id), r.title]));
}

export async function dependencyExists(
  tx: Tx,
  tenantId: string,
  taskId: number,
  dependsOn: number,
): Promise<boolean> {
  const [r] = rowsOf<{ n: number }>(
    await tx.execute(sql`
      select 1 as n from task_dependencies where tenant_id = ${tenantId} and task_id = ${taskId}
         and depends_on_task_id = ${dependsOn} and not is_deleted limit 1`),
  );
  return r !== undefined;
}

/** A user of the association with their login type (assignees must be staff). */
export async function tenantUser(
  tx: Tx,
  tenantId: string,
  userId: number,
): Promise<{ id: number; username: string; email: string; displayName: string; loginType: string } | null> {
  const [r] = rowsOf<{
    user_id: string;
    username: string;
    email: string;
    display_name: string;
    login_type: string;
  }>(
    await tx.execute(sql`
      select user_id, username, email, display_name, login_type from user_directory
       where tenant_id = ${tenantId} and user_id = ${userId}`),
  );
  return r
    ? {
        id: Number(r.user_id),
        username: r.username,
        email: r.email,
        displayName: r.display_name,
        loginType: r.login_type,
      }
    : null;
}

/** Staff users of the association by username (lower-case), for mentions. */
export async function staffByUsernames(
  tx: Tx,
  tenantId: string,
  usernames: readonly string[],
): Promise<{ id: number; username: string; email: string; displayName: string }[]> {
  if (usernames.length === 0) return [];
  return rowsOf<{ user_id: string; username: string; email: string; display_name: string }>(
    await tx.execute(sql`
      select user_id, username, email, display_name from user_directory
       where tenant_id = ${tenantId} and login_type = 'staff' and is_active
         and lower(username) in (${sql.join(
           usernames.map((u) => sql`${u}`),
           sql`, `,
         )})`),
  ).map((r) => ({
    id: Number(r.user_id),
    username: r.username,
    email: r.email,
    displayName: r.display_name,
  }));
}

/** Rewrites a task's assignee names from its live assignees. */
export async function refreshAssigneeNames(tx: Tx, tenantId: string, taskId: number): Promise<void> {
  await tx.execute(sql`
    update tasks t set assignee_names = (
      select string_agg(u.display_name, ', ' order by u.display_name) from task_assignees a
        join user_directory u on u.tenant_id = a.tenant_id and u.user_id = a.user_id
       where a.tenant_id = t.tenant_id and a.task_id = t.task_id and not a.is_deleted)
     where t.tenant_id = ${tenantId} and t.task_id = ${taskId}`);
}

export async function refreshChecklistCounts(tx: Tx, tenantId: string, taskId: number): Promise<void> {
  await tx.execute(sql`
    update tasks t set
      checklist_total = (select count(*) from task_checklist_items c
                          where c.tenant_id = t.tenant_id and c.task_id = t.task_id and not c.is_deleted),
      checklist_done = (select count(*) from task_checklist_items c
                         where c.tenant_id = t.tenant_id and c.task_id = t.task_id and not c.is_deleted and c.is_done)
     where t.tenant_id = ${tenantId} and t.task_id = ${taskId}`);
}

/** Recounts a project's tasks and progress (finished among those not cancelled). */
export async function refreshProjectProgress(tx: Tx, tenantId: string, projectId: number): Promise<void> {
  await tx.execute(sql`
    update projects p set
      task_count = s.total, open_task_count = s.open,
      progress = case when s.counted = 0 then 0 else floor(100.0 * s.done / s.counted)::int end
      from (select count(*) filter (where true) as total,
                   count(*) filter (where status not in ('done', 'cancelled')) as open,
                   count(*) filter (where status <> 'cancelled') as counted,
                   count(*) filter (where status = 'done') as done
              from tasks where tenant_id = ${tenantId} and project_id = ${projectId} and not is_deleted) s
     where p.tenant_id = ${tenantId} and p.project_id = ${projectId}`);
}

export async function setCompletedAt(
  tx: Tx,
  tenantId: string,
  taskId: number,
  at: Date | null,
): Promise<void> {
  await tx.execute(
    sql`update tasks set completed_at = ${at} where tenant_id = ${tenantId} and task_id = ${taskId}`,
  );
}

/** Places a card: its status and sort order. */
export async function placeTask(
  tx: Tx,
  tenantId: string,
  taskId: number,
  status: string,
  sortOrder: number,
): Promise<void> {
  await tx.execute(sql`
    update tasks set status = ${status}, sort_order = ${sortOrder}, updated_at = now()
     where tenant_id = ${tenantId} and task_id = ${taskId}`);
}

export async function setSortOrder(
  tx: Tx,
  tenantId: string,
  taskId: number,
  sortOrder: number,
): Promise<void> {
  await tx.execute(
    sql`update tasks set sort_order = ${sortOrder} where tenant_id = ${tenantId} and task_id = ${taskId}`,
  );
}

/** The next free place at the end of a project's board column. */
export async function nextSortOrder(tx: Tx, tenantId: string, projectId: number | null): Promise<number> {
  const [r] = rowsOf<{ n: number | string | null }>(
    await tx.execute(sql`
      select coalesce(max(sort_order), 0) + 1 as n from tasks
       where tenant_id = ${tenantId} and project_id is not distinct from ${projectId}`),
  );
  return Number(r?.n ?? 1);
}

export async function projectName(tx: Tx, tenantId: string, projectId: number): Promise<string | null> {
  const [r] = rowsOf<{ name: string }>(
    await tx.execute(
      sql`select name from projects where tenant_id = ${tenantId} and project_id = ${projectId}`,
    ),
  );
  return r?.name ?? null;
}

/** Assignees of a task (live) with their mail addresses. */
export async function assigneesOf(tx: Tx, tenantId: string, taskId: number): Promise<{ userId: number }[]> {
  return rowsOf<{ user_id: string }>(
    await tx.execute(sql`
      select user_id from task_assignees where tenant_id = ${tenantId} and task_id = ${taskId} and not is_deleted`),
  ).map((r) => ({ userId: Number(r.user_id) }));
}

export async function addAssignee(tx: Tx, tenantId: string, taskId: number, userId: number): Promise<void> {
  await tx.execute(
    sql`insert into task_assignees (tenant_id, task_id, user_id) values (${tenantId}, ${taskId}, ${userId})`,
  );
}

export async function copyChecklist(
  tx: Tx,
  tenantId: string,
  fromTask: number,
  toTask: number,
): Promise<void> {
  await tx.execute(sql`
    insert into task_checklist_items (tenant_id, task_id, title, is_done, sort_order)
    select tenant_id, ${toTask}, title, false, sort_order from task_checklist_items
     where tenant_id = ${tenantId} and task_id = ${fromTask} and not is_deleted`);
}

/** Inserts a task and answers its id. */
export async function insertTask(
  tx: Tx,
  tenantId: string,
  t: {
    projectId: number | null;
    title: string;
    description: string | null;
    status: string;
    priority: string;
    dueAt: Date | null;
    contactId: number | null;
    recurrenceFrequency: string | null;
    recurrenceInterval: number | null;
    sortOrder: number;
    previousTaskId: number | null;
    createdBy: number | null;
  },
): Promise<number> {
  const [r] = rowsOf<{ task_id: string }>(
    await tx.execute(sql`
      insert into tasks (tenant_id, project_id, title, description, status, priority, due_at, contact_id,
                         recurrence_frequency, recurrence_interval, sort_order, previous_task_id, created_by)
      values (${tenantId}, ${t.projectId}, ${t.title}, ${t.description}, ${t.status}, ${t.priority}, ${t.dueAt},
              ${t.contactId}, ${t.recurrenceFrequency}, ${t.recurrenceInterval}, ${t.sortOrder},
              ${t.previousTaskId}, ${t.createdBy})
      returning task_id`),
  );
  if (!r) throw new Error('task insert returned nothing');
  return Number(r.task_id);
}

export async function followUpExists(tx: Tx, tenantId: string, taskId: number): Promise<boolean> {
  const [r] = rowsOf<{ n: number }>(
    await tx.execute(sql`
      select 1 as n from tasks where tenant_id = ${tenantId} and previous_task_id = ${taskId} limit 1`),
  );
  return r !== undefined;
}

export async function insertChecklistItems(
  tx: Tx,
  tenantId: string,
  taskId: number,
  titles: readonly string[],
): Promise<void> {
  let order = 1;
  for (const title of titles) {
    await tx.execute(sql`
      insert into task_checklist_items (tenant_id, task_id, title, sort_order)
      values (${tenantId}, ${taskId}, ${title}, ${order++})`);
  }
}

export async function insertProject(
  tx: Tx,
  tenantId: string,
  p: {
    name: string;
    description: string | null;
    status: string;
    startDate: string | null;
    dueDate: string | null;
    ownerUserId: number | null;
    resultType: string | null;
    templateName: string | null;
  },
): Promise<number> {
  const [r] = rowsOf<{ project_id: string }>(
    await tx.execute(sql`
      insert into projects (tenant_id, name, description, status, start_date, due_date, owner_user_id, result_type,
                            template_name)
      values (${tenantId}, ${p.name}, ${p.description}, ${p.status}, ${p.startDate}, ${p.dueDate}, ${p.ownerUserId},
              ${p.resultType}, ${p.templateName})
      returning project_id`),
  );
  if (!r) throw new Error('project insert returned nothing');
  return Number(r.project_id);
}

export interface TemplateRow {
  TemplateId: number;
  Name: string;
  Description: string | null;
  ResultType: string | null;
  TaskCount: number;
}

export async function templates(tx: Tx, tenantId: string): Promise<TemplateRow[]> {
  return rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select t.template_id, t.name, t.description, t.result_type,
             (select count(*) from project_template_tasks x
               where x.tenant_id = t.tenant_id and x.template_id = t.template_id and not x.is_deleted) as task_count
        from project_templates t
       where t.tenant_id = ${tenantId} and not t.is_deleted
       order by t.name limit 200`),
  ).map((r) => ({
    TemplateId: Number(r.template_id),
    Name: String(r.name),
    Description: (r.description as string | null) ?? null,
    ResultType: (r.result_type as string | null) ?? null,
    TaskCount: Number(r.task_count),
  }));
}

export async function templateTasks(
  tx: Tx,
  tenantId: string,
  templateId: number,
): Promise<
  {
    title: string;
    offsetDays: number;
    dueTime: string | null;
    priority: string | null;
    checklist: string | null;
  }[]
> {
  return rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select title, offset_days, due_time::text as due_time, priority, checklist from project_template_tasks
       where tenant_id = ${tenantId} and template_id = ${templateId} and not is_deleted
       order by offset_days, template_task_id limit 500`),
  ).map((r) => ({
    title: String(r.title),
    offsetDays: Number(r.offset_days),
    dueTime: (r.due_time as string | null) ?? null,
    priority: (r.priority as string | null) ?? null,
    checklist: (r.checklist as string | null) ?? null,
  }));
}

/** Open tasks of the association due by `until` with their live assignees (the reminder run's input). */
export async function dueAssignments(
  tx: Tx,
  tenantId: string,
  until: Date,
): Promise<
  {
    taskId: number;
    title: string;
    dueAt: Date;
    projectName: string | null;
    userId: number;
    email: string;
    displayName: string;
    loginType: string;
    isActive: boolean;
  }[]
> {
  return rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select t.task_id, t.title, t.due_at, p.name as project_name, u.user_id, u.email, u.display_name,
             u.login_type, u.is_active
        from tasks t
        join task_assignees a on a.tenant_id = t.tenant_id and a.task_id = t.task_id and not a.is_deleted
        join user_directory u on u.tenant_id = a.tenant_id and u.user_id = a.user_id
        left join projects p on p.tenant_id = t.tenant_id and p.project_id = t.project_id
       where t.tenant_id = ${tenantId} and not t.is_deleted and t.status not in ('done', 'cancelled')
         and t.due_at is not null and t.due_at < ${until}
       order by u.user_id, t.due_at, t.task_id
       limit 20000`),
  ).map((r) => ({
    taskId: Number(r.task_id),
    title: String(r.title),
    dueAt: new Date(r.due_at as string),
    projectName: (r.project_name as string | null) ?? null,
    userId: Number(r.user_id),
    email: String(r.email),
    displayName: String(r.display_name),
    loginType: String(r.login_type),
    isActive: r.is_active === true,
  }));
}

/** Claims the reminders of a day: answers the (task, user) pairs that were not reminded yet, now marked. */
export async function claimReminders(
  tx: Tx,
  tenantId: string,
  day: string,
  pairs: readonly { taskId: number; userId: number }[],
): Promise<Set<string>> {
  if (pairs.length === 0) return new Set();
  const rows = rowsOf<{ task_id: string; user_id: string }>(
    await tx.execute(sql`
      insert into task_reminders (tenant_id, task_id, user_id, day)
      values ${sql.join(
        pairs.map((p) => sql`(${tenantId}, ${p.taskId}, ${p.userId}, ${day})`),
        sql`, `,
      )}
      on conflict do nothing
      returning task_id, user_id`),
  );
  return new Set(rows.map((r) => `${r.task_id}:${r.user_id}`));
}

/** Tenants having any open task with a due date (the reminder run visits only these). */
export async function tenantTimezone(tx: Tx, tenantId: string): Promise<string | null> {
  const [r] = rowsOf<{ tz: string | null }>(
    await tx.execute(sql`select settings->>'defaultTimezone' as tz from tenants where id = ${tenantId}`),
  );
  return r?.tz ?? null;
}

/** The audit entries of a project and of its tasks, newest first. */
export async function projectActivity(
  tx: Tx,
  tenantId: string,
  projectId: number,
): Promise<
  {
    at: Date;
    who: string | null;
    action: string;
    entity: string;
    entityId: string | null;
    before: unknown;
    after: unknown;
  }[]
> {
  return rowsOf<Record<string, unknown>>(
    await tx.execute(sql`
      select l.at, u.display_name as who, l.action, l.entity, l.entity_id, l.before, l.after
        from audit_log l
        left join user_directory u on u.tenant_id = l.tenant_id and u.user_id = l.actor_user_id
       where l.tenant_id = ${tenantId}
         and ((l.entity = 'projects' and l.entity_id = ${String(projectId)})
           or (l.entity = 'tasks' and l.entity_id in (
                 select task_id::text from tasks where tenant_id = ${tenantId} and project_id = ${projectId})))
       order by l.at desc limit 100`),
  ).map((r) => ({
    at: new Date(r.at as string),
    who: (r.who as string | null) ?? null,
    action: String(r.action),
    entity: String(r.entity),
    entityId: (r.entity_id as string | null) ?? null,
    before: r.before,
    after: r.after,
  }));
}

async function insertDocuments(
  tx: Tx,
  tenantId: string,
  docs: readonly SearchDocumentInput[],
): Promise<void> {
  if (docs.length > 0)
    await tx.insert(searchDocuments).values(docs.map((d) => ({ ...d, tenantId, updatedAt: new Date() })));
}

/** Rewrites a project's staff search document. */
export async function refreshProjectSearch(tx: Tx, tenantId: string, projectId: number): Promise<void> {
  const [p] = rowsOf<{ name: string; status: string; related_name: string | null; is_deleted: boolean }>(
    await tx.execute(sql`
      select name, status, related_name, is_deleted from projects
       where tenant_id = ${tenantId} and project_id = ${projectId}`),
  );
  const docs: SearchDocumentInput[] =
    p && !p.is_deleted
      ? [
          {
            audience: 'staff',
            entityType: 'Project',
            entityId: String(projectId),
            title: p.name,
            titleKey: foldSearchText(p.name),
            searchText: searchTextOf([p.name, p.related_name]),
            facets: { Status: p.status, RelatedTo: p.related_name },
          },
        ]
      : [];
  await tx.execute(sql`
    delete from search_documents where tenant_id = ${tenantId} and entity_type = 'Project'
       and entity_id = ${String(projectId)}`);
  await insertDocuments(tx, tenantId, docs);
}

/**
 * Rewrites a task's staff search document. Its id is "<project>-<task>" so that the hit opens the project's screen
 * (TasksProject.General) on the task; a task of no project is "0-<task>" and opens the task itself.
 */
export async function refreshTaskSearch(tx: Tx, tenantId: string, taskId: number): Promise<void> {
  const t = await findTask(tx, tenantId, taskId);
  await tx.execute(sql`
    delete from search_documents where tenant_id = ${tenantId} and entity_type = 'Task'
       and entity_id like ${`%-${taskId}`}`);
  if (!t || t.IsDeleted) return;
  const docs: SearchDocumentInput[] = [
    {
      audience: 'staff',
      entityType: 'Task',
      entityId: `${t.ProjectId ?? 0}-${taskId}`,
      title: t.Title,
      titleKey: foldSearchText(t.Title),
      searchText: searchTextOf([t.Title, t.AssigneeNames, t.ProjectName]),
      facets: { Status: t.Status, RelatedTo: t.ProjectName },
    },
  ];
  await insertDocuments(tx, tenantId, docs);
}

/** Names a comment's author (the signed-in user who wrote it). */
export async function setCommentAuthor(
  tx: Tx,
  tenantId: string,
  commentId: number,
  userId: number,
): Promise<void> {
  await tx.execute(sql`
    update task_comments c set author_user_id = ${userId},
           author_name = (select display_name from user_directory u where u.tenant_id = c.tenant_id and u.user_id = ${userId})
     where c.tenant_id = ${tenantId} and c.comment_id = ${commentId}`);
}

/** The association's name (for mails). */
export async function tenantName(tx: Tx, tenantId: string): Promise<string> {
  const [r] = rowsOf<{ name: string }>(
    await tx.execute(sql`select name from tenants where id = ${tenantId}`),
  );
  return r?.name ?? '';
}

/**
 * Rewrites the names a task's lists show instead of ids: its project's, its related contact's and its event's
 * (decision 0180, amended). Kept by the task's own writes and by its project's.
 */
export async function refreshTaskNames(tx: Tx, tenantId: string, taskId: number): Promise<void> {
  await tx.execute(sql`
    update tasks t set
      project_name = (select p.name from projects p where p.tenant_id = t.tenant_id and p.project_id = t.project_id),
      contact_name = (select c.display_name from contacts c
                       where c.tenant_id = t.tenant_id and c.contact_id = t.contact_id),
      event_name = (select e.name from events e where e.tenant_id = t.tenant_id and e.event_id = t.event_id)
     where t.tenant_id = ${tenantId} and t.task_id = ${taskId}`);
}

/** A project's owner and related contact, event and membership type names, and its name on its tasks. */
export async function refreshProjectNames(tx: Tx, tenantId: string, projectId: number): Promise<void> {
  await tx.execute(sql`
    update projects p set
      owner_name = (select u.display_name from user_directory u
                     where u.tenant_id = p.tenant_id and u.user_id = p.owner_user_id),
      related_contact_name = (select c.display_name from contacts c
                               where c.tenant_id = p.tenant_id and c.contact_id = p.related_contact_id),
      related_event_name = (select e.name from events e
                             where e.tenant_id = p.tenant_id and e.event_id = p.related_event_id),
      related_membership_type_name = (select m.name from membership_types m
                                       where m.tenant_id = p.tenant_id
                                         and m.membership_type_id = p.related_membership_type_id)
     where p.tenant_id = ${tenantId} and p.project_id = ${projectId}`);
  await tx.execute(sql`
    update tasks t set project_name = p.name from projects p
     where p.tenant_id = ${tenantId} and p.project_id = ${projectId}
       and t.tenant_id = p.tenant_id and t.project_id = p.project_id
       and t.project_name is distinct from p.name`);
}
