/**
 * Use cases of images: upload (checked, normalised, variants made, then stored and recorded: all or nothing), the
 * image model, saving texts and a crop (the variants made again from the original), reorder, delete, and the
 * usages (the association's logo, a contact's photo, galleries).
 */

import { Readable } from 'node:stream';
import type { Tx } from '@guildhall/db';
import {
  FILE_ENTRY_TYPES,
  fileDownloadUrl,
  hasPermission,
  IMAGE_USAGE,
  type Image,
  type ImageSave,
  type ImageUsageAnswer,
  imageUsage,
} from '@guildhall/shared';
import { audit } from '../../platform/audit.ts';
import type { AuthContext } from '../../platform/context.ts';
import { tenantTx } from '../../platform/context.ts';
import { HttpError, notFound } from '../../platform/errors.ts';
import { readAll } from '../../platform/storage.ts';
import * as repo from './files.repo.ts';
import { type FilesContext, publicToken, storageKey } from './files.service.ts';
import { clampCrop, makeVariants, normaliseImage, oneAtATime } from './image-process.ts';
import type { SpooledUpload } from './upload.ts';

/** The address of an image's served variant (or thumbnail); the version keeps browsers' caches honest. */
export function imageContentUrl(
  row: repo.ImageRow,
  file: repo.FileRow | undefined,
  size: 'variant' | 'thumbnail',
) {
  const v = `?v=${row.version}`;
  if (file?.isPublic && file.publicToken)
    return `/api/images/public/${row.tenantId}/${file.publicToken}/${row.imageId}${size === 'thumbnail' ? '/thumbnail' : ''}${v}`;
  return `/api/images/Image/${row.imageId}/${size === 'thumbnail' ? 'thumbnail' : 'content'}${v}`;
}

export function toImage(row: repo.ImageRow, file: repo.FileRow | undefined): Image {
  return {
    ImageId: row.imageId,
    FileId: row.fileId,
    Url: imageContentUrl(row, file, 'variant'),
    Name: file?.name ?? '',
    Title: row.title,
    Caption: row.caption,
    ShortDescription: row.shortDescription,
    CropX: row.cropX,
    CropY: row.cropY,
    CropWidth: row.cropWidth,
    CropHeight: row.cropHeight,
    ForceAspect: row.forceAspect,
    OriginalUrl: file ? fileDownloadUrl(file.fileId, true) : null,
    ThumbnailUrl: imageContentUrl(row, file, 'thumbnail'),
    Width: row.width,
    Height: row.height,
    UsageId: row.usageId,
    SourceId: row.sourceId,
    SortOrder: row.sortOrder,
  };
}

/**
 * Who may see an image: staff any; members the association's logo and the photos of contacts listed in the member
 * directory, nothing else.
 */
async function mayView(tx: Tx, auth: AuthContext, row: repo.ImageRow): Promise<boolean> {
  if (hasPermission(auth.role, 'backoffice')) return true;
  if (row.usageId === IMAGE_USAGE.Logo) return true;
  return (
    row.usageId === IMAGE_USAGE.ContactPhoto &&
    row.sourceId !== null &&
    repo.contactListed(tx, auth.tenantId, row.sourceId)
  );
}

export interface ImagePlacement {
  usageId: number | null;
  sourceId: number | null;
  folderId: number | null;
  contactId: number | null;
  isPublic: boolean;
}

async function withImageFile(tx: Parameters<typeof repo.findFile>[0], tenantId: string, row: repo.ImageRow) {
  return toImage(row, await repo.findFile(tx, tenantId, row.fileId));
}

/**
 * Stores an uploaded image: the original is normalised (upright, at most 3000x3000, no metadata), its variant and
 * thumbnail made, all three stored, then the file and image rows written together. A usage that holds one image
 * (a logo, a photo) gets the new one in place of the old.
 */
