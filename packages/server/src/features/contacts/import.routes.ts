import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';

/** CSV import (upload, mapping, dry run, commit as a job). */
export const importRoutes: FastifyPluginAsyncZod = async () => {};
