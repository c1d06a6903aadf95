/**
 * The contacts feature: its routes (directory, member profile, merge, import), the server hooks of the contacts,
 * entries and links resources, the import job and the writer of contacts' search documents.
 */
import { contactsResource } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import { boundResource } from '../../platform/resources/registry.ts';
import { contactsHooks } from './contacts.hooks.ts';
import { refreshContactSearch } from './contacts.repo.ts';
import { contactsRoutes } from './contacts.routes.ts';
import { callerContact } from './contacts.service.ts';
import { refreshSearchOf } from './import.repo.ts';
import { IMPORT_JOB, importHandler } from './import.service.ts';

export const contactsModule = defineFeature({
  name: 'contacts',
  routes: contactsRoutes,
  resourceHooks: contactsHooks,
  jobs: { [IMPORT_JOB]: importHandler },
  // A sign-in's own contact (`contacts.user_id`): what the member area's `ownRows` routes read (decision 0183).
  callerContact,
  searchDocuments: {
    Contact: {
      write: (tx, tenantId, id, resources) =>
        refreshContactSearch(tx, tenantId, id, boundResource(resources, contactsResource.name).extraFields),
      writeMany: (tx, tenantId, ids, resources) =>
        refreshSearchOf(tx, tenantId, ids, boundResource(resources, contactsResource.name).extraFields),
    },
  },
});
