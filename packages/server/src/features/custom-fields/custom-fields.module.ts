/**
 * The custom-fields feature: definitions per entity (any resource opts in with `customFields` in its declaration),
 * the type change with its dry run, the values of records, and the rewrite of search documents after a definition
 * changed (its job, decision 0111).
 */
import { defineFeature } from '../../platform/feature-module.ts';
import { customListFields } from './custom-fields.list.ts';
import { customFieldsRoutes } from './custom-fields.routes.ts';
import { SEARCH_REFRESH_JOB, searchRefreshHandler } from './custom-fields.search.ts';

export const customFieldsModule = defineFeature({
  name: 'custom-fields',
  routes: customFieldsRoutes,
  listFields: () => customListFields,
  jobs: { [SEARCH_REFRESH_JOB]: searchRefreshHandler },
});
