/**
 * Named queries over memberships, listed by the developer query tool (decision 0170). They read the query views
 * `gh_query.memberships` and `gh_query.contacts`: the caller's association's live records only.
 */
import { defineQuery } from '../query-tool/query.ts';
import { MEMBERSHIP_STATUSES } from './memberships.rules.ts';

export const membersLapsingQuery = defineQuery({
  name: 'memberships.lapsing',
  title: 'Members whose term ends in a period',
  description:
    'Active and in-grace memberships whose term ends in the period (next month unless you choose another), with how to reach the member: the renewal call list.',
  group: 'Memberships',
  sql: `select m.contact_name as "Member", m.name as "Membership", m.status as "Status",
       to_char(m.term_end, 'YYYY-MM-DD') as "Term ends", c.email as "Email", c.phone as "Phone",
       case when m.auto_pay then 'Yes' else 'No' end as "Auto-pay"
  from gh_query.memberships m
  left join gh_query.contacts c on c.contact_id = m.contact_id
 where m.status in ('active', 'grace')
   and (:ends_start::date is null or m.term_end >= :ends_start::date)
   and (:ends_end::date is null or m.term_end <= :ends_end::date)
 order by m.term_end, m.contact_name, m.membership_id`,
  parameters: [{ name: 'ends', label: 'Term ends', type: 'dateRange', default: '30', required: true }],
});

export const membershipsByStatusQuery = defineQuery({
  name: 'memberships.byStatus',
  title: 'Memberships by type and status',
  description: 'How many memberships each membership type has in each status, and their dues per term.',
  group: 'Memberships',
  sql: `select coalesce(t.name, m.name) as "Type", m.status as "Status", count(*) as "Memberships",
       to_char(sum(m.term_total) / 100.0, 'FM999,999,990.00') as "Dues per term"
  from gh_query.memberships m
  left join gh_query.membership_types t on t.membership_type_id = m.membership_type_id
 where (:status::text is null or m.status = :status)
 group by 1, 2
 order by 1, 2`,
  parameters: [
    {
      name: 'status',
      label: 'Status',
      type: 'select',
      options: MEMBERSHIP_STATUSES.map((s) => ({ Key: s.Id, Value: s.Name })),
    },
  ],
});
