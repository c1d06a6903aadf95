/**
 * What contacts need from the database on every write of the generic layer, in the write's transaction: the
 * duplicate check (ErrorValidation YesNo), entry type detection, the search documents and the counters.
 */

import { joinFragments, q, type Tx } from '@guildhall/db';
import {
  ACCOUNT_NUMBER_COUNTER,
  accountNumberOf,
  COUNTED_FACETS,
  contactEntriesResource,
  contactFacets,
  contactLinksResource,
  contactsResource,
  DEFAULT_DIRECTORY_STATUSES,
  duplicateMessage,
  ERROR_VALIDATION_ACTIONS,
  emailKey,
  type Model,
  normalizeContactEntry,
  parseBooleanInput,
  postalKey,
  searchTerms,
  tenantSettingsResource,
} from '@guildhall/shared';
import { nextCounterValue } from '../../platform/counters.ts';
import { HttpError } from '../../platform/errors.ts';
import type { ResourceHooks } from '../../platform/resources/hooks.ts';
import {
  LIST_SEARCH_SCREEN_SAMPLE,
  LIST_SEARCH_SHARE_SAMPLE,
  searchWordsCondition,
} from '../../platform/resources/list-search.ts';
import { boundResource } from '../../platform/resources/registry.ts';
import { ErrorValidationError } from '../../platform/resources/resource.service.ts';
import type { Services } from '../../platform/services.ts';
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

/**
 * A new contact's account number: the one typed, or the next of the association's counter ("A0000251"), which
 * starts after the highest number already given (the demo data and imports number contacts the same way) and skips
 * a number someone typed by hand.
 */
async function accountNumberFor(tx: Tx, tenantId: string, model: Model): Promise<string> {
  if (typeof model.AccountNumber === 'string' && model.AccountNumber.trim() !== '')
    return model.AccountNumber;
  for (;;) {
    const candidate = accountNumberOf(
      await nextCounterValue(
        tx,
        tenantId,
        ACCOUNT_NUMBER_COUNTER,
        repo.highestAccountNumberStatement(tenantId),
      ),
    );
    if (!(await repo.accountNumberTaken(tx, tenantId, candidate))) return candidate;
  }
}

