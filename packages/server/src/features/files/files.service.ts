/**
 * Use cases of the file library: upload (stored, then recorded: all or nothing), browse a folder, search by name,
 * create, rename, move and delete folders and files, download. Keys in storage are made here, prefixed by the
 * tenant (`t/<tenant>/files/<random>`); a client's name is only a label.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createReadStream } from 'node:fs';
import { join } from 'node:path';
import type { Database, Tx } from '@guildhall/db';
import {
  FILE_ENTRY_TYPES,
  FILE_PAGE_SIZE,
  type FileEntry,
  type FilePage,
  fileDownloadUrl,
  hasPermission,
} from '@guildhall/shared';
import type { FastifyReply } from 'fastify';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { tenantTx } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import type { Storage } from '../../platform/storage.ts';
import { sendStoredFile } from '../../platform/stored-files.ts';
import * as repo from './files.repo.ts';
import type { SpooledUpload } from './upload.ts';

export interface FilesContext {
  database: Database;
  storage: Storage;
  /** Spool folder of uploads on this instance's disk. */
  spoolDir: string;
  publicUrl: string;
}

export const spoolDirOf = (dataDir: string) => join(dataDir, 'spool');

/** A new server-made storage key under the tenant's prefix. */
export function storageKey(tenantId: string, kind: 'files' | 'images', extension: string): string {
  return `t/${tenantId}/${kind}/${randomUUID()}${extension ? `.${extension}` : ''}`;
}

/** 128 random bits, URL-safe: the unguessable part of a public file's address. */
export const publicToken = () => randomBytes(16).toString('base64url');

export function publicFileUrl(tenantId: string, token: string, name: string): string {
  return `/api/files/public/${tenantId}/${token}/${encodeURIComponent(name)}`;
}

export function fileUrl(row: repo.FileRow): string | null {
  if (row.type === FILE_ENTRY_TYPES.Folder) return null;
  return row.isPublic && row.publicToken
    ? publicFileUrl(row.tenantId, row.publicToken, row.name)
    : fileDownloadUrl(row.fileId);
}

export function toEntry(row: repo.FileRow): FileEntry {
  return {
    Id: row.fileId,
    Type: row.type,
    FolderId: row.folderId,
    Name: row.name,
    ContentType: row.contentType,
    Size: row.size,
    ContactId: row.contactId,
    TaskId: row.taskId,
    ProjectId: row.projectId,
    IsPublic: row.isPublic,
    Url: fileUrl(row),
    CreatedAt: row.createdAt.toISOString(),
  };
}

/**
 * Where an entry sits: the library (every id null), a contact's files, a task's attachments or a project's files
 * (at most one of contact, task and project); a task's and a project's files sit in no folder.
 */
export interface Placement {
  folderId: number | null;
  contactId: number | null;
  taskId?: number | null;
  projectId?: number | null;
}

export const placeOf = (row: repo.FileRow): Required<Placement> => ({
  folderId: row.folderId,
  contactId: row.contactId,
  taskId: row.taskId,
  projectId: row.projectId,
});

/**
 * The place must be a live record of the tenant, and the folder a live folder of the same place (the library, or the
 * same contact's files); else 404.
 */
async function checkPlacement(tx: Tx, tenantId: string, place: Placement): Promise<string | null> {
  const taskId = place.taskId ?? null;
  const projectId = place.projectId ?? null;
  if ([place.contactId, taskId, projectId].filter((v) => v !== null).length > 1) throw notFound();
  if (place.contactId !== null && !(await repo.contactExists(tx, tenantId, place.contactId)))
    throw notFound();
  if (taskId !== null && !(await repo.taskExists(tx, tenantId, taskId))) throw notFound();
  if (projectId !== null && !(await repo.projectExists(tx, tenantId, projectId))) throw notFound();
  if (place.folderId === null) return null;
  if (taskId !== null || projectId !== null) throw notFound();
  const folder = await repo.findFile(tx, tenantId, place.folderId);
  if (!folder || folder.type !== FILE_ENTRY_TYPES.Folder || folder.contactId !== place.contactId)
    throw notFound();
  return folder.name;
}

/**
 * Stores a checked upload: the bytes go to storage first, then the row and its search document are written in one
 * transaction; when that fails (a folder deleted meanwhile), the stored bytes are removed. The spool file is
 * always removed.
 */
