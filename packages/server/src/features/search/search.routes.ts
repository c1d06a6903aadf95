/**
 * Global search: GET /api/search/global/{area}/{encoded lowercase query}?v=2. Area `backoffice` searches the staff
 * documents (signed-in staff only); any other area the member documents (listed directory contacts with their
 * published fields only). The answer holds the hits as `Records` (and the same array as `Hits`).
 */
import {
  audienceOfArea,
  hasPermission,
  SEARCH_MIN_LENGTH,
  type SearchHit,
  searchAnswerSchema,
  searchParamsSchema,
  searchQuerySchema,
  searchTerms,
} from '@guildhall/shared';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { HttpError } from '../../platform/errors.ts';
import { sessionTx } from '../../platform/security.ts';
import { searchDocuments } from './search.repo.ts';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/search/global/:area/:query', {
    // Typeahead runs on every keystroke: its transaction is opened by the session lookup itself (one round trip
    // for `begin`, the session and the tenant scope), as the screen engine's routes are.
    config: { permission: 'authenticated', sessionInTx: true },
    schema: {
      tags: ['search'],
      summary: 'Global search (typeahead)',
      params: searchParamsSchema,
      querystring: searchQuerySchema,
      response: { 200: searchAnswerSchema },
    },
    handler: async (req) =>
      sessionTx(req, async (tx, auth) => {
        const audience = audienceOfArea(req.params.area);
        if (audience === 'staff' && !hasPermission(auth.role, 'backoffice'))
          throw new HttpError(403, 'The back office is for staff.');
        const terms = searchTerms(req.params.query);
        if (terms.join(' ').length < SEARCH_MIN_LENGTH) return { Records: [], Hits: [] };
        const rows = await searchDocuments(tx, auth.tenantId, audience, terms);
        const hits: SearchHit[] = rows.map((r) => ({
          Title: r.title,
          RelatedTo: r.facets.RelatedTo ?? null,
          City: r.facets.City ?? null,
          StateProvince: r.facets.StateProvince ?? null,
          Status: r.facets.Status ?? null,
          ContactType: r.facets.ContactType ?? null,
          Id: r.entity_id,
          Type: r.entity_type,
          AccountNumber: r.facets.AccountNumber ?? null,
        }));
        return { Records: hits, Hits: hits };
      }),
  });
};
