/**
 * The files feature: the tenant's library (folders, files, contact files, uploads, downloads, public files), its
 * images (usages, crop, variants, reorder) and the writer of files' search documents.
 */
import { defineFeature } from '../../platform/feature-module.ts';
import { refreshFileSearch } from './files.repo.ts';
import { filesRoutes } from './files.routes.ts';

export const filesModule = defineFeature({
  name: 'files',
  routes: filesRoutes,
  searchDocuments: { File: refreshFileSearch },
});
