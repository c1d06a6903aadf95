import { contactLabel, type Model, mergeConfirmation } from '@guildhall/shared';
import { Button, Group, Select, Stack, Text } from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { confirmDialog, StackedModal } from '../../platform/screens/dialogs.tsx';

interface LookupOption {
  Id: number;
  Name: string;
  ExtraData?: unknown;
}

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
export default function ContactRecordActions({ recordId, record }: { recordId: string; record: Model }) {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button variant="default" onClick={() => setOpen(true)}>
        Merge…
      </Button>
      {open ? <MergeDialog keepId={Number(recordId)} keep={record} onClose={() => setOpen(false)} /> : null}
    </>
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
