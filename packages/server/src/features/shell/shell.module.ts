import { defineFeature } from '../../platform/feature-module.ts';
import { shellRoutes } from './shell.routes.ts';

export const shellModule = defineFeature({ name: 'shell', routes: shellRoutes });