export async function storeFile(
  ctx: FilesContext,
  auth: AuthContext,
  upload: SpooledUpload,
  place: Placement & { isPublic: boolean },
): Promise<repo.FileRow> {
  const key = storageKey(auth.tenantId, 'files', upload.extension);
  try {
    // Checked before the bytes are stored, so a foreign folder or contact leaves nothing behind.
    await tenantTx(ctx.database, auth, (tx) => checkPlacement(tx, auth.tenantId, place));
    await ctx.storage.put(key, createReadStream(upload.path));
  } finally {
    await upload.discard();
  }
  try {
    return await tenantTx(ctx.database, auth, async (tx) => {
      const folderName = await checkPlacement(tx, auth.tenantId, place);
      const row = await repo.insertFile(tx, {
        tenantId: auth.tenantId,
        type: FILE_ENTRY_TYPES.File,
        folderId: place.folderId,
        contactId: place.contactId,
        taskId: place.taskId ?? null,
        projectId: place.projectId ?? null,
        name: upload.name,
        contentType: upload.contentType,
        size: upload.size,
        storageKey: key,
        isPublic: place.isPublic,
        publicToken: place.isPublic ? publicToken() : null,
        createdBy: auth.userId,
      });
      await repo.writeFileSearch(tx, auth.tenantId, row, folderName);
      await audit(tx, auth, {
        action: 'upload',
        entity: 'file',
        entityId: row.fileId,
        after: {
          Name: row.name,
          Size: row.size,
          FolderId: row.folderId,
          ContactId: row.contactId,
          TaskId: row.taskId,
          ProjectId: row.projectId,
        },
      });
      return row;
    });
  } catch (err) {
    await ctx.storage.remove(key).catch(() => undefined);
    throw err;
  }
}

export async function listFolder(
  ctx: FilesContext,
  auth: AuthContext,
  q: Omit<repo.PageQuery, 'top'> & { top?: number | undefined },
): Promise<FilePage> {
  return tenantTx(ctx.database, auth, async (tx) => {
    await checkPlacement(tx, auth.tenantId, {
      folderId: q.search ? null : q.folderId,
      contactId: q.contactId,
      taskId: q.taskId,
      projectId: q.projectId,
    });
    const page = await repo.listEntries(tx, auth.tenantId, { ...q, top: q.top ?? FILE_PAGE_SIZE });
    const path = q.search ? [] : await repo.folderPath(tx, auth.tenantId, q.folderId);
    return { Records: page.rows.map(toEntry), TotalRecordAvailable: page.total, Path: path };
  });
}

export async function createFolder(
  ctx: FilesContext,
  auth: AuthContext,
  name: string,
  place: Placement,
): Promise<FileEntry> {
  return tenantTx(ctx.database, auth, async (tx) => {
    await checkPlacement(tx, auth.tenantId, place);
    const row = await repo.insertFile(tx, {
      tenantId: auth.tenantId,
      type: FILE_ENTRY_TYPES.Folder,
      folderId: place.folderId,
      contactId: place.contactId,
      name,
      createdBy: auth.userId,
    });
    await audit(tx, auth, {
      action: 'create',
      entity: 'folder',
      entityId: row.fileId,
      after: { Name: name },
    });
    return toEntry(row);
  });
}

export async function renameEntry(
  ctx: FilesContext,
  auth: AuthContext,
  fileId: number,
  name: string,
): Promise<FileEntry> {
  return tenantTx(ctx.database, auth, async (tx) => {
    const before = await repo.findFile(tx, auth.tenantId, fileId);
    if (!before) throw notFound();
    const row = await repo.updateFile(tx, auth.tenantId, fileId, { name });
    if (!row) throw notFound();
    const place =
      before.folderId === null
        ? null
        : ((await repo.findFile(tx, auth.tenantId, before.folderId))?.name ?? null);
    await repo.writeFileSearch(tx, auth.tenantId, row, place);
    await audit(tx, auth, {
      action: 'rename',
      entity: row.type === FILE_ENTRY_TYPES.Folder ? 'folder' : 'file',
      entityId: fileId,
      before: { Name: before.name },
      after: { Name: name },
    });
    return toEntry(row);
  });
}

/** Moves an entry to another folder of the same place; a folder never into itself or under itself. */
export async function moveEntry(
  ctx: FilesContext,
  auth: AuthContext,
  fileId: number,
  folderId: number | null,
): Promise<FileEntry> {
  return tenantTx(ctx.database, auth, async (tx) => {
    const entry = await repo.findFile(tx, auth.tenantId, fileId);
    if (!entry) throw notFound();
    const place = await checkPlacement(tx, auth.tenantId, { ...placeOf(entry), folderId });
    if (folderId !== null && entry.type === FILE_ENTRY_TYPES.Folder) {
      const path = await repo.folderPath(tx, auth.tenantId, folderId);
      if (path.some((p) => p.Id === fileId))
        throw new HttpError(400, 'A folder cannot be moved into itself or into one of its folders.');
    }
    const row = await repo.updateFile(tx, auth.tenantId, fileId, { folderId });
    if (!row) throw notFound();
    await repo.writeFileSearch(tx, auth.tenantId, row, place);
    await audit(tx, auth, {
      action: 'move',
      entity: row.type === FILE_ENTRY_TYPES.Folder ? 'folder' : 'file',
      entityId: fileId,
      before: { FolderId: entry.folderId },
      after: { FolderId: folderId },
    });
    return toEntry(row);
  });
}

/**
 * Copies a file into another place (a contact's files, a task's attachments, a project's files): the bytes are
 * copied in storage under a new key, then the row is written; when that fails, the copied bytes are removed.
 */
