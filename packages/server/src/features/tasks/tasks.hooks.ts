/**
 * What tasks and projects need from the database on the generic layer's writes, in the write's transaction: the
 * start rule (a task waits for its dependencies), cycle detection of dependencies, staff-only assignees, derived
 * fields (assignee names, checklist counts, project progress), search documents, the next occurrence of a recurring
 * task, and mentions in comments (mailed after the commit).
 */
import { cycleMessage, dependencyCycle, mentionsOf, startRefusal } from '@guildhall/shared';
import { HttpError } from '../../platform/errors.ts';
import type { ResourceHooks } from '../../platform/resources/hooks.ts';
import type { Services } from '../../platform/services.ts';
import * as repo from './tasks.repo.ts';
import { createFollowUp, mailMentions } from './tasks.service.ts';

const idOf = (v: unknown): number | null => {
  const n = Number(v);
  return v === null || v === undefined || v === '' || !Number.isSafeInteger(n) || n <= 0 ? null : n;
};

/** 400 naming the field, as the form shows it. */
const refuse = (field: string, message: string) => new HttpError(400, message, { [field]: [message] });

export function tasksHooks(services: Services): Record<string, ResourceHooks> {
  return {
    projects: {
      async afterWrite(tx, auth, { after }) {
        await repo.refreshProjectNames(tx, auth.tenantId, Number(after.ProjectId));
        await repo.refreshProjectSearch(tx, auth.tenantId, Number(after.ProjectId));
      },
    },
    tasks: {
      async beforeSave(tx, auth, model, { creating, key }) {
        const self = creating ? null : idOf(key);
        if (self !== null) {
          const blockers = (await repo.blockersOf(tx, auth.tenantId, [self])).get(self) ?? [];
          const refusal = startRefusal(model.Status, blockers);
          if (refusal) throw refuse('Status', refusal);
        }
        return model;
      },
      async afterWrite(tx, auth, { kind, before, after }) {
        const id = Number(after.TaskId);
        if (kind === 'create') {
          await repo.setSortOrder(
            tx,
            auth.tenantId,
            id,
            await repo.nextSortOrder(tx, auth.tenantId, idOf(after.ProjectId)),
          );
          // Whoever creates a task is its first assignee, unless it is made for someone else later.
          if (auth.loginType === 'staff') {
            await repo.addAssignee(tx, auth.tenantId, id, auth.userId);
            await repo.refreshAssigneeNames(tx, auth.tenantId, id);
          }
        }
        await repo.refreshTaskNames(tx, auth.tenantId, id);
        for (const p of new Set([idOf(before?.ProjectId), idOf(after.ProjectId)]))
          if (p !== null) await repo.refreshProjectProgress(tx, auth.tenantId, p);
        await repo.refreshTaskSearch(tx, auth.tenantId, id);
        if (after.Status === 'done' && before?.Status !== 'done' && after.IsDeleted !== true)
          await createFollowUp(tx, auth, id);
      },
    },
    taskAssignees: {
      async beforeSave(tx, auth, model) {
        const userId = idOf(model.UserId);
        const taskId = idOf(model.TaskId);
        if (userId === null || taskId === null) return model;
        const user = await repo.tenantUser(tx, auth.tenantId, userId);
        if (user?.loginType !== 'staff') throw refuse('UserId', 'Only staff users can be assigned tasks.');
        if ((await repo.assigneesOf(tx, auth.tenantId, taskId)).some((a) => a.userId === userId))
          throw refuse('UserId', `${user.displayName} is already assigned to this task.`);
        return model;
      },
      async afterWrite(tx, auth, { after }) {
        const taskId = Number(after.TaskId);
        await repo.refreshAssigneeNames(tx, auth.tenantId, taskId);
        await repo.refreshTaskSearch(tx, auth.tenantId, taskId);
      },
    },
    taskChecklistItems: {
      async afterWrite(tx, auth, { after }) {
        await repo.refreshChecklistCounts(tx, auth.tenantId, Number(after.TaskId));
      },
    },
    taskDependencies: {
      async beforeSave(tx, auth, model) {
        const taskId = idOf(model.TaskId);
        const dependsOn = idOf(model.DependsOnTaskId);
        if (taskId === null || dependsOn === null) return model;
        if (await repo.dependencyExists(tx, auth.tenantId, taskId, dependsOn))
          throw refuse('DependsOnTaskId', 'This task already waits on that task.');
        const chain = dependencyCycle(await repo.dependencyEdges(tx, auth.tenantId), { taskId, dependsOn });
        if (chain) {
          const titles = await repo.taskTitles(tx, auth.tenantId, chain);
          throw refuse(
            'DependsOnTaskId',
            cycleMessage(chain, (id) => titles.get(id) ?? `Task ${id}`),
          );
        }
        return model;
      },
    },
    taskComments: {
      async afterWrite(tx, auth, { kind, after }) {
        if (kind !== 'create') return;
        await repo.setCommentAuthor(tx, auth.tenantId, Number(after.CommentId), auth.userId);
        const mentioned = mentionsOf(String(after.Body ?? ''));
        if (mentioned.length > 0)
          await mailMentions(services, tx, auth, Number(after.TaskId), String(after.Body ?? ''), mentioned);
      },
    },
  };
}
