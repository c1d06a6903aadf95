/**
 * Tasks and projects: projects, their tasks with assignees, checklist items, dependencies and comments, project
 * templates with their tasks at relative due dates, and the record of reminder mails sent (one per day and task and
 * assignee). Tenant-owned: tenant_id first in every primary key and index, ids numbered per association, row-level
 * security forced (tasks_rls migration).
 */

import {
  parentFieldsOf,
  projectsResource,
  projectTemplatesResource,
  projectTemplateTasksResource,
  taskAssigneesResource,
  taskChecklistItemsResource,
  taskCommentsResource,
  taskDependenciesResource,
  tasksResource,
} from '@guildhall/shared';
import { bigint, boolean, date, index, integer, pgTable, primaryKey, text, time } from 'drizzle-orm/pg-core';
import { createdAt, recordVersion, resourceListIndexes, tenantId, tenantSerial, ts } from './columns.ts';
import { tenants } from './platform.ts';

const ALL = [
  projectsResource,
  tasksResource,
  taskAssigneesResource,
  taskChecklistItemsResource,
  taskDependenciesResource,
  taskCommentsResource,
  projectTemplatesResource,
  projectTemplateTasksResource,
];

export const projects = pgTable(
  'projects',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    projectId: tenantSerial('project_id', 'projects'),
    name: text('name').notNull(),
    description: text('description'),
    ownerUserId: bigint('owner_user_id', { mode: 'number' }),
    /** Kept by the project's writes: the owner's name, shown by the lists instead of an id. */
    ownerName: text('owner_name'),
    status: text('status').notNull().default('planned'),
    startDate: date('start_date', { mode: 'string' }),
    dueDate: date('due_date', { mode: 'string' }),
    resultType: text('result_type'),
    relatedType: text('related_type'),
    relatedContactId: bigint('related_contact_id', { mode: 'number' }),
    relatedName: text('related_name'),
    relatedEventId: bigint('related_event_id', { mode: 'number' }),
    relatedMembershipTypeId: bigint('related_membership_type_id', { mode: 'number' }),
    /** Kept by the project's writes and by a rename of the event or membership type: the names the lists show. */
    relatedEventName: text('related_event_name'),
    relatedMembershipTypeName: text('related_membership_type_name'),
    /** Kept by the project's writes: the related contact's name. */
    relatedContactName: text('related_contact_name'),
    /** Kept by the tasks' writes: finished among the tasks not cancelled, in percent. */
    progress: integer('progress').notNull().default(0),
    taskCount: integer('task_count').notNull().default(0),
    openTaskCount: integer('open_task_count').notNull().default(0),
    templateName: text('template_name'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.projectId] }),
    ...resourceListIndexes('projects', t, projectsResource, parentFieldsOf(projectsResource, ALL)),
    index('projects_contact_idx').on(t.tenantId, t.relatedContactId),
    index('projects_event_idx').on(t.tenantId, t.relatedEventId),
    index('projects_membership_type_idx').on(t.tenantId, t.relatedMembershipTypeId),
  ],
);

export const tasks = pgTable(
  'tasks',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    taskId: tenantSerial('task_id', 'tasks'),
    projectId: bigint('project_id', { mode: 'number' }),
    title: text('title').notNull(),
    description: text('description'),
    status: text('status').notNull().default('todo'),
    priority: text('priority').notNull().default('normal'),
    dueAt: ts('due_at'),
    /** The assignees' names, kept by the assignees' writes: what the lists and cards show and search. */
    assigneeNames: text('assignee_names'),
    contactId: bigint('contact_id', { mode: 'number' }),
    eventId: bigint('event_id', { mode: 'number' }),
    /** Kept by the task's and its project's writes: the names the lists show instead of ids. */
    projectName: text('project_name'),
    contactName: text('contact_name'),
    eventName: text('event_name'),
    recurrenceFrequency: text('recurrence_frequency'),
    recurrenceInterval: integer('recurrence_interval'),
    checklistDone: integer('checklist_done').notNull().default(0),
    checklistTotal: integer('checklist_total').notNull().default(0),
    /** The card's place in its board column (lower first). */
    sortOrder: integer('sort_order').notNull().default(0),
    completedAt: ts('completed_at'),
    /** The task a recurring task was made from when its predecessor was done. */
    previousTaskId: bigint('previous_task_id', { mode: 'number' }),
    createdBy: bigint('created_by', { mode: 'number' }),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.taskId] }),
    ...resourceListIndexes('tasks', t, tasksResource, parentFieldsOf(tasksResource, ALL)),
    index('tasks_contact_idx').on(t.tenantId, t.contactId),
    index('tasks_event_idx').on(t.tenantId, t.eventId),
    index('tasks_board_idx').on(t.tenantId, t.projectId, t.status, t.sortOrder),
    index('tasks_previous_idx').on(t.tenantId, t.previousTaskId),
  ],
);