export async function copyFile(
  ctx: FilesContext,
  auth: AuthContext,
  fileId: number,
  place: Placement,
): Promise<FileEntry> {
  const source = await tenantTx(ctx.database, auth, async (tx) => {
    const row = await repo.findFile(tx, auth.tenantId, fileId);
    if (!row || row.type === FILE_ENTRY_TYPES.Folder || !row.storageKey) throw notFound();
    await checkPlacement(tx, auth.tenantId, place);
    return row;
  });
  if (!source.storageKey || !(await ctx.storage.has(source.storageKey)))
    throw new HttpError(410, 'The file is no longer available in storage.');
  const extension = /\.([a-z0-9]+)$/i.exec(source.storageKey)?.[1] ?? '';
  const key = storageKey(auth.tenantId, 'files', extension);
  await ctx.storage.put(key, ctx.storage.get(source.storageKey));
  try {
    return await tenantTx(ctx.database, auth, async (tx) => {
      const folderName = await checkPlacement(tx, auth.tenantId, place);
      const row = await repo.insertFile(tx, {
        tenantId: auth.tenantId,
        type: FILE_ENTRY_TYPES.File,
        folderId: place.folderId,
        contactId: place.contactId,
        taskId: place.taskId ?? null,
        projectId: place.projectId ?? null,
        name: source.name,
        contentType: source.contentType,
        size: source.size,
        storageKey: key,
        isPublic: false,
        publicToken: null,
        createdBy: auth.userId,
      });
      await repo.writeFileSearch(tx, auth.tenantId, row, folderName);
      await audit(tx, auth, {
        action: 'copy',
        entity: 'file',
        entityId: row.fileId,
        after: {
          Name: row.name,
          From: source.fileId,
          ContactId: row.contactId,
          TaskId: row.taskId,
          ProjectId: row.projectId,
        },
      });
      return toEntry(row);
    });
  } catch (err) {
    await ctx.storage.remove(key).catch(() => undefined);
    throw err;
  }
}

/** Deletes an entry (a folder with everything in it); the stored bytes are removed once the rows are gone. */
export async function deleteEntry(ctx: FilesContext, auth: AuthContext, fileId: number): Promise<number> {
  const keys = await tenantTx(ctx.database, auth, async (tx) => {
    const rows = await repo.subtree(tx, auth.tenantId, fileId);
    const top = rows.find((r) => r.fileId === fileId);
    if (!top || top.isDeleted) throw notFound();
    const gone = await repo.deleteFiles(
      tx,
      auth.tenantId,
      rows.map((r) => r.fileId),
    );
    await audit(tx, auth, {
      action: 'delete',
      entity: top.type === FILE_ENTRY_TYPES.Folder ? 'folder' : 'file',
      entityId: fileId,
      before: { Name: top.name, Entries: rows.length },
    });
    return [
      ...rows.flatMap((r) => (r.storageKey ? [r.storageKey] : [])),
      ...gone.flatMap((i) => [i.variantKey, i.thumbnailKey]),
    ];
  });
  await Promise.all(keys.map((k) => ctx.storage.remove(k).catch(() => undefined)));
  return keys.length;
}

/** Sends a stored file: inline only where safe, never HTML inline, always sandboxed and never sniffed. */
export async function sendFile(
  ctx: FilesContext,
  reply: FastifyReply,
  row: repo.FileRow,
  open: boolean,
  inlineAllowed: (contentType: string) => boolean,
): Promise<FastifyReply> {
  if (row.type === FILE_ENTRY_TYPES.Folder || !row.storageKey) throw notFound();
  const contentType = row.contentType ?? 'application/octet-stream';
  return sendStoredFile(
    ctx.storage,
    reply,
    { key: row.storageKey, name: row.name, contentType },
    {
      inline: open && inlineAllowed(contentType),
      gone: 'The file is no longer available in storage.',
      headers: {
        // Whatever a file holds, it runs no script and reaches nothing of the site, even opened directly.
        'Content-Security-Policy':
          "sandbox; default-src 'none'; img-src 'self' data:; style-src 'unsafe-inline'",
        'X-Content-Type-Options': 'nosniff',
        'Cache-Control': row.isPublic ? 'public, max-age=3600' : 'private, no-store',
        ...(row.size === null ? {} : { 'Content-Length': row.size }),
      },
    },
  );
}

/** A library file for a signed-in user: staff only (members reach the files meant for them by public links). */
export async function fileForDownload(
  ctx: FilesContext,
  auth: AuthContext,
  fileId: number,
  contactId?: number,
): Promise<repo.FileRow> {
  if (!hasPermission(auth.role, 'backoffice')) throw notFound();
  const row = await tenantTx(ctx.database, auth, (tx) => repo.findFile(tx, auth.tenantId, fileId));
  if (!row || (contactId !== undefined && row.contactId !== contactId)) throw notFound();
  return row;
}
