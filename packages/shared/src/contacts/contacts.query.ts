/**
 * Named queries over contacts, listed by the developer query tool (spec 001 section 2). They read the query views
 * (`gh_query.contacts`, `gh_query.contact_entries`), which show only the caller's association's live records.
 */
import { defineQuery } from '../query-tool/query.ts';

export const contactsWithoutEmailQuery = defineQuery({
  name: 'contacts.withoutEmail',
  title: 'Contacts without email',
  description: 'Contacts that have no email address, so no mailing reaches them; optionally of one status.',
  group: 'Contacts',
  sql: `select c.account_number as "Account", c.display_name as "Name", c.status as "Status",
       c.phone as "Phone", c.city as "City", c.state_province as "State"
  from gh_query.contacts c
 where (c.email is null or c.email = '')
   and (:status::text is null or c.status = :status)
 order by c.display_name, c.contact_id`,
  parameters: [
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      lookup: `select distinct status as key, initcap(status) as value from gh_query.contacts order by 1`,
    },
  ],
});

export const contactsDuplicatesQuery = defineQuery({
  name: 'contacts.duplicates',
  title: 'Possible duplicates by name and postal code',
  description:
    'Contacts sharing the same name (ignoring case and spaces) and postal code: candidates to merge.',
  group: 'Contacts',
  sql: `select lower(trim(c.display_name)) as "Name key", c.postal_code as "Postal code", count(*) as "Contacts",
       string_agg(c.account_number, ', ' order by c.account_number) as "Accounts"
  from gh_query.contacts c
 where c.postal_code is not null and c.postal_code <> ''
 group by lower(trim(c.display_name)), c.postal_code
having count(*) >= :minimum
 order by count(*) desc, 1`,
  parameters: [
    { name: 'minimum', label: 'At least this many', type: 'number', required: true, default: '2' },
  ],
});

export const contactsAddedQuery = defineQuery({
  name: 'contacts.added',
  title: 'Contacts added in a period',
  description: 'Contacts created in a date range, with their type, status and where they are.',
  group: 'Contacts',
  sql: `select c.account_number as "Account", c.display_name as "Name", c.contact_type as "Type",
       c.status as "Status", c.city as "City", c.state_province as "State", c.created_at::date as "Added"
  from gh_query.contacts c
 where (:period_start::date is null or c.created_at >= :period_start::date)
   and (:period_end::date is null or c.created_at < :period_end::date + 1)
 order by c.created_at desc, c.contact_id`,
  parameters: [{ name: 'period', label: 'Added', type: 'dateRange', default: '13' }],
});

export const contactsByStateQuery = defineQuery({
  name: 'contacts.byState',
  title: 'Contacts by state and status',
  description: 'How many contacts each state or province has, by status.',
  group: 'Contacts',
  sql: `select coalesce(nullif(c.state_province, ''), '(none)') as "State", c.status as "Status", count(*) as "Contacts"
  from gh_query.contacts c
 group by 1, 2
 order by 1, 2`,
  parameters: [],
});

export const contactsInCityQuery = defineQuery({
  name: 'contacts.inCity',
  title: 'Contacts in a city',
  description: 'Contacts whose city starts with the given text, with their email and phone.',
  group: 'Contacts',
  sql: `select c.account_number as "Account", c.display_name as "Name", c.email as "Email", c.phone as "Phone",
       c.city as "City", to_char(c.updated_at, 'YYYY-MM-DD HH24:MI') as "Last changed"
  from gh_query.contacts c
 where c.city ilike :city || '%'
 order by c.display_name, c.contact_id`,
  parameters: [{ name: 'city', label: 'City starts with', type: 'text', required: true }],
});

export const contactsChangedSinceQuery = defineQuery({
  name: 'contacts.changedSince',
  title: 'Contacts changed since a date',
  description: 'Contacts whose record was changed on or after a date.',
  group: 'Contacts',
  sql: `select c.account_number as "Account", c.display_name as "Name", c.status as "Status", to_char(c.updated_at, 'YYYY-MM-DD HH24:MI') as "Changed"
  from gh_query.contacts c
 where c.updated_at >= :since::date
 order by c.updated_at desc, c.contact_id`,
  parameters: [{ name: 'since', label: 'Changed since', type: 'date', required: true }],
});
