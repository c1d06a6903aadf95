import { defineFeature } from '../../platform/feature-module.ts';
import { mailRoutes } from './mail.routes.ts';

export const mailModule = defineFeature({ name: 'mail', routes: mailRoutes });
