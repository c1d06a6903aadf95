import {
  type ContactUserLink,
  contactLabel,
  type LookupOption,
  type Model,
  mergeConfirmation,
} from '@guildhall/shared';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { can, useIdentity } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { confirmDialog, StackedModal } from '../../platform/screens/dialogs.tsx';

/** "Adams, Bill (A0000292) · Cambridge": a name with what tells namesakes apart, never an internal id. */
function lookupLabel(o: LookupOption): string {
  const extra = (o.ExtraData ?? {}) as { AccountNumber?: unknown; City?: unknown };
  const label = contactLabel({ DisplayName: o.Name, AccountNumber: extra.AccountNumber });
  return typeof extra.City === 'string' && extra.City !== '' ? `${label} · ${extra.City}` : label;
}

/**
 * Merge two duplicate contacts from the record: choose the other contact, confirm, then
 * POST /api/contacts/contacts/merge keeps this record and moves the other's history onto it.
 */
export default function ContactRecordActions({ recordId, record }: RecordActionProps) {
  const [open, setOpen] = useState(false);
  const [signIn, setSignIn] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setSignIn(true)}>
        Sign-in…
      </Button>
      <Button variant="default" onClick={() => setOpen(true)}>
        Merge…
      </Button>
      {open ? <MergeDialog keepId={Number(recordId)} keep={record} onClose={() => setOpen(false)} /> : null}
      {signIn ? <UserLinkDialog contactId={Number(recordId)} onClose={() => setSignIn(false)} /> : null}
    </>
  );
}

/**
 * The user (sign-in) this contact is: a member signs in to the member area as their contact. Link a user of the
 * association, or unlink; the same link is made from the user's record.
 */
function UserLinkDialog({ contactId, onClose }: { contactId: number; onClose: () => void }) {
  const me = useIdentity();
  const canManage = can(me, 'users.manage');
  const queryClient = useQueryClient();
  const linkKey = ['contacts', contactId, 'user'];
  const link = useQuery({
    queryKey: linkKey,
    queryFn: () => api.get<ContactUserLink>(`/api/contacts/contacts/${contactId}/user`),
  });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [chosen, setChosen] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { data = [] } = useQuery({
    queryKey: ['lookup', 'users', debounced],
    queryFn: ({ signal }) =>
      api.get<LookupOption[]>(`/api/setup/users/userLookup?search=${encodeURIComponent(debounced)}`, {
        signal,
      }),
    enabled: canManage,
    staleTime: 30_000,
  });
  async function put(userId: number | null) {
    setBusy(true);
    try {
      await api.put(`/api/contacts/contacts/${contactId}/user`, { UserId: userId });
      await queryClient.invalidateQueries({ queryKey: linkKey });
      setChosen(null);
      notifySaved(userId === null ? 'Unlinked' : 'Linked');
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }
  const linked = link.data;
  return (
    <StackedModal opened onClose={onClose} title="Sign-in of this contact">
      <Stack gap="md">
        {linked?.UserId ? (
          <Group justify="space-between">
            <Text size="sm">
              Signs in as <strong>{linked.UserName}</strong> ({linked.Username})
            </Text>
            {canManage ? (
              <Button variant="default" size="xs" loading={busy} onClick={() => void put(null)}>
                Unlink
              </Button>
            ) : null}
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            No user signs in as this contact.
          </Text>
        )}
        {canManage ? (
          <Group align="flex-end" gap="sm">
            <Select
              label={linked?.UserId ? 'Link another user' : 'Link a user'}
              data={data.map((o) => ({ value: String(o.Id), label: o.Name }))}
              searchable
              clearable
              filter={({ options: o }) => o}
              onSearchChange={setSearch}
              nothingFoundMessage="Nothing found"
              value={chosen}
              onChange={setChosen}
              style={{ flex: 1 }}
            />
            <Button
              disabled={chosen === null}
              loading={busy}
              onClick={() => chosen && void put(Number(chosen))}
            >
              Link
            </Button>
          </Group>
        ) : (
          <Text size="sm" c="dimmed">
            Only administrators link users and contacts.
          </Text>
        )}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Close
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}

function MergeDialog({ keepId, keep, onClose }: { keepId: number; keep: Model; onClose: () => void }) {
  const keepName = contactLabel({ DisplayName: keep.DisplayName, AccountNumber: keep.AccountNumber });
  const queryClient = useQueryClient();
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const [other, setOther] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const { data = [] } = useQuery({
    queryKey: ['lookup', 'contacts', debounced],
    queryFn: ({ signal }) =>
      api.get<LookupOption[]>(
        `/api/contacts/contacts/contactLookup?search=${encodeURIComponent(debounced)}`,
        {
          signal,
        },
      ),
    staleTime: 30_000,
  });
  const options = data
    .filter((o) => o.Id !== keepId)
    .map((o) => ({ value: String(o.Id), label: lookupLabel(o) }));

  async function merge() {
    if (other === null) return;
    setBusy(true);
    let duplicate: Model;
    try {
      duplicate = await api.post<Model>('/api/contacts/contacts/contactGet', { id: Number(other) });
    } catch (error) {
      notifyError(error);
      setBusy(false);
      return;
    }
    const ok = await confirmDialog({
      title: 'Merge contacts',
      message: `${mergeConfirmation(keep, duplicate)}: its contact info, links, notes and history move to ${keepName}, and it is removed from the lists. This cannot be undone.`,
      okLabel: 'Merge',
      danger: true,
    });
    if (!ok) {
      setBusy(false);
      return;
    }
    try {
      await api.post('/api/contacts/contacts/merge', {
        KeepContactId: keepId,
        MergeContactId: Number(other),
      });
      await queryClient.invalidateQueries();
      notifySaved(`Merged into ${keepName}`);
      onClose();
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <StackedModal opened onClose={onClose} title="Merge a duplicate into this contact">
      <Stack gap="md">
        <Text size="sm">
          Choose the duplicate of <strong>{keepName}</strong>. This contact is kept; the duplicate's history
          moves onto it.
        </Text>
        <Select
          label="Duplicate contact"
          data={options}
          searchable
          clearable
          filter={({ options: o }) => o}
          onSearchChange={setSearch}
          nothingFoundMessage="Nothing found"
          value={other}
          onChange={setOther}
          data-autofocus
        />
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button color="red" disabled={other === null} loading={busy} onClick={() => void merge()}>
            Merge
          </Button>
        </Group>
      </Stack>
    </StackedModal>
  );
}
