import type { Model } from '@guildhall/shared';
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
      {open ? (
        <MergeDialog
          keepId={Number(recordId)}
          keepName={String(record.DisplayName ?? '')}
          onClose={() => setOpen(false)}
        />
      ) : null}
    </>
  );
}

function MergeDialog({
  keepId,
  keepName,
  onClose,
}: {
  keepId: number;
  keepName: string;
  onClose: () => void;
}) {
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
    .map((o) => ({ value: String(o.Id), label: `${o.Name || `#${o.Id}`} (#${o.Id})` }));
  const otherName = options.find((o) => o.value === other)?.label ?? '';

  async function merge() {
    if (other === null) return;
    const ok = await confirmDialog({
      title: 'Merge contacts',
      message: `${otherName} will be merged into ${keepName}: its contact info, links and history move to ${keepName}, and it is removed from the lists. This cannot be undone.`,
      okLabel: 'Merge',
      danger: true,
    });
    if (!ok) return;
    setBusy(true);
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
