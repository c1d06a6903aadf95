/**
 * The file library's routes: browse and search, folders, upload, contact files, downloads (library files and the
 * exports a job wrote) and public files. Thin: each calls the service.
 */
import fastifyMultipart from '@fastify/multipart';
import { withTenantTx } from '@guildhall/db';
import {
  copyFileSchema,
  createFolderSchema,
  FILE_PAGE_SIZE,
  fileEntrySchema,
  fileListQuerySchema,
  filePageSchema,
  moveFileSchema,
  opensInline,
  renameFileSchema,
  uploadedFileSchema,
  uploadQuerySchema,
} from '@guildhall/shared';
import type { FastifyReply, FastifyRequest } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { lingeringClose } from '../../platform/multipart.ts';
import { sendExport } from '../../platform/resources/files.routes.ts';
import * as repo from './files.repo.ts';
import * as service from './files.service.ts';
import { imagesRoutes } from './images.routes.ts';
import { receiveUpload, UPLOAD_LIMITS } from './upload.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParams = z.object({ id });
const openQuery = z.object({ open: z.enum(['true', 'false']).optional() });
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export const filesRoutes: FastifyPluginAsyncZod = async (app) => {
  // One file of at most 50 MB per request, limited while it streams; names keep their path so one is refused.
  await app.register(fastifyMultipart, { limits: UPLOAD_LIMITS, preservePath: true });
  const ctx = (): service.FilesContext => ({
    database: app.database,
    storage: app.storage,
    spoolDir: service.spoolDirOf(app.config.dataDir),
    publicUrl: app.config.publicUrl,
  });

  app.get('/api/files/library', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary: `A folder of the tenant's library (folders first, ${FILE_PAGE_SIZE} a page), or files by name`,
      querystring: fileListQuerySchema,
      response: { 200: filePageSchema },
    },
    handler: (req) =>
      service.listFolder(ctx(), requireAuth(req.auth), {
        folderId: req.query.folderId ?? null,
        contactId: null,
        taskId: null,
        projectId: null,
        search: req.query.search || undefined,
        imagesOnly: req.query.images === 'true',
        skip: req.query.skip ?? 0,
        top: req.query.top,
      }),
  });

  app.get('/api/files/contact/:contactId', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary: "A folder of a contact's files (the contact record's Files tab, the contact file picker)",
      params: z.object({ contactId: id }),
      querystring: fileListQuerySchema,
      response: { 200: filePageSchema },
    },
    handler: (req) =>
      service.listFolder(ctx(), requireAuth(req.auth), {
        folderId: req.query.folderId ?? null,
        contactId: req.params.contactId,
        taskId: null,
        projectId: null,
        search: req.query.search || undefined,
        imagesOnly: req.query.images === 'true',
        skip: req.query.skip ?? 0,
        top: req.query.top,
      }),
  });

  // A task's attachments and a project's files: one flat list each (the task's and the project's Files tabs).
  for (const owner of ['task', 'project'] as const) {
    app.get(`/api/files/${owner}/:ownerId`, {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['files'],
        summary: owner === 'task' ? "A task's attachments" : "A project's files",
        params: z.object({ ownerId: id }),
        querystring: fileListQuerySchema.omit({ folderId: true }),
        response: { 200: filePageSchema },
      },
      handler: (req) =>
        service.listFolder(ctx(), requireAuth(req.auth), {
          folderId: null,
          contactId: null,
          taskId: owner === 'task' ? req.params.ownerId : null,
          projectId: owner === 'project' ? req.params.ownerId : null,
          search: req.query.search || undefined,
          imagesOnly: req.query.images === 'true',
          skip: req.query.skip ?? 0,
          top: req.query.top,
        }),
    });
  }

  app.post('/api/files/entry/:id/copy', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary:
        "Copies a file into a contact's files, a task's attachments or a project's files (chosen from the library)",
      params: idParams,
      body: copyFileSchema,
      response: { 200: fileEntrySchema },
    },
    handler: (req) =>
      service.copyFile(ctx(), requireAuth(req.auth), req.params.id, {
        folderId: null,
        contactId: req.body.ContactId ?? null,
        taskId: req.body.TaskId ?? null,
        projectId: req.body.ProjectId ?? null,
      }),
  });

  app.get('/api/files/tenant/contact/:contactId/:fileId', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary: "A contact's file: an attachment, or shown in the browser with open=true where that is safe",
      params: z.object({ contactId: id, fileId: id }),
      querystring: openQuery,
    },
    handler: async (req, reply) => {
      const row = await service.fileForDownload(
        ctx(),
        requireAuth(req.auth),
        req.params.fileId,
        req.params.contactId,
      );
      return service.sendFile(ctx(), reply, row, req.query.open === 'true', opensInline);
    },
  });

  app.post('/api/files/folder', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary: "Create a folder in the library or in a contact's files",
      body: createFolderSchema.extend({ ContactId: id.nullable().optional() }).strict(),
      response: { 200: fileEntrySchema },
    },
    handler: (req) =>
      service.createFolder(ctx(), requireAuth(req.auth), req.body.Name, {
        folderId: req.body.FolderId ?? null,
        contactId: req.body.ContactId ?? null,
      }),
  });

  app.put('/api/files/entry/:id/name', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary: 'Rename a folder or a file',
      params: idParams,
      body: renameFileSchema,
      response: { 200: fileEntrySchema },
    },
    handler: (req) => service.renameEntry(ctx(), requireAuth(req.auth), req.params.id, req.body.Name),
  });

  app.put('/api/files/entry/:id/folder', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary: 'Move a folder or a file to another folder (null: the top)',
      params: idParams,
      body: moveFileSchema,
      response: { 200: fileEntrySchema },
    },
    handler: (req) => service.moveEntry(ctx(), requireAuth(req.auth), req.params.id, req.body.FolderId),
  });

  app.delete('/api/files/entry/:id', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary: 'Delete a file, or a folder with everything in it',
      params: idParams,
      response: { 200: z.object({ Deleted: z.boolean() }) },
    },
    handler: async (req) => {
      await service.deleteEntry(ctx(), requireAuth(req.auth), req.params.id);
      return { Deleted: true };
    },
  });

  app.post('/api/files/upload', {
    config: { permission: 'backoffice' },
    schema: {
      tags: ['files'],
      summary:
        'Upload one file (multipart, at most 50 MB, type checked by content): the answer is a list whose first item has Name, Url, ContentType, FileId',
      querystring: uploadQuerySchema,
      response: { 200: z.array(uploadedFileSchema) },
    },
    handler: async (req, reply) => {
      const auth = requireAuth(req.auth);
      let upload: Awaited<ReturnType<typeof receiveUpload>>;
      try {
        upload = await receiveUpload(req, 'file', ctx().spoolDir);
      } catch (err) {
        lingeringClose(req.raw, reply.raw);
        throw err;
      }
      const row = await service.storeFile(ctx(), auth, upload, {
        folderId: req.query.folderId ?? null,
        contactId: req.query.contactId ?? null,
        taskId: req.query.taskId ?? null,
        projectId: req.query.projectId ?? null,
        isPublic: req.query.makePublic === 'true',
      });
      return [
        {
          Name: row.name,
          Url: service.fileUrl(row) ?? '',
          ContentType: row.contentType ?? '',
          FileId: row.fileId,
        },
      ];
    },
  });

  // A library file by its number, or an export a job wrote by its uuid. `open=true` shows it where that is safe.
  const download = async (req: FastifyRequest, reply: FastifyReply, fileId: string, open: boolean) => {
    const auth = requireAuth(req.auth);
    if (UUID.test(fileId)) return sendExport(app, auth, reply, fileId, open);
    const parsed = id.safeParse(fileId);
    if (!parsed.success) throw notFound();
    const row = await service.fileForDownload(ctx(), auth, parsed.data);
    return service.sendFile(ctx(), reply, row, open, opensInline);
  };
  const fileIdParams = z.object({ id: z.string().max(64) });

  app.post('/api/files/download/:id', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['files'],
      summary: 'Streams a file (a library file by number, an export by uuid); its name is in File-Name',
      params: fileIdParams,
    },
    handler: (req, reply) => download(req, reply, req.params.id, false),
  });

  app.get('/api/files/download/:id', {
    config: { permission: 'authenticated' },
    schema: {
      tags: ['files'],
      summary:
        'Streams a file by link: an attachment, or inline with open=true where safe (images, PDF, text)',
      params: fileIdParams,
      querystring: openQuery,
    },
    handler: (req, reply) => download(req, reply, req.params.id, req.query.open === 'true'),
  });

  app.get('/api/files/public/:tenantId/:token/:name', {
    config: { permission: 'public' },
    schema: {
      tags: ['files'],
      summary: 'A public file by its unguessable address (no session needed)',
      params: z.object({
        tenantId: z.uuid(),
        token: z.string().regex(/^[A-Za-z0-9_-]{22}$/),
        name: z.string().max(400),
      }),
      querystring: openQuery,
    },
    handler: async (req, reply) => {
      const row = await withTenantTx(app.database.db, { tenantId: req.params.tenantId }, (tx) =>
        repo.findPublicFile(tx, req.params.tenantId, req.params.token),
      );
      if (!row) throw notFound();
      return service.sendFile(ctx(), reply, row, req.query.open !== 'false', opensInline);
    },
  });

  await app.register(imagesRoutes(ctx));
};
