import { IconChecklist, IconLayoutKanban, IconTemplate } from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

/**
 * Tasks and projects. The lists and records (projects, tasks, templates) are the generic screens of the resources in
 * shared; this module adds what they cannot draw: My tasks, a project from a template, the project's board, calendar,
 * files and activity tabs, a contact's and an event's related tasks and the dashboard's My tasks widget.
 */
export const tasksModule: WebModule = {
  name: 'tasks',
  backOffice: [
    page(
      'tasks/my',
      { stateName: 'Tasks.My', title: 'My tasks' },
      screen(
        () => import('./my-tasks-page.tsx'),
        (m) => m.MyTasksPage,
      ),
    ),
    page(
      'tasks/from-template',
      { stateName: 'Tasks.FromTemplate', title: 'New project from a template' },
      screen(
        () => import('./from-template-page.tsx'),
        (m) => m.FromTemplatePage,
      ),
    ),
  ],
  nav: [
    {
      section: 'top',
      to: '/a/tasks/my',
      label: 'My tasks',
      icon: IconChecklist,
      permission: 'backoffice',
      description: 'The tasks assigned to you, overdue ones first.',
    },
    {
      section: 'top',
      to: '/micronet/list/tasks/projects',
      label: 'Projects',
      icon: IconLayoutKanban,
      permission: 'backoffice',
      description: 'The association’s projects: their tasks on a list, a board and a calendar.',
    },
    {
      section: 'setup',
      to: '/micronet/list/tasks/templates',
      label: 'Project templates',
      icon: IconTemplate,
      permission: 'backoffice',
      description: 'Projects you run again and again, with their tasks at dates relative to the due date.',
    },
  ],
  recordTabs: {
    projects: [
      { key: 'board', title: 'Board', Panel: lazy(() => import('./project-board.tsx')) },
      { key: 'calendar', title: 'Calendar', Panel: lazy(() => import('./project-calendar.tsx')) },
      {
        key: 'files',
        title: 'Files',
        Panel: lazy(() => import('./files-tab.tsx').then((m) => ({ default: m.ProjectFilesTab }))),
      },
      { key: 'activity', title: 'Activity', Panel: lazy(() => import('./project-activity.tsx')) },
    ],
    tasks: [
      {
        key: 'files',
        title: 'Files',
        Panel: lazy(() => import('./files-tab.tsx').then((m) => ({ default: m.TaskFilesTab }))),
      },
    ],
    contacts: [{ key: 'tasks', title: 'Tasks', Panel: lazy(() => import('./related-tasks-tab.tsx')) }],
    events: [{ key: 'tasks', title: 'Tasks', Panel: lazy(() => import('./event-tasks-tab.tsx')) }],
  },
  recordActions: { projectTemplates: lazy(() => import('./template-record-action.tsx')) },
  dashboardWidgets: [
    {
      key: 'tasks.mine',
      title: 'My tasks',
      permission: 'backoffice',
      size: { w: 2, h: 6 },
      Component: lazy(() => import('./my-tasks-widget.tsx')),
    },
  ],
};
