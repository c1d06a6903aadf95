/**
 * Tasks routes beyond the generic layer (which serves /api/tasks/projects, /tasks, /assignees, /checklist,
 * /dependencies, /comments, /templates and /template-tasks from the resource declarations): the board, My tasks,
 * projects made from templates, a project's activity and the reminder run. Staff only: members never see tasks.
 */
import {
  boardMoveSchema,
  instantiatedSchema,
  instantiateTemplateSchema,
  myTasksQuerySchema,
  myTasksSchema,
  projectActivitySchema,
  projectIdParamsSchema,
  taskCardSchema,
  taskCardsSchema,
  templateIdParamsSchema,
  templateOptionsSchema,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { scope } from '../../platform/context.ts';
import * as service from './tasks.service.ts';

export const tasksRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/tasks/my', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['tasks'],
      summary: 'My tasks: the signed-in user’s tasks, with the counts of the dashboard widget',
      querystring: myTasksQuerySchema,
      response: { 200: myTasksSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.myTasks(tx, auth, req.query.include ?? 'open');
    },
  });

  app.get('/api/tasks/board/:projectId', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['tasks'],
      summary: 'The cards of a project’s board and calendar',
      params: projectIdParamsSchema,
      response: { 200: taskCardsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return { Tasks: await service.projectBoard(tx, auth, req.params.projectId) };
    },
  });

  app.post('/api/tasks/board/move', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['tasks'],
      summary:
        'Moves a card on the board: its status and place; refused while the tasks it waits on are open',
      body: boardMoveSchema,
      response: { 200: taskCardSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.moveCard(tx, auth, req.body, app.services);
    },
  });

  app.get('/api/tasks/projects/:projectId/activity', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['tasks'],
      summary: 'Who changed a project and its tasks, newest first',
      params: projectIdParamsSchema,
      response: { 200: projectActivitySchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.projectActivity(tx, auth, req.params.projectId);
    },
  });

  app.get('/api/tasks/template-options', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['tasks'],
      summary: 'The project templates a project can be made from',
      response: { 200: templateOptionsSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.templateOptions(tx, auth);
    },
  });

  app.post('/api/tasks/template-options/:templateId/projects', {
    config: { permission: 'backoffice', scoped: true },
    schema: {
      tags: ['tasks'],
      summary: 'Makes a project from a template: its tasks due relative to the project’s due date',
      params: templateIdParamsSchema,
      body: instantiateTemplateSchema,
      response: { 200: instantiatedSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.instantiateTemplate(tx, auth, req.params.templateId, req.body);
    },
  });

  app.post('/api/tasks/reminders/run', {
    config: { permission: 'settings.manage' },
    schema: {
      tags: ['tasks'],
      summary: 'Sends today’s task reminders of the association now (each task once per day and assignee)',
      response: { 200: z.object({ mails: z.number(), tasks: z.number() }) },
    },
    handler: async (req) => {
      const auth = req.auth;
      if (!auth) throw new Error('no session');
      return service.sendReminders(app.services, app.database, auth.tenantId);
    },
  });
};
