/**
 * The tasks feature: projects and tasks on the generic layer with their server hooks (dependencies and cycles, the
 * start rule, derived fields, recurrence, mentions), the board, My tasks, templates, activity, the reminder and
 * mention mail jobs, and the staff search documents of projects and tasks.
 */
import { taskMentionMail, taskReminderMail } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { tasksHooks } from './tasks.hooks.ts';
import { refreshProjectSearch, refreshTaskSearch } from './tasks.repo.ts';
import { tasksRoutes } from './tasks.routes.ts';
import { MENTION_JOB, mentionHandler, REMINDER_JOB, reminderHandler } from './tasks.service.ts';

export const tasksModule = defineFeature({
  name: 'tasks',
  routes: tasksRoutes,
  resourceHooks: tasksHooks,
  jobs: { [MENTION_JOB]: mentionHandler, [REMINDER_JOB]: reminderHandler },
  // The reminder mails go out every morning in each association's timezone (decision 0181).
  daily: [REMINDER_JOB],
  mailTemplates: [taskReminderMail, taskMentionMail],
  searchDocuments: { Project: refreshProjectSearch, Task: refreshTaskSearch },
});