export async function storeImage(
  ctx: FilesContext,
  auth: AuthContext,
  upload: SpooledUpload,
  place: ImagePlacement,
): Promise<Image> {
  let keys: string[] = [];
  try {
    const usage = place.usageId === null ? undefined : imageUsage(place.usageId);
    if (place.usageId !== null && !usage) throw notFound();
    if (place.usageId === IMAGE_USAGE.ContactPhoto || place.contactId !== null) {
      const contactId = place.contactId ?? place.sourceId;
      const exists =
        contactId !== null &&
        (await tenantTx(ctx.database, auth, (tx) => repo.contactExists(tx, auth.tenantId, contactId)));
      if (!exists) throw notFound();
    }
    const { original, variant, thumbnail } = await oneAtATime(async () => {
      const normalised = await normaliseImage(upload.path, upload.name, upload.extension);
      const made = await makeVariants(normalised.data, clampCrop({}, normalised.width, normalised.height));
      return { original: normalised, ...made };
    });
    const ext = original.format === 'png' ? 'png' : 'jpg';
    const originalKey = storageKey(auth.tenantId, 'files', ext);
    const variantKey = storageKey(auth.tenantId, 'images', ext);
    const thumbnailKey = storageKey(auth.tenantId, 'images', 'jpg');
    keys = [originalKey, variantKey, thumbnailKey];
    await ctx.storage.put(originalKey, Readable.from([original.data]));
    await ctx.storage.put(variantKey, Readable.from([variant.data]));
    await ctx.storage.put(thumbnailKey, Readable.from([thumbnail]));
    const name = upload.name.replace(/\.(bmp|gif|jpeg)$/i, `.${ext}`);
    const replaced: string[] = [];
    const image = await tenantTx(ctx.database, auth, async (tx) => {
      if (place.folderId !== null) {
        const folder = await repo.findFile(tx, auth.tenantId, place.folderId);
        if (!folder || folder.type !== FILE_ENTRY_TYPES.Folder || folder.contactId !== place.contactId)
          throw notFound();
      }
      const file = await repo.insertFile(tx, {
        tenantId: auth.tenantId,
        type: FILE_ENTRY_TYPES.File,
        folderId: place.folderId,
        contactId: place.contactId,
        name,
        contentType: original.contentType,
        size: original.data.length,
        storageKey: originalKey,
        isPublic: place.isPublic,
        publicToken: place.isPublic ? publicToken() : null,
        createdBy: auth.userId,
      });
      await repo.writeFileSearch(tx, auth.tenantId, file, null);
      let sortOrder = 0;
      if (place.usageId !== null) {
        const existing = await repo.imagesOfUsage(tx, auth.tenantId, place.usageId, place.sourceId);
        if (usage?.single) {
          for (const old of existing) {
            await repo.deleteImage(tx, auth.tenantId, old.imageId);
            replaced.push(old.variantKey, old.thumbnailKey);
          }
        } else sortOrder = existing.reduce((max, i) => Math.max(max, i.sortOrder + 1), 0);
      }
      const row = await repo.insertImage(tx, {
        tenantId: auth.tenantId,
        fileId: file.fileId,
        usageId: place.usageId,
        sourceId: place.sourceId,
        sortOrder,
        width: original.width,
        height: original.height,
        forceAspect: usage?.aspectRatio ?? null,
        variantKey,
        thumbnailKey,
      });
      await audit(tx, auth, {
        action: 'upload',
        entity: 'image',
        entityId: row.imageId,
        after: { Name: name, FileId: file.fileId, UsageId: place.usageId, SourceId: place.sourceId },
      });
      return toImage(row, file);
    });
    keys = [];
    await Promise.all(replaced.map((k) => ctx.storage.remove(k).catch(() => undefined)));
    return image;
  } finally {
    await upload.discard();
    await Promise.all(keys.map((k) => ctx.storage.remove(k).catch(() => undefined)));
  }
}

export async function getImage(ctx: FilesContext, auth: AuthContext, imageId: number): Promise<Image> {
  return tenantTx(ctx.database, auth, async (tx) => {
    const row = await repo.findImage(tx, auth.tenantId, imageId);
    if (!row || !(await mayView(tx, auth, row))) throw notFound();
    return withImageFile(tx, auth.tenantId, row);
  });
}

/**
 * The image of a library file (its first image), made on first use when the file is an image that has none yet
 * (a picture uploaded as a plain file, then chosen in the image dialog).
 */
export async function imageOfFile(ctx: FilesContext, auth: AuthContext, fileId: number): Promise<Image> {
  if (!hasPermission(auth.role, 'backoffice')) throw notFound();
  const found = await tenantTx(ctx.database, auth, async (tx) => {
    const file = await repo.findFile(tx, auth.tenantId, fileId);
    if (!file || file.type === FILE_ENTRY_TYPES.Folder) throw notFound();
    const row = await repo.imageOfFile(tx, auth.tenantId, fileId);
    return { file, image: row ? toImage(row, file) : null };
  });
  if (found.image) return found.image;
  const { file } = found;
  if (!file.storageKey || !file.contentType?.startsWith('image/'))
    throw new HttpError(400, `'${file.name}' is not an image.`);
  const original = await normaliseBytes(ctx, file);
  const { variant, thumbnail } = await makeVariants(
    original.data,
    clampCrop({}, original.width, original.height),
  );
  const variantKey = storageKey(auth.tenantId, 'images', variant.format === 'png' ? 'png' : 'jpg');
  const thumbnailKey = storageKey(auth.tenantId, 'images', 'jpg');
  await ctx.storage.put(variantKey, Readable.from([variant.data]));
  await ctx.storage.put(thumbnailKey, Readable.from([thumbnail]));
  try {
    return await tenantTx(ctx.database, auth, async (tx) => {
      const row = await repo.insertImage(tx, {
        tenantId: auth.tenantId,
        fileId,
        width: original.width,
        height: original.height,
        variantKey,
        thumbnailKey,
      });
      return toImage(row, file);
    });
  } catch (err) {
    await Promise.all([variantKey, thumbnailKey].map((k) => ctx.storage.remove(k).catch(() => undefined)));
    throw err;
  }
}

