import { defineFeature } from '../../platform/feature-module.ts';
import { termsRoutes } from './terms.routes.ts';

export const termsModule = defineFeature({ name: 'terms', routes: termsRoutes });
