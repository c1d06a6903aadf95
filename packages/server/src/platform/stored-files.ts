/**
 * Files kept in storage for the user who made them (a CSV file uploaded to import, an export a job wrote): their rows
 * in `stored_files`, found by the association and the id, and the one way any file in storage is streamed back as a
 * download (these, and the file library's files).
 */
import { storedFiles, type Tx } from '@guildhall/db';
import { and, eq } from 'drizzle-orm';
import type { FastifyReply } from 'fastify';
import type { AuthContext } from './context.ts';
import { HttpError, notFound } from './errors.ts';
import type { Storage } from './storage.ts';

export type StoredFile = typeof storedFiles.$inferSelect;

/**
 * The caller's own stored file by its id, or 404: a file is its requester's, and another user's (of the same
 * association too) or another association's does not exist for them.
 */
export async function findStoredFile(tx: Tx, auth: AuthContext, id: string): Promise<StoredFile> {
  const [file] = await tx
    .select()
    .from(storedFiles)
    .where(and(eq(storedFiles.tenantId, auth.tenantId), eq(storedFiles.id, id)));
  if (!file || file.userId !== auth.userId) throw notFound();
  return file;
}

/**
 * Streams a file from storage as a download: an attachment, or shown in the browser with `inline`; its name in
 * Content-Disposition and, for the client, in File-Name; then `headers` (a route's own). Known but gone from storage
 * (removed, or storage not shared by this instance): a 410 that says `gone`, not a 500.
 */
export async function sendStoredFile(
  storage: Storage,
  reply: FastifyReply,
  file: { key: string; name: string; contentType: string },
  options: { inline: boolean; gone: string; headers?: Record<string, string | number> },
): Promise<FastifyReply> {
  if (!(await storage.has(file.key))) throw new HttpError(410, options.gone);
  const ascii = file.name.replace(/[^\w.-]/g, '_');
  reply
    .header('Content-Type', file.contentType)
    .header(
      'Content-Disposition',
      `${options.inline ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(file.name)}`,
    )
    .header('File-Name', ascii)
    .header('Access-Control-Expose-Headers', 'File-Name, Content-Disposition');
  for (const [name, value] of Object.entries(options.headers ?? {})) reply.header(name, value);
  return reply.send(storage.get(file.key));
}
