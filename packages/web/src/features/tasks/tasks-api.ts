/** The tasks feature's own calls (the generic layer serves the lists and records). */
import type {
  BoardMove,
  InstantiateTemplate,
  MyTasks,
  ProjectActivity,
  TaskCard,
  TaskCards,
  TemplateOptions,
} from '@guildhall/shared';
import { api } from '../../platform/api-client.ts';

export const tasksApi = {
  my: (include: 'open' | 'all' = 'open') => api.get<MyTasks>(`/api/tasks/my?include=${include}`),
  board: (projectId: string | number) =>
    api.get<TaskCards>(`/api/tasks/board/${encodeURIComponent(String(projectId))}`),
  move: (move: BoardMove) => api.post<TaskCard>('/api/tasks/board/move', move),
  activity: (projectId: string | number) =>
    api.get<ProjectActivity>(`/api/tasks/projects/${encodeURIComponent(String(projectId))}/activity`),
  templates: () => api.get<TemplateOptions>('/api/tasks/template-options'),
  fromTemplate: (templateId: number, body: InstantiateTemplate) =>
    api.post<{ ProjectId: number; TaskCount: number }>(
      `/api/tasks/template-options/${templateId}/projects`,
      body,
    ),
};

/** The task record's address (the generic record screen). */
export const taskPath = (taskId: number) => `/micronet/list/tasks/tasks/${taskId}`;
/** TasksProject.General: the project record's address, optionally on a tab. */
export const projectPath = (projectId: number, tab?: string) =>
  `/micronet/list/tasks/projects/${projectId}${tab ? `?tab=${tab}` : ''}`;
