import {
  type ContactRelation,
  contactLabel,
  contactLinksResource,
  type LookupOption,
  type Model,
  RELATION_CHOICES,
} from '@guildhall/shared';
import {
  Anchor,
  Badge,
  Button,
  Group,
  Paper,
  Select,
  Stack,
  Table,
  Text,
  VisuallyHidden,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { confirmDialog } from '../../platform/screens/dialogs.tsx';
import { apiBase } from '../../platform/screens/resources.ts';

/**
 * The record's related contacts: every link that names it, from either side ("Employee of Acme Widgets" here,
 * "Employer of Ada Lovelace" on Acme's record), by name with a link to the other record. A relation is added and
 * removed right here; the page stays on the record.
 */
export default function ContactRelations({ recordId, record }: { recordId: string; record: Model }) {
  const queryClient = useQueryClient();
  const key = ['contact-relations', recordId];
  const relations = useQuery({
    queryKey: key,
    queryFn: ({ signal }) =>
      api.get<ContactRelation[]>(`/api/contacts/contacts/${encodeURIComponent(recordId)}/relations`, {
        signal,
      }),
  });
  const refresh = () => queryClient.invalidateQueries({ queryKey: key });
  const name = contactLabel(record);

  async function remove(r: ContactRelation) {
    const ok = await confirmDialog({
      title: `Remove ${r.Relation.toLowerCase()} ${r.OtherName}?`,
      message: `${name} will no longer be linked to ${r.OtherName}. Both contacts stay.`,
      okLabel: 'Remove',
      danger: true,
    });
    if (!ok) return;
    try {
      await api.delete(`${apiBase(contactLinksResource)}/${r.LinkId}`);
      notifySaved(`${name} is no longer linked to ${r.OtherName}.`);
      await refresh();
    } catch (error) {
      notifyError(error);
    }
  }

  if (relations.error) return <ErrorBlock error={relations.error} onRetry={() => void relations.refetch()} />;
  if (!relations.data) return <LoadingBlock />;
  const rows = relations.data;
  return (
    <Stack gap="sm">
      <Badge variant="light" aria-live="polite">
        {rows.length} {rows.length === 1 ? 'related contact' : 'related contacts'}
      </Badge>
      {rows.length === 0 ? (
        <Text size="sm" c="dimmed">
          No related contacts yet.
        </Text>
      ) : (
        <Table aria-label="Related contacts" withTableBorder>
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Relation</Table.Th>
              <Table.Th>Contact</Table.Th>
              <Table.Th>
                <VisuallyHidden>Actions</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {rows.map((r) => (
              <Table.Tr key={r.LinkId}>
                <Table.Td>{r.Relation}</Table.Td>
                <Table.Td>
                  <Anchor component={Link} to={`/micronet/list/contacts/contacts/${r.OtherContactId}`}>
                    {r.OtherName}
                  </Anchor>
                </Table.Td>
                <Table.Td align="right">
                  <Button
                    size="compact-sm"
                    variant="subtle"
                    color="red"
                    onClick={() => void remove(r)}
                    aria-label={`Remove ${r.Relation.toLowerCase()} ${r.OtherName}`}
                  >
                    Remove
                  </Button>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <AddRelation contactId={Number(recordId)} name={name} onAdded={refresh} />
    </Stack>
  );
}

function AddRelation({
  contactId,
  name,
  onAdded,
}: {
  contactId: number;
  name: string;
  onAdded: () => unknown;
}) {
  const [choice, setChoice] = useState<string | null>(RELATION_CHOICES[0]?.value ?? null);
  const [other, setOther] = useState<string | null>(null);
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
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
    .filter((o) => o.Id !== contactId)
    .map((o) => {
      const extra = (o.ExtraData ?? {}) as { AccountNumber?: string | null; City?: string | null };
      const label = contactLabel({ DisplayName: o.Name, AccountNumber: extra.AccountNumber });
      return { value: String(o.Id), label: extra.City ? `${label} · ${extra.City}` : label };
    });

  async function add() {
    const c = RELATION_CHOICES.find((x) => x.value === choice);
    if (!c || other === null) return;
    setBusy(true);
    try {
      await api.post(`${apiBase(contactLinksResource)}/${contactLinksResource.view}Save`, {
        ContactId: c.outgoing ? contactId : Number(other),
        RelatedContactId: c.outgoing ? Number(other) : contactId,
        LinkType: c.LinkType,
      });
      notifySaved(`${name}: ${c.label.toLowerCase()} ${options.find((o) => o.value === other)?.label ?? ''}`);
      setOther(null);
      setSearch('');
      await onAdded();
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }

  return (
    <Paper withBorder p="sm">
      <Group align="flex-end" gap="sm" wrap="wrap">
        <Select
          label="Relation"
          data={RELATION_CHOICES.map((c) => ({ value: c.value, label: c.label }))}
          value={choice}
          onChange={setChoice}
          allowDeselect={false}
          w={220}
        />
        <Select
          label="Related contact"
          data={options}
          searchable
          clearable
          filter={({ options: o }) => o}
          onSearchChange={setSearch}
          searchValue={search}
          nothingFoundMessage="Nothing found"
          value={other}
          onChange={setOther}
          w={320}
        />
        <Button onClick={() => void add()} disabled={other === null || choice === null} loading={busy}>
          Add related contact
        </Button>
      </Group>
    </Paper>
  );
}
