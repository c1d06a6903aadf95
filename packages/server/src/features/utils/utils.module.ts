import { defineFeature } from '../../platform/feature-module.ts';
import { utilsRoutes } from './utils.routes.ts';

export const utilsModule = defineFeature({ name: 'utils', routes: utilsRoutes });
