/**
 * The custom-fields feature: definitions per entity (any resource opts in with `customFields` in its declaration),
 * the type change with its dry run, the values of records, and the rewrite of search documents after a definition
 * changed (its job, decision 0111), and the pairs of fields a list filters and sorts by, kept in order (their fill
 * and their daily fold, decision 0196).
 */
import { defineFeature } from '../../platform/feature-module.ts';
import {
  customListFields,
  PAIR_FILL_JOB,
  PAIR_FOLD_JOB,
  pairFillHandler,
  pairFoldHandler,
} from './custom-fields.list.ts';
import { customFieldsRoutes } from './custom-fields.routes.ts';
import { SEARCH_REFRESH_JOB, searchRefreshHandler } from './custom-fields.search.ts';

export const customFieldsModule = defineFeature({
  name: 'custom-fields',
  routes: customFieldsRoutes,
  listFields: () => customListFields,
  jobs: {
    [SEARCH_REFRESH_JOB]: searchRefreshHandler,
    [PAIR_FILL_JOB]: () => pairFillHandler,
    [PAIR_FOLD_JOB]: () => pairFoldHandler,
  },
  daily: [PAIR_FOLD_JOB],
});
