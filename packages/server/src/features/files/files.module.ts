/**
 * The files feature: the tenant's library (folders, files, contact files, uploads, downloads, public files), its
 * images (usages, crop, variants, reorder) and the writer of files' search documents. Other features read the
 * association's logo through `filesApi` (an invoice's PDF prints it), and the image a record's `image` field names
 * (an event's, on its public page).
 */
import type { Tx } from '@guildhall/db';
import { IMAGE_USAGE } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import type { Storage } from '../../platform/storage.ts';
import { readAll } from '../../platform/storage.ts';
import { imageOfFile, imagesOfUsage, refreshFileSearch } from './files.repo.ts';
import { filesRoutes } from './files.routes.ts';
import { contentOf } from './images.service.ts';

export const filesApi = {
  /** The association's logo as its stored variant (PNG or JPEG, upright, cropped), or null when it has none. */
  async associationLogo(tx: Tx, storage: Storage, tenantId: string): Promise<Buffer | null> {
    const [logo] = await imagesOfUsage(tx, tenantId, IMAGE_USAGE.Logo, null);
    if (!logo || !(await storage.has(logo.variantKey))) return null;
    return readAll(storage.get(logo.variantKey));
  },
  /**
   * The stored bytes' key of the image of a library file (what an `image` field holds, decision 0092): its
   * served variant or its thumbnail, or null when the file has no image. The caller decides who may see it.
   */
  async imageOfFile(tx: Tx, tenantId: string, fileId: number, size: 'variant' | 'thumbnail') {
    const row = await imageOfFile(tx, tenantId, fileId);
    return row ? { ...contentOf(row, size), version: row.version } : null;
  },
};

export const filesModule = defineFeature({
  name: 'files',
  routes: filesRoutes,
  searchDocuments: { File: refreshFileSearch },
});