export const taskAssignees = pgTable(
  'task_assignees',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    assignmentId: tenantSerial('assignment_id', 'task_assignees'),
    taskId: bigint('task_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.assignmentId] }),
    ...resourceListIndexes(
      'task_assignees',
      t,
      taskAssigneesResource,
      parentFieldsOf(taskAssigneesResource, ALL),
    ),
    index('task_assignees_user_idx').on(t.tenantId, t.userId, t.taskId),
  ],
);

export const taskChecklistItems = pgTable(
  'task_checklist_items',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    itemId: tenantSerial('item_id', 'task_checklist_items'),
    taskId: bigint('task_id', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
    isDone: boolean('is_done').notNull().default(false),
    sortOrder: integer('sort_order').notNull().default(0),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.itemId] }),
    ...resourceListIndexes(
      'task_checklist_items',
      t,
      taskChecklistItemsResource,
      parentFieldsOf(taskChecklistItemsResource, ALL),
    ),
  ],
);

export const taskDependencies = pgTable(
  'task_dependencies',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    dependencyId: tenantSerial('dependency_id', 'task_dependencies'),
    taskId: bigint('task_id', { mode: 'number' }).notNull(),
    dependsOnTaskId: bigint('depends_on_task_id', { mode: 'number' }).notNull(),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.dependencyId] }),
    ...resourceListIndexes(
      'task_dependencies',
      t,
      taskDependenciesResource,
      parentFieldsOf(taskDependenciesResource, ALL),
    ),
    index('task_dependencies_on_idx').on(t.tenantId, t.dependsOnTaskId),
  ],
);

export const taskComments = pgTable(
  'task_comments',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    commentId: tenantSerial('comment_id', 'task_comments'),
    taskId: bigint('task_id', { mode: 'number' }).notNull(),
    body: text('body').notNull(),
    authorUserId: bigint('author_user_id', { mode: 'number' }),
    authorName: text('author_name'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.commentId] }),
    ...resourceListIndexes(
      'task_comments',
      t,
      taskCommentsResource,
      parentFieldsOf(taskCommentsResource, ALL),
    ),
  ],
);

export const projectTemplates = pgTable(
  'project_templates',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    templateId: tenantSerial('template_id', 'project_templates'),
    name: text('name').notNull(),
    description: text('description'),
    resultType: text('result_type'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.templateId] })],
);

export const projectTemplateTasks = pgTable(
  'project_template_tasks',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    templateTaskId: tenantSerial('template_task_id', 'project_template_tasks'),
    templateId: bigint('template_id', { mode: 'number' }).notNull(),
    title: text('title').notNull(),
    offsetDays: integer('offset_days').notNull().default(0),
    dueTime: time('due_time'),
    priority: text('priority'),
    checklist: text('checklist'),
    isDeleted: boolean('is_deleted').notNull().default(false),
    createdAt: createdAt(),
    updatedAt: ts('updated_at').notNull().defaultNow(),
    version: recordVersion(),
  },
  (t) => [
    primaryKey({ columns: [t.tenantId, t.templateTaskId] }),
    index('project_template_tasks_template_idx').on(t.tenantId, t.templateId),
  ],
);

/** One row per reminder mail line sent: a task reminded to an assignee on a day is never reminded again that day. */
export const taskReminders = pgTable(
  'task_reminders',
  {
    tenantId: tenantId().references(() => tenants.id, { onDelete: 'cascade' }),
    taskId: bigint('task_id', { mode: 'number' }).notNull(),
    userId: bigint('user_id', { mode: 'number' }).notNull(),
    /** The association's calendar day the reminder was for. */
    day: date('day', { mode: 'string' }).notNull(),
    sentAt: createdAt(),
  },
  (t) => [primaryKey({ columns: [t.tenantId, t.taskId, t.userId, t.day] })],
);
