import type { LookupOption, SecondaryMembers } from '@guildhall/shared';
import { Alert, Button, Group, Select, Stack, Table, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';

/**
 * A membership's Secondary members tab: the people an organisation's membership covers (they get member access),
 * how many its level allows, adding one by name and removing one.
 */
export default function SecondaryMembersPanel({ recordId }: RecordActionProps) {
  const queryClient = useQueryClient();
  const key = ['memberships', 'secondary', recordId];
  const members = useQuery({
    queryKey: key,
    queryFn: () => api.get<SecondaryMembers>(`/api/memberships/memberships/${recordId}/members`),
  });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const contacts = useQuery({
    queryKey: ['lookup', 'contacts', debounced],
    queryFn: ({ signal }) =>
      api.get<LookupOption[]>(
        `/api/contacts/contacts/contactLookup?search=${encodeURIComponent(debounced)}`,
        { signal },
      ),
    staleTime: 30_000,
    // The options stay while the next search loads, so a choice made meanwhile is not lost with its option.
    placeholderData: keepPreviousData,
    enabled: members.data?.IsOrganization === true,
  });
  async function change(run: () => Promise<SecondaryMembers>, done: string) {
    setBusy(true);
    try {
      queryClient.setQueryData(key, await run());
      await queryClient.invalidateQueries({ queryKey: ['record', 'memberships', recordId] });
      notifySaved(done);
      setChosen(null);
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }
  if (!members.data) return <LoadingBlock />;
  const data = members.data;
  if (!data.IsOrganization)
    return (
      <Text size="sm" c="dimmed">
        Only an organisation’s membership covers secondary members; this one is {data.PrimaryName}’s own.
      </Text>
    );
  const full = data.Limit !== null && data.Members.length >= data.Limit;
  return (
    <Stack gap="md" data-testid="secondary-members">
      <Text size="sm" role="status">
        {data.PrimaryName} is the primary member.{' '}
        {data.Limit === null
          ? `${data.Members.length} secondary member${data.Members.length === 1 ? '' : 's'} (no limit).`
          : `${data.Members.length} of ${data.Limit} secondary members.`}
      </Text>
      <Table withTableBorder>
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Name</Table.Th>
            <Table.Th>Added</Table.Th>
            <Table.Th>By</Table.Th>
            <Table.Th />
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {data.Members.map((m) => (
            <Table.Tr key={m.ContactId}>
              <Table.Td>{m.ContactName}</Table.Td>
              <Table.Td>{m.AddedOn}</Table.Td>
              <Table.Td>{m.AddedBy}</Table.Td>
              <Table.Td ta="right">
                <Button
                  variant="subtle"
                  color="red"
                  size="xs"
                  aria-label={`Remove ${m.ContactName}`}
                  loading={busy}
                  onClick={() =>
                    void change(
                      () =>
                        api.delete<SecondaryMembers>(
                          `/api/memberships/memberships/${recordId}/members/${m.ContactId}`,
                        ),
                      `${m.ContactName} removed`,
                    )
                  }
                >
                  Remove
                </Button>
              </Table.Td>
            </Table.Tr>
          ))}
          {data.Members.length === 0 ? (
            <Table.Tr>
              <Table.Td colSpan={4}>
                <Text size="sm" c="dimmed">
                  No secondary members yet.
                </Text>
              </Table.Td>
            </Table.Tr>
          ) : null}
        </Table.Tbody>
      </Table>
      {full ? (
        <Alert color="yellow">The level’s limit is reached: remove someone first, or change the level.</Alert>
      ) : (
        <Group align="end">
          <Select
            label="Add a secondary member"
            placeholder="Type a name"
            searchable
            data={(contacts.data ?? [])
              .filter(
                (c) => c.Id !== data.PrimaryContactId && !data.Members.some((m) => m.ContactId === c.Id),
              )
              .map((c) => ({ value: String(c.Id), label: c.Name }))}
            value={chosen}
            onSearchChange={setSearch}
            onChange={setChosen}
            nothingFoundMessage="No contact by that name"
            style={{ flex: 1 }}
          />
          <Button
            disabled={chosen === null}
            loading={busy}
            onClick={() =>
              void change(
                () =>
                  api.post<SecondaryMembers>(`/api/memberships/memberships/${recordId}/members`, {
                    ContactId: Number(chosen),
                  }),
                'Secondary member added',
              )
            }
          >
            Add
          </Button>
        </Group>
      )}
    </Stack>
  );
}
