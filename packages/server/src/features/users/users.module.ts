import { defineFeature } from '../../platform/feature-module.ts';
import { usersRoutes } from './users.routes.ts';

export const usersModule = defineFeature({ name: 'users', routes: usersRoutes });
