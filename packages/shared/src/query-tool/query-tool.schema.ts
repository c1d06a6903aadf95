/** Wire shapes of the query tool (spec 001 sections 2, 4 and 7). */
import { z } from 'zod';
import { QUERY_PARAMETER_TYPES } from './query.ts';

export const queryOptionSchema = z.object({ Key: z.string(), Value: z.string() });

export const queryParameterSchema = z.object({
  name: z.string(),
  label: z.string(),
  type: z.enum(QUERY_PARAMETER_TYPES),
  required: z.boolean(),
  default: z.string().nullable(),
  options: z.array(queryOptionSchema),
});

/** One entry of the tool's list: a shipped query (`contacts.withoutEmail`) or one of the association's (`my.3`). */
export const queryCatalogueItemSchema = z.object({
  name: z.string(),
  title: z.string(),
  description: z.string(),
  group: z.string(),
  /** Shipped with the product, or written by the association's administrators. */
  origin: z.enum(['shipped', 'association']),
  sql: z.string(),
  parameters: z.array(queryParameterSchema),
});
export type QueryCatalogueItem = z.infer<typeof queryCatalogueItemSchema>;

/**
 * The form of `POST /a/dev/QuerytoolRun` and `POST /a/dev/QuerytoolDownload` ("form data with query name or
 * parameters"): `QueryName`, the results page for a run (`Page`, from 1), and one field per parameter.
 */
export const queryRunFormSchema = z
  .object({
    QueryName: z.string().min(1).max(120),
    Page: z.coerce.number().int().min(1).max(1_000_000).optional(),
  })
  .catchall(z.union([z.string().max(2000), z.array(z.string().max(2000)).max(20)]));
export type QueryRunForm = z.infer<typeof queryRunFormSchema>;
