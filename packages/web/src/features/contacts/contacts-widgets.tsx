import '@mantine/charts/styles.css';
import {
  CONTACT_STATUSES,
  calendarRangeToInstants,
  contactsResource,
  displayTimeZone,
  FILTER_ADVANCED,
  type FilterCriterion,
  resolveDateRange,
} from '@guildhall/shared';
import { BarChart } from '@mantine/charts';
import { Anchor, Stack, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { listPath } from '../../platform/screens/resources.ts';
import { fetchList } from '../../platform/screens/screens-api.ts';

const THIS_MONTH = 6;

/** How many contacts match the criteria (the list's total, one row fetched). */
function countContacts(criteria: FilterCriterion[]): Promise<number> {
  return fetchList(contactsResource, {
    skip: 0,
    top: 1,
    sort: null,
    search: '',
    filterId: FILTER_ADVANCED,
    criteria,
  }).then((answer) => answer.TotalRecordAvailable);
}

function WidgetError() {
  return (
    <Text size="sm" c="red">
      This widget could not be loaded.
    </Text>
  );
}

/** The association's contacts counted by status, as bars. */
export function ContactsByStatus() {
  const counts = useQuery({
    queryKey: ['dashboard', 'contacts.byStatus'],
    queryFn: () =>
      Promise.all(
        CONTACT_STATUSES.map(async (s) => ({
          status: s.Name,
          Contacts: await countContacts([{ PropertyName: 'Status', Operator: 'eq', Value: s.Id }]),
        })),
      ),
  });
  if (counts.error) return <WidgetError />;
  if (!counts.data) return <LoadingBlock />;
  return (
    <Stack gap={4}>
      <BarChart
        h={200}
        data={counts.data}
        dataKey="status"
        series={[{ name: 'Contacts', color: 'guild.6' }]}
        tickLine="y"
      />
      <ul className="visually-hidden" data-widget-figures>
        {counts.data.map((c) => (
          <li key={c.status}>
            {c.status}: {c.Contacts}
          </li>
        ))}
      </ul>
    </Stack>
  );
}

/** Contacts created since the first of this month in the association's timezone. */
export function NewContactsThisMonth() {
  const me = useIdentity();
  const timeZone = displayTimeZone(me);
  const count = useQuery({
    queryKey: ['dashboard', 'contacts.newThisMonth', timeZone],
    queryFn: () => {
      const month = resolveDateRange(THIS_MONTH, new Date(), { timeZone });
      if (!month) throw new Error('This month has no range');
      const { start, endExclusive } = calendarRangeToInstants(month, timeZone);
      return countContacts([
        { PropertyName: 'CreatedAt', Operator: 'ge', Value: start },
        { PropertyName: 'CreatedAt', Operator: 'lt', Value: endExclusive },
      ]);
    },
  });
  if (count.error) return <WidgetError />;
  if (count.data === undefined) return <LoadingBlock />;
  return (
    <Stack gap={0}>
      <Text fz={28} fw={700} lh={1.1} data-widget-count>
        {count.data}
      </Text>
      <Anchor component={Link} to={listPath(contactsResource)} size="sm">
        Contacts
      </Anchor>
    </Stack>
  );
}
