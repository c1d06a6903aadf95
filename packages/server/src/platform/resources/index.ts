/**
 * The generic screen layer on the server: discovers every resource and report declared in packages/shared,
 * registers their routes, table settings, files, dialog templates and reports, and runs the job worker.
 */
import { join } from 'node:path';
import type { FastifyInstance } from 'fastify';
import { registeredJobHandlers, startWorker, type Worker } from '../jobs.ts';
import { localStorage, type Storage } from '../storage.ts';
import { EXPORT_JOB, exportHandler, exportStarter } from './export.ts';
import { filesRoutes } from './files.routes.ts';
import { type BoundResource, discoverResources } from './registry.ts';
import { discoverReports, reportsRoutes } from './reports.routes.ts';
import { resourceRoutes } from './resources.routes.ts';
import { tableSettingsRoutes } from './table-settings.routes.ts';
import { viewTemplatesRoutes } from './view-templates.routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    resources: BoundResource[];
    storage: Storage;
    worker: Worker;
  }
}

/** Registers inside the permission-checked scope. */
export async function registerScreenLayer(api: FastifyInstance, root: FastifyInstance): Promise<void> {
  const resources = await discoverResources();
  const reports = await discoverReports(resources);
  const storage = localStorage(join(root.config.dataDir, 'files'));
  const worker = startWorker(
    root.database,
    { ...registeredJobHandlers({ storage, resources }), [EXPORT_JOB]: exportHandler(resources, storage) },
    {
      onError: (err) => root.log.error({ err }, 'job failed'),
    },
  );
  root.decorate('resources', resources);
  root.decorate('storage', storage);
  root.decorate('worker', worker);
  root.addHook('onClose', async () => worker.stop());
  const startExport = exportStarter(() => worker.wake());
  for (const bound of resources) await api.register(resourceRoutes(bound, startExport));
  await api.register(tableSettingsRoutes(resources));
  await api.register(filesRoutes(storage));
  await api.register(reportsRoutes(resources, reports));
  await api.register(viewTemplatesRoutes);
}
