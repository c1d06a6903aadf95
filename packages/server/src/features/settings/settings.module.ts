import { defineFeature } from '../../platform/feature-module.ts';
import { settingsRoutes } from './settings.routes.ts';

export const settingsModule = defineFeature({ name: 'settings', routes: settingsRoutes });
