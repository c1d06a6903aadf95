import type { ContactUserLink, LookupOption } from '@guildhall/shared';
import { Anchor, Button, Card, Group, Select, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';

const linkKey = (userId: number) => ['users', userId, 'contact'] as const;

/**
 * The contact a user signs in as (a member's own profile in the member area): linked, changed or unlinked here, as it
 * is from the contact's record.
 */
export function UserContactCard({ userId, canManage }: { userId: number; canManage: boolean }) {
  const queryClient = useQueryClient();
  const link = useQuery({
    queryKey: linkKey(userId),
    queryFn: () => api.get<ContactUserLink | null>(`/api/contacts/userContact/${userId}`),
  });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<string | null>(null);
  const options = useQuery({
    queryKey: ['contacts', 'lookup', debounced],
    queryFn: () =>
      api.get<LookupOption[]>(`/api/contacts/contacts/contactLookup?search=${encodeURIComponent(debounced)}`),
    enabled: canManage,
  });
  const save = useMutation({
    mutationFn: (input: { contactId: number; userId: number | null }) =>
      api.put<ContactUserLink>(`/api/contacts/contacts/${input.contactId}/user`, { UserId: input.userId }),
    onSuccess: async () => {
      setChosen(null);
      await queryClient.invalidateQueries({ queryKey: linkKey(userId) });
      notifySaved();
    },
    onError: (error) => notifyError(error, 'The link was not saved'),
  });
  const linked = link.data ?? null;
  return (
    <Card withBorder component="section" aria-labelledby="user-contact">
      <Text fw={700} component="h2" id="user-contact" mb="xs">
        Contact record
      </Text>
      {link.isPending ? null : linked ? (
        <Group justify="space-between" mb="sm">
          <Text size="sm">
            Signs in as{' '}
            <Anchor component={Link} to={`/micronet/list/contacts/contacts/${linked.ContactId}`}>
              {linked.ContactName}
            </Anchor>
          </Text>
          {canManage ? (
            <Button
              variant="default"
              size="xs"
              loading={save.isPending}
              onClick={() => save.mutate({ contactId: linked.ContactId, userId: null })}
            >
              Unlink
            </Button>
          ) : null}
        </Group>
      ) : (
        <Text size="sm" c="dimmed" mb="sm">
          Not linked to a contact record: a member sees no profile of their own until it is.
        </Text>
      )}
      {canManage ? (
        <Group align="flex-end" gap="sm">
          <Select
            label={linked ? 'Link to another contact' : 'Link to a contact'}
            placeholder="Type a name"
            searchable
            clearable
            data={(options.data ?? []).map((o) => ({ value: String(o.Id), label: o.Name }))}
            searchValue={search}
            onSearchChange={setSearch}
            value={chosen}
            onChange={setChosen}
            filter={({ options: all }) => all}
            style={{ flex: 1 }}
          />
          <Button
            disabled={chosen === null}
            loading={save.isPending}
            onClick={() => chosen && save.mutate({ contactId: Number(chosen), userId })}
          >
            Link
          </Button>
        </Group>
      ) : null}
    </Card>
  );
}
