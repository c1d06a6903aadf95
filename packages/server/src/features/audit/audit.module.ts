import { defineFeature } from '../../platform/feature-module.ts';
import { auditRoutes } from './audit.routes.ts';

export const auditModule = defineFeature({ name: 'audit', routes: auditRoutes });
