import { defineFeature } from '../../platform/feature-module.ts';
import { searchRoutes } from './search.routes.ts';

export const searchModule = defineFeature({ name: 'search', routes: searchRoutes });
