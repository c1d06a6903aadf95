/** Image routes (spec 001 section 7), plus the served variants, the reorder and choosing from the library. */
import { withTenantTx } from '@guildhall/db';
import {
  editorImageUploadAnswerSchema,
  IMAGE_USAGE,
  imageOrderSchema,
  imageSaveSchema,
  imageSchema,
  imageUploadAnswerSchema,
  imageUsageAnswerSchema,
} from '@guildhall/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { requireAuth, scope } from '../../platform/context.ts';
import { notFound } from '../../platform/errors.ts';
import { lingeringClose } from '../../platform/multipart.ts';
import * as repo from './files.repo.ts';
import type { FilesContext } from './files.service.ts';
import * as images from './images.service.ts';
import { receiveUpload } from './upload.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParams = z.object({ id });
const usageParams = z.object({ usageId: z.coerce.number().int().min(1).max(1000) });
const secondaryQuery = z.object({
  secondary: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER).optional(),
});
const sourceOf = (secondary: number | undefined) => (secondary ? secondary : null);

export function imagesRoutes(ctx: () => FilesContext): FastifyPluginAsyncZod {
  return async (app) => {
    const sendImage = async (reply: FastifyReply, key: string, contentType: string, isPublic: boolean) => {
      if (!(await app.storage.has(key))) throw notFound();
      return (
        reply
          .header('Content-Type', contentType)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', "sandbox; default-src 'none'")
          // Addresses carry the image's version: a changed crop is a new address.
          .header('Cache-Control', `${isPublic ? 'public' : 'private'}, max-age=31536000, immutable`)
          .send(app.storage.get(key))
      );
    };

    app.get('/api/images/Usage/:usageId', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['images'],
        summary:
          'A usage of images: its AspectRatio and its images (secondary: the record, a contact for its photo)',
        params: usageParams,
        querystring: secondaryQuery,
        response: { 200: imageUsageAnswerSchema },
      },
      handler: (req) =>
        images.usageImages(ctx(), requireAuth(req.auth), req.params.usageId, sourceOf(req.query.secondary)),
    });

    app.put('/api/images/Usage/:usageId/order', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['images'],
        summary: 'Reorder the images of a usage (the image reorder dialog)',
        params: usageParams,
        querystring: secondaryQuery,
        body: imageOrderSchema,
        response: { 200: imageUsageAnswerSchema },
      },
      handler: (req) =>
        images.reorderImages(
          ctx(),
          requireAuth(req.auth),
          req.params.usageId,
          sourceOf(req.query.secondary),
          req.body.ImageIds,
        ),
    });

    app.post('/api/images/Usage/:usageId/File/:fileId', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['images'],
        summary: 'Use a library image for a usage (chosen from the library)',
        params: usageParams.extend({ fileId: id }),
        querystring: secondaryQuery,
        response: { 200: imageSchema },
      },
      handler: (req) =>
        images.useImage(
          ctx(),
          requireAuth(req.auth),
          req.params.usageId,
          sourceOf(req.query.secondary),
          req.params.fileId,
        ),
    });

    app.get('/api/images/Image/:id', {
      config: { permission: 'authenticated' },
      schema: {
        tags: ['images'],
        summary: 'An image: Url, ImageId, FileId, Name, texts and crop fields',
        params: idParams,
        response: { 200: imageSchema },
      },
      handler: (req) => images.getImage(ctx(), requireAuth(req.auth), req.params.id),
    });

    app.put('/api/images/Image/:id', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['images'],
        summary:
          'Save the texts and the crop of an image; the served variant is made again from the original',
        params: idParams,
        body: imageSaveSchema,
        response: { 200: imageSchema },
      },
      handler: (req) => images.saveImage(ctx(), requireAuth(req.auth), req.params.id, req.body),
    });

    app.delete('/api/images/Image/:id', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['images'],
        summary: 'Delete an image (the library keeps its file)',
        params: idParams,
        response: { 200: z.object({ Deleted: z.boolean() }) },
      },
      handler: async (req) => {
        await images.deleteImage(ctx(), requireAuth(req.auth), req.params.id);
        return { Deleted: true };
      },
    });

    for (const size of ['variant', 'thumbnail'] as const) {
      app.get(`/api/images/Image/:id/${size === 'variant' ? 'content' : 'thumbnail'}`, {
        config: { permission: 'authenticated' },
        schema: {
          tags: ['images'],
          summary:
            size === 'variant' ? 'The served image (its crop applied)' : "The image's thumbnail (150x150)",
          params: idParams,
          querystring: z.object({ v: z.coerce.number().int().optional() }),
        },
        handler: async (req, reply) => {
          const found = await images.imageContent(ctx(), requireAuth(req.auth), req.params.id, size);
          return sendImage(reply, found.key, found.contentType, false);
        },
      });
      app.get(`/api/images/public/:tenantId/:token/:id${size === 'variant' ? '' : '/thumbnail'}`, {
        config: { permission: 'public' },
        schema: {
          tags: ['images'],
          summary: `A public image's ${size} by its unguessable address`,
          params: z.object({ tenantId: z.uuid(), token: z.string().regex(/^[A-Za-z0-9_-]{22}$/), id }),
          querystring: z.object({ v: z.coerce.number().int().optional() }),
        },
        handler: async (req, reply) => {
          const { tenantId, token } = req.params;
          const row = await withTenantTx(app.database.db, { tenantId }, async (tx) => {
            const file = await repo.findPublicFile(tx, tenantId, token);
            const image = file ? await repo.findImage(tx, tenantId, req.params.id) : undefined;
            return image && file && image.fileId === file.fileId ? image : undefined;
          });
          if (!row) throw notFound();
          const found = images.contentOf(row, size);
          return sendImage(reply, found.key, found.contentType, true);
        },
      });
    }

    app.get('/api/images/File/:id', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['images'],
        summary: 'The image of a library file (made on first use for an image stored as a plain file)',
        params: idParams,
        response: { 200: imageSchema },
      },
      handler: (req) => images.imageOfFile(ctx(), requireAuth(req.auth), req.params.id),
    });

    // What an `image` field of a record shows (decision 0092): the image of the library file it names, by the file's
    // id. Re-cropping keeps the address, so browsers check again after a minute.
    app.get('/api/images/File/:id/:size', {
      config: { permission: 'backoffice', scoped: true },
      schema: {
        tags: ['images'],
        summary:
          "The image of a library file, by the file's id: its thumbnail (150x150) or its served variant",
        params: idParams.extend({ size: z.enum(['thumbnail', 'content']) }),
      },
      handler: async (req, reply) => {
        const { tx, auth } = scope(req);
        const row = await repo.imageOfFile(tx, auth.tenantId, req.params.id);
        if (!row) throw notFound();
        const found = images.contentOf(row, req.params.size === 'content' ? 'variant' : 'thumbnail');
        if (!(await app.storage.has(found.key))) throw notFound();
        return reply
          .header('Content-Type', found.contentType)
          .header('X-Content-Type-Options', 'nosniff')
          .header('Content-Security-Policy', "sandbox; default-src 'none'")
          .header('Cache-Control', 'private, max-age=60')
          .send(app.storage.get(found.key));
      },
    });

    app.post('/api/images/Upload/:folderTypeId/:sourceId', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['images'],
        summary:
          'Upload an image (multipart; jpg, gif, jpeg, png, bmp up to 50 MB) for a usage (folderTypeId: 1 logo, 2 contact photo, 3 gallery, 0 the library only) and its record',
        params: z.object({
          folderTypeId: z.coerce.number().int().min(0).max(1000),
          sourceId: z.coerce.number().int().min(0).max(Number.MAX_SAFE_INTEGER),
        }),
        querystring: z.object({ folderId: id.optional() }),
        response: { 200: imageUploadAnswerSchema.extend({ Image: imageSchema }) },
      },
      handler: async (req, reply) => {
        const auth = requireAuth(req.auth);
        let upload: Awaited<ReturnType<typeof receiveUpload>>;
        try {
          upload = await receiveUpload(req, 'image', ctx().spoolDir);
        } catch (err) {
          lingeringClose(req.raw, reply.raw);
          throw err;
        }
        const usageId = req.params.folderTypeId || null;
        const sourceId = req.params.sourceId || null;
        const image = await images.storeImage(ctx(), auth, upload, {
          usageId,
          sourceId,
          folderId: req.query.folderId ?? null,
          // A contact's photo is one of the contact's files.
          contactId: usageId === IMAGE_USAGE.ContactPhoto ? sourceId : null,
          // The association's logo shows on pages before sign-in and in mail.
          isPublic: usageId === IMAGE_USAGE.Logo,
        });
        return { Url: image.Url ?? '', FileId: image.FileId, ImageId: image.ImageId, Image: image };
      },
    });

    app.post('/api/images/upload', {
      config: { permission: 'backoffice' },
      schema: {
        tags: ['images'],
        summary: 'Upload an image for the editors (multipart field "file"): answers its public link',
        response: { 200: editorImageUploadAnswerSchema },
      },
      handler: async (req, reply) => {
        const auth = requireAuth(req.auth);
        let upload: Awaited<ReturnType<typeof receiveUpload>>;
        try {
          upload = await receiveUpload(req, 'image', ctx().spoolDir);
        } catch (err) {
          lingeringClose(req.raw, reply.raw);
          throw err;
        }
        // Images in mail and pages are read by anyone who receives them: public, at an unguessable address.
        const image = await images.storeImage(ctx(), auth, upload, {
          usageId: null,
          sourceId: null,
          folderId: null,
          contactId: null,
          isPublic: true,
        });
        return { link: new URL(image.Url ?? '', app.config.publicUrl).toString() };
      },
    });
  };
}
