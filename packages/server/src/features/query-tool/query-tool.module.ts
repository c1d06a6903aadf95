/**
 * The developer query tool (decision 0170): named queries declared in `*.query.ts` files of shared and the
 * association's own, run read-only under row-level security through the query guard. Saving an association's
 * query checks its SQL with the same guard.
 */

import { HttpError } from '../../platform/errors.ts';
import { defineFeature } from '../../platform/feature-module.ts';
import { QueryRefused } from './query-guard.ts';
import { queryToolRoutes } from './query-tool.routes.ts';
import { checkSql } from './query-tool.service.ts';

export const queryToolModule = defineFeature({
  name: 'query-tool',
  routes: queryToolRoutes,
  resourceHooks: () => ({
    savedQueries: {
      async beforeSave(_tx, _auth, model) {
        try {
          await checkSql(String(model.Sql ?? ''));
        } catch (error) {
          if (error instanceof QueryRefused)
            throw new HttpError(400, error.message, { Sql: [error.message] });
          throw error;
        }
        return model;
      },
    },
  }),
});
