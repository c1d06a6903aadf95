/**
 * The custom-fields feature: definitions per entity (any resource opts in with `customFields` in its declaration),
 * the type change with its dry run, and the values of records (decision 0111).
 */
import { defineFeature } from '../../platform/feature-module.ts';
import { customListFields } from './custom-fields.list.ts';
import { customFieldsRoutes } from './custom-fields.routes.ts';

export const customFieldsModule = defineFeature({
  name: 'custom-fields',
  routes: customFieldsRoutes,
  listFields: () => customListFields,
});
