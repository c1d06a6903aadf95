/**
 * The generic screen layer on the server: registers the routes of every resource and report declared in
 * packages/shared (discovered by `discoverResources` before the app assembles), their table settings, files and
 * dialog templates. It uses the services of the composition root and makes none of its own.
 */
import type { FastifyInstance } from 'fastify';
import type { Services } from '../services.ts';
import { exportStarter } from './export.ts';
import { filesRoutes } from './files.routes.ts';
import { reportSchedulesRoutes } from './report-schedules.ts';
import { discoverReports, reportsRoutes } from './reports.routes.ts';
import { resourceRoutes } from './resources.routes.ts';
import { tableSettingsRoutes } from './table-settings.routes.ts';
import { viewTemplatesRoutes } from './view-templates.routes.ts';

/** Registers inside the permission-checked scope. */
export async function registerScreenLayer(api: FastifyInstance, services: Services): Promise<void> {
  const { resources } = services;
  const reports = await discoverReports(resources);
  const startExport = exportStarter(services.jobs);
  for (const bound of resources) await api.register(resourceRoutes(bound, startExport));
  await api.register(tableSettingsRoutes(resources));
  await api.register(filesRoutes());
  await api.register(reportsRoutes(resources, reports));
  await api.register(reportSchedulesRoutes(resources));
  await api.register(viewTemplatesRoutes);
}
