/**
 * Named queries over billing, listed by the developer query tool (decision 0170). They read the query views
 * `gh_query.invoices` and `gh_query.contacts`: the caller's association's records only. Amounts are integer cents in
 * the views, shown here as decimal text.
 */
import { defineQuery } from '../query-tool/query.ts';

export const unpaidInvoicesQuery = defineQuery({
  name: 'billing.unpaidOverdue',
  title: 'Unpaid invoices overdue by more than a number of days',
  description:
    'Open and partly paid invoices whose due date passed more than the given number of days ago (90 unless you choose another), oldest first, with how to reach the contact: the collection list.',
  group: 'Billing',
  sql: `select i.number as "Invoice", i.contact_name as "Contact", i.status as "Status", i.currency as "Currency",
       to_char(i.due_date, 'YYYY-MM-DD') as "Due", current_date - i.due_date as "Days overdue",
       to_char(i.total_cents / 100.0, 'FM999,999,990.00') as "Total",
       to_char(i.balance_cents / 100.0, 'FM999,999,990.00') as "Balance", c.email as "Email", c.phone as "Phone"
  from gh_query.invoices i
  left join gh_query.contacts c on c.contact_id = i.contact_id
 where i.status in ('open', 'partially_paid')
   and i.balance_cents > 0
   and i.due_date < current_date - :days::int
 order by i.due_date, i.invoice_id`,
  parameters: [
    { name: 'days', label: 'Overdue by more than (days)', type: 'number', required: true, default: '90' },
  ],
});
