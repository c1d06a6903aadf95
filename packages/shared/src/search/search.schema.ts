/** The global search answer (spec 000 sections 3 and 7). */
import { z } from 'zod';

/** What a hit opens: a back-office contact, a member-area directory contact (later: events, projects, files). */
export const SEARCH_HIT_TYPES = ['Contact', 'DirectoryContact'] as const;

export const searchHitSchema = z.object({
  Title: z.string(),
  RelatedTo: z.string().nullable(),
  City: z.string().nullable(),
  StateProvince: z.string().nullable(),
  Status: z.string().nullable(),
  ContactType: z.string().nullable(),
  Id: z.string(),
  Type: z.string(),
  AccountNumber: z.string().nullable(),
  /** A contact's membership status in the back office (its current membership's), when it has one. */
  MembershipStatus: z.string().nullable().optional(),
});
export type SearchHit = z.infer<typeof searchHitSchema>;

/**
 * The spec allows "hits as Records or a hits list": `Records` is the answer; `Hits` carries the same array for
 * clients that read a hits list.
 */
export const searchAnswerSchema = z.object({
  Records: z.array(searchHitSchema),
  Hits: z.array(searchHitSchema),
});
export type SearchAnswer = z.infer<typeof searchAnswerSchema>;

export const searchParamsSchema = z.object({
  area: z.string().min(1).max(40),
  query: z.string().max(200),
});
export const searchQuerySchema = z.object({ v: z.coerce.number().int().min(1).max(9).optional() });