/** A library file that is an image but was stored as a plain file: read it back and normalise it. */
async function normaliseBytes(ctx: FilesContext, file: repo.FileRow) {
  const { writeFile, rm } = await import('node:fs/promises');
  const { join } = await import('node:path');
  const { mkdir } = await import('node:fs/promises');
  await mkdir(ctx.spoolDir, { recursive: true });
  const path = join(ctx.spoolDir, `image-${file.tenantId}-${file.fileId}-${Date.now()}`);
  try {
    await writeFile(path, await readAll(ctx.storage.get(file.storageKey ?? '')));
    const ext = file.name.split('.').pop()?.toLowerCase() ?? 'jpg';
    return await normaliseImage(path, file.name, ext);
  } finally {
    await rm(path, { force: true });
  }
}

/** Saves the dialog's texts and crop; a changed crop makes the variant and thumbnail again from the original. */
export async function saveImage(
  ctx: FilesContext,
  auth: AuthContext,
  imageId: number,
  body: ImageSave,
): Promise<Image> {
  const current = await tenantTx(ctx.database, auth, async (tx) => {
    const row = await repo.findImage(tx, auth.tenantId, imageId);
    if (!row) throw notFound();
    return { row, file: await repo.findFile(tx, auth.tenantId, row.fileId) };
  });
  const { row, file } = current;
  if (!file?.storageKey) throw notFound();
  const cropGiven = body.CropWidth != null && body.CropHeight != null;
  const crop = cropGiven ? clampCrop(body, row.width, row.height) : null;
  const cropChanged =
    crop !== null &&
    (crop.CropX !== row.cropX ||
      crop.CropY !== row.cropY ||
      crop.CropWidth !== row.cropWidth ||
      crop.CropHeight !== row.cropHeight);
  let fresh: { variantKey: string; thumbnailKey: string } | null = null;
  if (cropChanged && crop) {
    const original = await readAll(ctx.storage.get(file.storageKey));
    const { variant, thumbnail } = await oneAtATime(() => makeVariants(original, crop));
    fresh = {
      variantKey: storageKey(auth.tenantId, 'images', variant.format === 'png' ? 'png' : 'jpg'),
      thumbnailKey: storageKey(auth.tenantId, 'images', 'jpg'),
    };
    await ctx.storage.put(fresh.variantKey, Readable.from([variant.data]));
    await ctx.storage.put(fresh.thumbnailKey, Readable.from([thumbnail]));
  }
  try {
    const saved = await tenantTx(ctx.database, auth, async (tx) => {
      const updated = await repo.updateImage(tx, auth.tenantId, imageId, {
        ...(body.Title !== undefined ? { title: body.Title } : {}),
        ...(body.Caption !== undefined ? { caption: body.Caption } : {}),
        ...(body.ShortDescription !== undefined ? { shortDescription: body.ShortDescription } : {}),
        ...(body.ForceAspect !== undefined ? { forceAspect: body.ForceAspect } : {}),
        ...(crop && fresh
          ? {
              cropX: crop.CropX,
              cropY: crop.CropY,
              cropWidth: crop.CropWidth,
              cropHeight: crop.CropHeight,
              variantKey: fresh.variantKey,
              thumbnailKey: fresh.thumbnailKey,
              version: row.version + 1,
            }
          : {}),
      });
      if (!updated) throw notFound();
      await audit(tx, auth, {
        action: 'update',
        entity: 'image',
        entityId: imageId,
        before: {
          Title: row.title,
          Caption: row.caption,
          ShortDescription: row.shortDescription,
          Crop: [row.cropX, row.cropY, row.cropWidth, row.cropHeight],
        },
        after: body,
      });
      return toImage(updated, file);
    });
    if (fresh)
      await Promise.all(
        [row.variantKey, row.thumbnailKey].map((k) => ctx.storage.remove(k).catch(() => undefined)),
      );
    return saved;
  } catch (err) {
    if (fresh)
      await Promise.all(
        [fresh.variantKey, fresh.thumbnailKey].map((k) => ctx.storage.remove(k).catch(() => undefined)),
      );
    throw err;
  }
}

