/**
 * Files a job wrote (exports): poll until ready, then download. Only the tenant's own files are ever found. The
 * download routes themselves belong to the files feature, which sends an export through `sendExport`.
 */

import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthContext, scope, tenantTx } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';
import { findStoredFile, sendStoredFile } from '../stored-files.ts';

const idParams = z.object({ id: z.uuid() });

/**
 * Streams a ready export: as an attachment, or shown in the browser with `open` (GET `?open=true`). Its row is read
 * in a transaction of its own that ends before the bytes stream (the download route is not scoped for that reason).
 */
export async function sendExport(
  app: FastifyInstance,
  auth: AuthContext,
  reply: FastifyReply,
  id: string,
  open: boolean,
): Promise<FastifyReply> {
  const file = await tenantTx(app.database, auth, (tx) => findStoredFile(tx, auth, id));
  if (file.status !== 'ready' || !file.storageKey) throw notFound();
  return sendStoredFile(
    app.storage,
    reply,
    { key: file.storageKey, name: file.fileName, contentType: file.contentType },
    { inline: open, gone: 'The file is no longer available; export it again.' },
  );
}

export function filesRoutes(): FastifyPluginAsyncZod {
  return async (app) => {
    app.get('/api/files/ready/:id', {
      config: { permission: 'authenticated', scoped: true },
      schema: {
        tags: ['files'],
        summary: 'Whether an export is ready: 200 when ready, 202 while it is written, 404 when unknown',
        params: idParams,
        response: {
          200: z.object({ Ready: z.boolean(), FileName: z.string(), Failed: z.boolean() }),
          202: z.object({ Ready: z.boolean(), FileName: z.string(), Failed: z.boolean() }),
        },
      },
      handler: async (req, reply) => {
        const { tx, auth } = scope(req);
        const file = await findStoredFile(tx, auth, req.params.id);
        if (file.status === 'failed') throw new HttpError(410, 'The export failed; start it again.');
        if (file.status !== 'ready') {
          reply.code(202);
          return { Ready: false, FileName: file.fileName, Failed: false };
        }
        return { Ready: true, FileName: file.fileName, Failed: false };
      },
    });
  };
}
