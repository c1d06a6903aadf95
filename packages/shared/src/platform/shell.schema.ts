import { z } from 'zod';

/** Status banner (spec 000 section 4: acknowledged once opened after its last update). */
export const statusSchema = z.object({
  Message: z.string(),
  Level: z.enum(['info', 'warning', 'critical']),
  UpdatedAt: z.string().nullable(),
  Acknowledged: z.boolean(),
});
export type Status = z.infer<typeof statusSchema>;
export const statusBody = z.object({
  Message: z.string().max(2000),
  Level: z.enum(['info', 'warning', 'critical']),
});

export const maintenanceSchema = z.object({
  Message: z.string(),
  StartsAt: z.string().nullable(),
  EndsAt: z.string().nullable(),
});
export type Maintenance = z.infer<typeof maintenanceSchema>;
export const maintenanceBody = z.object({
  Message: z.string().max(2000),
  StartsAt: z.string().datetime({ offset: true }).nullable(),
  EndsAt: z.string().datetime({ offset: true }).nullable(),
});

/** Poll intervals (spec 000 section 9). */
export const STATUS_POLL_MS = 60_000;
export const MAINTENANCE_POLL_MS = 3_600_000;

/** Help panel text per screen state name (GET /api/help/{state name}). */
export const helpTextSchema = z.object({ StateName: z.string(), Title: z.string(), Content: z.string() });
export type HelpText = z.infer<typeof helpTextSchema>;

/** Navigation collapses below this width (spec 000 section 9). */
export const NAV_COLLAPSE_BELOW_PX = 768;