const contactHooks = (refresh: RefreshSearch): ResourceHooks => ({
  async beforeSave(tx, auth, model, { creating, key, extras }) {
    const self = creating ? null : Number(key);
    if (self !== null) {
      const current = await repo.findContact(tx, auth.tenantId, self);
      // Unchanged identity: the user already answered for this record.
      if (current && dupFields.every((f) => lower(current[f]) === lower(model[f]))) return model;
    }
    const isOrg = model.ContactType === 'organization';
    const matches = await repo.findDuplicates(tx, auth.tenantId, {
      email: emailKey(model.Email),
      first: isOrg ? '' : lower(model.FirstName),
      last: isOrg ? '' : lower(model.LastName),
      org: isOrg ? lower(model.OrganizationName) : '',
      postal: postalKey(model.PostalCode),
      self,
    });
    if (matches.length > 0 && extras.Answer !== 'Yes') {
      // A client that sends "No" anyway is told plainly that nothing was saved.
      if (extras.Answer === 'No') throw new HttpError(409, 'The contact was not saved.');
      throw new ErrorValidationError({
        Action: ERROR_VALIDATION_ACTIONS.YesNo,
        Message: duplicateMessage(matches),
        NoCancelsSave: true,
      });
    }
    return creating ? { ...model, AccountNumber: await accountNumberFor(tx, auth.tenantId, model) } : model;
  },
  async afterWrite(tx, auth, { before, after }) {
    const id = Number(after.ContactId);
    await repo.adjustCounts(tx, auth.tenantId, countDeltas(before, after));
    await refresh(tx, auth.tenantId, id);
    if (after.ContactType === 'organization' && before?.DisplayName !== after.DisplayName) {
      for (const linked of await repo.linkedContactIds(tx, auth.tenantId, id))
        await refresh(tx, auth.tenantId, linked);
    }
  },
  // The list's search box uses the global search index (the staff documents of contacts): every folded word as a
  // substring of the search text, through its trigram index, instead of an unindexed ILIKE over three columns.
  searchIndex(text) {
    const terms = searchTerms(text);
    if (terms.length === 0) return null;
    const all = searchWordsCondition(q`d.search_text`, terms);
    const staffContacts = q`d.tenant_id = gh_current_tenant() and d.audience = 'staff' and d.entity_type = 'Contact'`;
    const sample = (size: number) =>
      q`select coalesce(avg((${all})::int), 0) as share from (select d.search_text from search_documents d
        where ${staffContacts} order by d.entity_id limit ${size}) d`;
    return {
      keys: q`select d.entity_id::bigint as key from search_documents d where ${staffContacts} and ${all}`,
      // The share among the tenant's first 2,000 documents by entity id (its primary key's order, so no sort): the
      // same ones each time, spread over old and new records by the id's text order, whatever the tenant's size.
      share: sample(LIST_SEARCH_SHARE_SAMPLE),
      screen: sample(LIST_SEARCH_SCREEN_SAMPLE),
      // A term many contacts match: their documents in the primary key's order (the sample's rows first), each
      // tested, until the page has its matches (decision 0101's second amendment).
      scan: q`select d.entity_id::bigint as key, (${all}) as hit from search_documents d where ${staffContacts}
        order by d.entity_id`,
    };
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

const entryHooks = (refresh: RefreshSearch): ResourceHooks => ({
  async beforeSave(tx, auth, model, { settings }) {
    await requireContact(tx, auth.tenantId, model.ContactId, 'ContactId');
    const entry = normalizeContactEntry(String(model.Value ?? ''), settings.websitePrefix);
    if (!entry.ok) throw new HttpError(400, entry.error, { Value: [entry.error] });
    return { ...model, CommType: entry.CommType, Value: entry.Value };
  },
  async afterWrite(tx, auth, { before, after }) {
    const ids = new Set([Number(after.ContactId), ...(before ? [Number(before.ContactId)] : [])]);
    for (const id of ids) await refresh(tx, auth.tenantId, id);
  },
});

const linkHooks = (refresh: RefreshSearch): ResourceHooks => ({
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
    for (const id of ids) await refresh(tx, auth.tenantId, id);
  },
});

/**
 * The association changed which statuses its member directory lists: the member documents follow, in the settings'
 * transaction, so members never find a contact the directory no longer lists.
 */
const settingsHooks = (refresh: RefreshSearch): ResourceHooks => ({
  async afterWrite(tx, auth, { before, after }) {
    const was = JSON.stringify(before?.DirectoryStatuses ?? DEFAULT_DIRECTORY_STATUSES);
    if (JSON.stringify(after.DirectoryStatuses ?? DEFAULT_DIRECTORY_STATUSES) === was) return;
    const statuses = await repo.directoryStatuses(tx, auth.tenantId);
    for (;;) {
      const ids = await repo.directoryMismatches(tx, auth.tenantId, statuses, 500);
      for (const id of ids) await refresh(tx, auth.tenantId, id);
      if (ids.length < 500) return;
    }
  },
});

/** The server hooks of the contacts feature's resources, by resource name (its module declares them). */
/** Rewrites a contact's search documents (with what other features add to contacts, such as custom fields). */
type RefreshSearch = (tx: Tx, tenantId: string, id: number) => Promise<void>;

export function contactsHooks(services: Services): Record<string, ResourceHooks> {
  const refresh: RefreshSearch = (tx, tenantId, id) =>
    repo.refreshContactSearch(
      tx,
      tenantId,
      id,
      boundResource(services.resources, contactsResource.name).extraFields,
    );
  return {
    [contactsResource.name]: contactHooks(refresh),
    [contactEntriesResource.name]: entryHooks(refresh),
    [contactLinksResource.name]: linkHooks(refresh),
    [tenantSettingsResource.name]: settingsHooks(refresh),
  };
}
