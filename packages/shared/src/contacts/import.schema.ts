/**
 * Wire shapes of the contacts CSV import (upload, dry run, commit and progress): the server's route schemas and the
 * web client's types both come from here.
 */
import { z } from 'zod';

export const IMPORT_STATUSES = ['uploaded', 'queued', 'running', 'done', 'failed'] as const;

export const importUploadSchema = z.object({
  ImportId: z.string(),
  FileName: z.string(),
  Columns: z.array(z.string()),
  Rows: z.number(),
  Sample: z.array(z.record(z.string(), z.string())),
  Fields: z.array(z.object({ Id: z.string(), Name: z.string() })),
  Mapping: z.record(z.string(), z.string()),
});
export type ImportUpload = z.infer<typeof importUploadSchema>;

export const importRowSchema = z.object({
  Row: z.number(),
  Action: z.enum(['create', 'update', 'reject']),
  ContactId: z.number().nullable(),
  Name: z.string(),
  Reasons: z.array(z.string()),
});
export type ImportPlannedRow = z.infer<typeof importRowSchema>;

export const importDryRunSchema = z.object({
  ImportId: z.string(),
  Total: z.number(),
  Create: z.number(),
  Update: z.number(),
  Reject: z.number(),
  Rows: z.array(importRowSchema),
  Truncated: z.boolean(),
});
export type ImportDryRun = z.infer<typeof importDryRunSchema>;

export const importStatusSchema = z.object({
  ImportId: z.string(),
  FileName: z.string(),
  Status: z.enum(IMPORT_STATUSES),
  Total: z.number(),
  Processed: z.number(),
  Created: z.number(),
  Updated: z.number(),
  /** Rows the plan rejected and the import left out (their CSV: `rejectedCsv`). */
  Rejected: z.number(),
  Error: z.string().nullable(),
});
export type ImportStatus = z.infer<typeof importStatusSchema>;