/** Deletes the image (its variants); the library file stays, as the original belongs to the library. */
export async function deleteImage(ctx: FilesContext, auth: AuthContext, imageId: number): Promise<void> {
  const row = await tenantTx(ctx.database, auth, async (tx) => {
    const found = await repo.findImage(tx, auth.tenantId, imageId);
    if (!found) throw notFound();
    await repo.deleteImage(tx, auth.tenantId, imageId);
    await audit(tx, auth, {
      action: 'delete',
      entity: 'image',
      entityId: imageId,
      before: { FileId: found.fileId },
    });
    return found;
  });
  await Promise.all(
    [row.variantKey, row.thumbnailKey].map((k) => ctx.storage.remove(k).catch(() => undefined)),
  );
}

/** Attaches a library image to a usage (chosen from the library in the image dialog): a new image of that file. */
export async function useImage(
  ctx: FilesContext,
  auth: AuthContext,
  usageId: number,
  sourceId: number | null,
  fileId: number,
): Promise<Image> {
  const usage = imageUsage(usageId);
  if (!usage) throw notFound();
  const base = await imageOfFile(ctx, auth, fileId);
  return tenantTx(ctx.database, auth, async (tx) => {
    const source = await repo.findImage(tx, auth.tenantId, base.ImageId);
    if (!source) throw notFound();
    if (
      usageId === IMAGE_USAGE.ContactPhoto &&
      (sourceId === null || !(await repo.contactExists(tx, auth.tenantId, sourceId)))
    )
      throw notFound();
    const existing = await repo.imagesOfUsage(tx, auth.tenantId, usageId, sourceId);
    if (source.usageId === null && !existing.some((e) => e.imageId === source.imageId)) {
      // The file's own image takes the usage.
      if (usage.single) for (const old of existing) await repo.deleteImage(tx, auth.tenantId, old.imageId);
      const sortOrder = usage.single ? 0 : existing.reduce((m, i) => Math.max(m, i.sortOrder + 1), 0);
      const updated = await repo.updateImage(tx, auth.tenantId, source.imageId, {
        usageId,
        sourceId,
        sortOrder,
        forceAspect: usage.aspectRatio,
      });
      if (!updated) throw notFound();
      return withImageFile(tx, auth.tenantId, updated);
    }
    return withImageFile(tx, auth.tenantId, source);
  });
}

export async function usageImages(
  ctx: FilesContext,
  auth: AuthContext,
  usageId: number,
  sourceId: number | null,
): Promise<ImageUsageAnswer> {
  const usage = imageUsage(usageId);
  if (!usage) throw notFound();
  const images = await tenantTx(ctx.database, auth, async (tx) => {
    const rows = await repo.imagesOfUsage(tx, auth.tenantId, usageId, sourceId);
    const out: Image[] = [];
    for (const row of rows)
      if (await mayView(tx, auth, row)) out.push(await withImageFile(tx, auth.tenantId, row));
    return out;
  });
  return { UsageId: usageId, Name: usage.name, AspectRatio: usage.aspectRatio, Images: images };
}

/** The image reorder dialog: the usage's images in the given order (ids not of the usage are refused). */
export async function reorderImages(
  ctx: FilesContext,
  auth: AuthContext,
  usageId: number,
  sourceId: number | null,
  imageIds: number[],
): Promise<ImageUsageAnswer> {
  await tenantTx(ctx.database, auth, async (tx) => {
    const rows = await repo.imagesOfUsage(tx, auth.tenantId, usageId, sourceId);
    const known = new Set(rows.map((r) => r.imageId));
    if (imageIds.some((id) => !known.has(id)) || new Set(imageIds).size !== imageIds.length) throw notFound();
    let order = 0;
    for (const id of imageIds) await repo.updateImage(tx, auth.tenantId, id, { sortOrder: order++ });
    for (const r of rows)
      if (!imageIds.includes(r.imageId))
        await repo.updateImage(tx, auth.tenantId, r.imageId, { sortOrder: order++ });
    await audit(tx, auth, {
      action: 'reorder',
      entity: 'image',
      entityId: null,
      after: { UsageId: usageId, SourceId: sourceId, ImageIds: imageIds },
    });
  });
  return usageImages(ctx, auth, usageId, sourceId);
}

/** The bytes of an image's variant or thumbnail for a signed-in user. */
export async function imageContent(
  ctx: FilesContext,
  auth: AuthContext,
  imageId: number,
  size: 'variant' | 'thumbnail',
): Promise<{ key: string; contentType: string }> {
  const row = await tenantTx(ctx.database, auth, async (tx) => {
    const found = await repo.findImage(tx, auth.tenantId, imageId);
    return found && (await mayView(tx, auth, found)) ? found : undefined;
  });
  if (!row) throw notFound();
  return contentOf(row, size);
}

export function contentOf(row: repo.ImageRow, size: 'variant' | 'thumbnail') {
  const key = size === 'thumbnail' ? row.thumbnailKey : row.variantKey;
  return { key, contentType: key.endsWith('.png') ? 'image/png' : 'image/jpeg' };
}
