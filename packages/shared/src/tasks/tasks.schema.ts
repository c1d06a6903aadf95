/** Wire shapes of the tasks feature's own routes (the generic layer serves the rest from tasks.resource.ts). */
import { z } from 'zod';

export const taskCardSchema = z.object({
  TaskId: z.number(),
  Title: z.string(),
  Status: z.string(),
  Priority: z.string(),
  DueAt: z.string().nullable(),
  AssigneeNames: z.string().nullable(),
  ProjectId: z.number().nullable(),
  ProjectName: z.string().nullable(),
  SortOrder: z.number(),
  ChecklistDone: z.number(),
  ChecklistTotal: z.number(),
  /** overdue, today, thisWeek, later or none, in the association's timezone; none once finished. */
  DueState: z.enum(['none', 'overdue', 'today', 'thisWeek', 'later']),
  /** Titles of unfinished tasks this one waits on. */
  WaitingOn: z.array(z.string()),
});
export type TaskCard = z.infer<typeof taskCardSchema>;

export const taskCardsSchema = z.object({ Tasks: z.array(taskCardSchema) });
export type TaskCards = z.infer<typeof taskCardsSchema>;

export const projectIdParamsSchema = z.object({ projectId: z.coerce.number().int().positive() });
export const templateIdParamsSchema = z.object({ templateId: z.coerce.number().int().positive() });

/** Moving a card on the board: its new status and the card it now sits before (null: at the end). */
export const boardMoveSchema = z
  .object({
    TaskId: z.number().int().positive(),
    Status: z.string().min(1).max(40),
    BeforeTaskId: z.number().int().positive().nullable().optional(),
  })
  .strict();
export type BoardMove = z.infer<typeof boardMoveSchema>;

/** My tasks: the signed-in user's open tasks, and the counts of the dashboard widget. */
export const myTasksSchema = z.object({
  Overdue: z.number(),
  DueToday: z.number(),
  DueThisWeek: z.number(),
  Open: z.number(),
  Tasks: z.array(taskCardSchema),
});
export type MyTasks = z.infer<typeof myTasksSchema>;

export const myTasksQuerySchema = z.object({
  include: z.enum(['open', 'all']).optional(),
});

/** Creating a project from a template: its name, due date (the anchor of the tasks' dates) and owner. */
export const instantiateTemplateSchema = z
  .object({
    Name: z.string().trim().min(1, 'Give the project a name.').max(200),
    DueDate: z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Choose the due date.'),
    StartDate: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .nullable()
      .optional(),
    OwnerUserId: z.number().int().positive().nullable().optional(),
  })
  .strict();
export type InstantiateTemplate = z.infer<typeof instantiateTemplateSchema>;

export const instantiatedSchema = z.object({ ProjectId: z.number(), TaskCount: z.number() });

export const templateOptionSchema = z.object({
  TemplateId: z.number(),
  Name: z.string(),
  Description: z.string().nullable(),
  TaskCount: z.number(),
});
export const templateOptionsSchema = z.object({ Templates: z.array(templateOptionSchema) });

/** A project's activity: the audit entries of the project and its tasks, newest first. */
export const projectActivitySchema = z.object({
  Entries: z.array(
    z.object({
      At: z.string(),
      Who: z.string(),
      Action: z.string(),
      What: z.string(),
    }),
  ),
});
export type ProjectActivity = z.infer<typeof projectActivitySchema>;
export type TemplateOptions = z.infer<typeof templateOptionsSchema>;
