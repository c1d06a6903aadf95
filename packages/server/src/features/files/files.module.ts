/**
 * The files feature: the tenant's library (folders, files, contact files, uploads, downloads, public files), its
 * images (usages, crop, variants, reorder) and the writer of files' search documents. Other features read the
 * association's logo through `filesApi` (an invoice's PDF prints it).
 */
import type { Tx } from '@guildhall/db';
import { IMAGE_USAGE } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import type { Storage } from '../../platform/storage.ts';
import { readAll } from '../../platform/storage.ts';
import { imagesOfUsage, refreshFileSearch } from './files.repo.ts';
import { filesRoutes } from './files.routes.ts';

export const filesApi = {
  /** The association's logo as its stored variant (PNG or JPEG, upright, cropped), or null when it has none. */
  async associationLogo(tx: Tx, storage: Storage, tenantId: string): Promise<Buffer | null> {
    const [logo] = await imagesOfUsage(tx, tenantId, IMAGE_USAGE.Logo, null);
    if (!logo || !(await storage.has(logo.variantKey))) return null;
    return readAll(storage.get(logo.variantKey));
  },
};

export const filesModule = defineFeature({
  name: 'files',
  routes: filesRoutes,
  searchDocuments: { File: refreshFileSearch },
});
