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
import { scope } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import { membershipsApi } from '../memberships/memberships.module.ts';
import { searchDocuments } from './search.repo.ts';

export const searchRoutes: FastifyPluginAsyncZod = async (app) => {
  app.get('/api/search/global/:area/:query', {
    // Typeahead runs on every keystroke: the pipeline opens its transaction with the session lookup itself (one
    // round trip for `begin`, the session and the tenant scope), as for the screen engine's routes.
    config: { permission: 'authenticated', scoped: true },
    schema: {
      tags: ['search'],
      summary: 'Global search (typeahead)',
      params: searchParamsSchema,
      querystring: searchQuerySchema,
      response: { 200: searchAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
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
      // Staff see each contact hit's membership status (members see none of it).
      if (audience === 'staff') {
        const ids = hits.filter((h) => h.Type === 'Contact').map((h) => Number(h.Id));
        const statuses = await membershipsApi.statusesOf(tx, auth.tenantId, ids);
        for (const hit of hits)
          if (hit.Type === 'Contact') hit.MembershipStatus = statuses.get(Number(hit.Id)) ?? null;
      }
      return { Records: hits, Hits: hits };
    },
  });
};
