/**
 * What contacts need from the database on every write of the generic layer, in the write's transaction: the
 * duplicate check (ErrorValidation YesNo), entry type detection, the search documents and the counters.
 */

import { joinFragments, q } from '@guildhall/db';
import {
  COUNTED_FACETS,
  contactEntriesResource,
  contactFacets,
  contactLinksResource,
  contactsResource,
  duplicateMessage,
  ERROR_VALIDATION_ACTIONS,
  emailKey,
  type Model,
  normalizeContactEntry,
  parseBooleanInput,
  searchTerms,
} from '@guildhall/shared';
import { HttpError } from '../../platform/errors.ts';
import { registerResourceHooks } from '../../platform/resources/hooks.ts';
import { ErrorValidationError } from '../../platform/resources/resource.service.ts';
import * as repo from './contacts.repo.ts';

const lower = (v: unknown) => (typeof v === 'string' ? v.trim().toLowerCase() : '');

/** The counter deltas of a change: minus the facets of the live record before, plus those after. */
export function countDeltas(before: Model | null, after: Model | null): Map<string, number> {
  const deltas = new Map<string, number>();
  const add = (m: Model | null, sign: number) => {
    if (!m || m.IsDeleted === true) return;
    for (const [facet, value] of contactFacets(
      m as { Status: unknown; ContactType: unknown; IsListed: unknown },
    ))
      deltas.set(`${facet}\u0000${value}`, (deltas.get(`${facet}\u0000${value}`) ?? 0) + sign);
  };
  add(before, -1);
  add(after, 1);
  return deltas;
}

const dupFields = ['Email', 'FirstName', 'LastName', 'OrganizationName', 'PostalCode'] as const;

registerResourceHooks(contactsResource.name, {
  async beforeSave(tx, auth, model, { creating, key, extras }) {
    const self = creating ? null : Number(key);
    if (self !== null) {
      const current = await repo.findContact(tx, auth.tenantId, self);
      // Unchanged identity: the user already answered for this record.
      if (current && dupFields.every((f) => lower(current[f]) === lower(model[f]))) return model;
    }
    const matches = await repo.findDuplicates(tx, auth.tenantId, {
      email: emailKey(model.Email),
      first: lower(model.FirstName),
      last: lower(model.LastName),
      org: lower(model.OrganizationName),
      postal: typeof model.PostalCode === 'string' ? model.PostalCode.trim() : '',
      self,
    });
    if (matches.length === 0 || extras.Answer === 'Yes') return model;
    if (extras.Answer === 'No') throw new HttpError(409, 'The contact was not saved.');
    throw new ErrorValidationError({
      Action: ERROR_VALIDATION_ACTIONS.YesNo,
      Message: duplicateMessage(matches),
    });
  },
  async afterWrite(tx, auth, { before, after }) {
    const id = Number(after.ContactId);
    await repo.adjustCounts(tx, auth.tenantId, countDeltas(before, after));
    await repo.refreshContactSearch(tx, auth.tenantId, id);
    if (after.ContactType === 'organization' && before?.DisplayName !== after.DisplayName) {
      for (const linked of await repo.linkedContactIds(tx, auth.tenantId, id))
        await repo.refreshContactSearch(tx, auth.tenantId, linked);
    }
  },
  // The list's search box uses the global search index (the staff documents of contacts): every folded word as a
  // substring of the search text, through its trigram index, instead of an unindexed ILIKE over three columns.
  searchCondition(text) {
    const terms = searchTerms(text);
    if (terms.length === 0) return null;
    const all = joinFragments(
      terms.map((t) => q`d.search_text like ${`%${t.replace(/[\\%_]/g, (c) => `\\${c}`)}%`}`),
      ' and ',
    );
    return q`contacts.contact_id in (select d.entity_id::bigint from search_documents d
      where d.tenant_id = gh_current_tenant() and d.audience = 'staff' and d.entity_type = 'Contact' and ${all})`;
  },
  countStatement(tenantId, { criteria, search }) {
    if (search !== '') return null;
    if (criteria.length === 0) return repo.countStatement(tenantId, '', '');
    const [c] = criteria;
    if (criteria.length !== 1 || !c || c.Operator !== 'eq') return null;
    const facet = COUNTED_FACETS[c.PropertyName as keyof typeof COUNTED_FACETS];
    if (!facet) return null;
    if (facet === 'isListed') {
      const b = parseBooleanInput(c.Value as string | number | boolean | null);
      return b === null ? null : repo.countStatement(tenantId, facet, String(b));
    }
    return typeof c.Value === 'string' ? repo.countStatement(tenantId, facet, c.Value) : null;
  },
});

async function requireContact(
  tx: Parameters<typeof repo.findContact>[0],
  tenantId: string,
  id: unknown,
  field: string,
) {
  if (!(await repo.liveContactExists(tx, tenantId, id)))
    throw new HttpError(400, 'Choose an existing contact.', { [field]: ['Choose an existing contact.'] });
}

registerResourceHooks(contactEntriesResource.name, {
  async beforeSave(tx, auth, model, { settings }) {
    await requireContact(tx, auth.tenantId, model.ContactId, 'ContactId');
    const entry = normalizeContactEntry(String(model.Value ?? ''), settings.websitePrefix);
    if (!entry.ok) throw new HttpError(400, entry.error, { Value: [entry.error] });
    return { ...model, CommType: entry.CommType, Value: entry.Value };
  },
  async afterWrite(tx, auth, { before, after }) {
    const ids = new Set([Number(after.ContactId), ...(before ? [Number(before.ContactId)] : [])]);
    for (const id of ids) await repo.refreshContactSearch(tx, auth.tenantId, id);
  },
});

registerResourceHooks(contactLinksResource.name, {
  async beforeSave(tx, auth, model) {
    await requireContact(tx, auth.tenantId, model.ContactId, 'ContactId');
    await requireContact(tx, auth.tenantId, model.RelatedContactId, 'RelatedContactId');
    if (Number(model.ContactId) === Number(model.RelatedContactId))
      throw new HttpError(400, 'A contact cannot be linked to itself.', {
        RelatedContactId: ['Choose another contact.'],
      });
    return model;
  },
  async afterWrite(tx, auth, { before, after }) {
    const ids = new Set([Number(after.ContactId), ...(before ? [Number(before.ContactId)] : [])]);
    for (const id of ids) await repo.refreshContactSearch(tx, auth.tenantId, id);
  },
});
