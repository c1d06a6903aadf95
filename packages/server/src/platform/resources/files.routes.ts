/**
 * Files a job wrote (exports): poll until ready, then download. Only the tenant's own files are ever found. The
 * download routes themselves belong to the files feature, which sends an export through `sendExport`.
 */

import type { Tx } from '@guildhall/db';
import { storedFiles } from '@guildhall/db';
import { and, eq } from 'drizzle-orm';
import type { FastifyInstance, FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { type AuthContext, scope, tenantTx } from '../context.ts';
import { HttpError, notFound } from '../errors.ts';

const idParams = z.object({ id: z.uuid() });

async function findExport(tx: Tx, auth: AuthContext, id: string) {
  const [file] = await tx
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.tenantId, auth.tenantId), eq(storedFiles.id, id)));
  // A file is its requester's: another user of the same association does not see it either.
  if (!file || (file.userId !== null && file.userId !== auth.userId)) throw notFound();
  return file;
}

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
  const file = await tenantTx(app.database, auth, (tx) => findExport(tx, auth, id));
  if (file.status !== 'ready' || !file.storageKey) throw notFound();
  // Known but gone from storage (removed, or storage not shared by this instance): said plainly, not a 500.
  if (!(await app.storage.has(file.storageKey)))
    throw new HttpError(410, 'The file is no longer available; export it again.');
  const ascii = file.fileName.replace(/[^\w.-]/g, '_');
  reply
    .header('Content-Type', file.contentType)
    .header(
      'Content-Disposition',
      `${open ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.fileName)}`,
    )
    .header('File-Name', ascii)
    .header('Access-Control-Expose-Headers', 'File-Name, Content-Disposition');
  return reply.send(app.storage.get(file.storageKey));
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
        const file = await findExport(tx, auth, req.params.id);
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
