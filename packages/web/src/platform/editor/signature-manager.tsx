/**
 * The signature manager (spec 001 section 2), opened from the editors through the view template
 * `ManageSignaturesViewModel` in a large modal: the current user's signatures, added, edited in the rich-text editor,
 * deleted, and one made the default.
 */
import { MERGE_FLAGS, type Signature, TEMPLATE_TYPES } from '@guildhall/shared';
import {
  ActionIcon,
  Alert,
  Badge,
  Button,
  Group,
  Paper,
  Stack,
  Text,
  TextInput,
  Tooltip,
} from '@mantine/core';
import { IconPencil, IconStar, IconTrash } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../api-client.ts';
import { notifyError, notifySaved } from '../notify.ts';
import { confirmDialog } from '../screens/dialogs.tsx';
import { RichTextEditor } from './rich-text-editor.tsx';
import { SafeHtml } from './safe-html.tsx';

const SIGNATURE_CONTEXT = {
  flags: MERGE_FLAGS.RichText,
  templateType: TEMPLATE_TYPES.Signature,
  entity: 'signature',
};

function SignatureForm({ initial, onDone }: { initial: Signature | null; onDone: () => void }) {
  const queryClient = useQueryClient();
  const [name, setName] = useState(initial?.Name ?? '');
  const [html, setHtml] = useState(initial?.SignatureHtml ?? '');
  const [saving, setSaving] = useState(false);
  const save = async () => {
    setSaving(true);
    try {
      const body = { Name: name, SignatureHtml: html };
      if (initial) await api.put(`/api/signatures/${initial.SignatureId}`, body);
      else await api.post('/api/signatures', body);
      await queryClient.invalidateQueries({ queryKey: ['signatures'] });
      notifySaved();
      onDone();
    } catch (e) {
      notifyError(e);
    } finally {
      setSaving(false);
    }
  };
  return (
    <Paper withBorder p="md">
      <Stack>
        <TextInput
          label="Name"
          required
          value={name}
          onChange={(e) => setName(e.currentTarget.value)}
          maxLength={200}
        />
        <div>
          <Text size="sm" fw={500} mb={4}>
            Signature
          </Text>
          <RichTextEditor
            label="Signature"
            value={html}
            onChange={setHtml}
            mergeContext={SIGNATURE_CONTEXT}
            minHeight={100}
          />
        </div>
        <Group justify="flex-end">
          <Button variant="default" onClick={onDone}>
            Cancel
          </Button>
          <Button onClick={save} loading={saving} disabled={name.trim() === ''}>
            Save signature
          </Button>
        </Group>
      </Stack>
    </Paper>
  );
}

export function SignatureManager({ onClose }: { onClose: () => void }) {
  const queryClient = useQueryClient();
  const list = useQuery({
    queryKey: ['signatures', 'current'],
    queryFn: () => api.get<Signature[]>('/api/signatures/currentUserSignatures'),
  });
  const [editing, setEditing] = useState<Signature | 'new' | null>(null);
  const refresh = () => queryClient.invalidateQueries({ queryKey: ['signatures'] });
  return (
    <Stack>
      {list.isError ? <Alert color="red">{list.error.message}</Alert> : null}
      {(list.data ?? []).length === 0 && !list.isPending ? (
        <Alert color="gray">You have no signature yet. Add one to insert it in your messages.</Alert>
      ) : null}
      {(list.data ?? []).map((s) =>
        editing !== 'new' && editing?.SignatureId === s.SignatureId ? (
          <SignatureForm key={s.SignatureId} initial={s} onDone={() => setEditing(null)} />
        ) : (
          <Paper key={s.SignatureId} withBorder p="sm">
            <Group justify="space-between" align="flex-start" wrap="nowrap">
              <Stack gap={4} style={{ minWidth: 0 }}>
                <Group gap="xs">
                  <Text fw={600}>{s.Name}</Text>
                  {s.IsDefault ? <Badge size="sm">Default</Badge> : null}
                </Group>
                <SafeHtml className="gh-signature-preview" html={s.SignatureHtml} />
              </Stack>
              <Group gap={4} wrap="nowrap">
                {s.IsDefault ? null : (
                  <Tooltip label="Make default">
                    <ActionIcon
                      variant="subtle"
                      aria-label={`Make ${s.Name} the default`}
                      onClick={async () => {
                        await api.post(`/api/signatures/${s.SignatureId}/default`).catch(notifyError);
                        await refresh();
                      }}
                    >
                      <IconStar size={16} />
                    </ActionIcon>
                  </Tooltip>
                )}
                <Tooltip label="Edit">
                  <ActionIcon variant="subtle" aria-label={`Edit ${s.Name}`} onClick={() => setEditing(s)}>
                    <IconPencil size={16} />
                  </ActionIcon>
                </Tooltip>
                <Tooltip label="Delete">
                  <ActionIcon
                    variant="subtle"
                    color="red"
                    aria-label={`Delete ${s.Name}`}
                    onClick={async () => {
                      if (
                        !(await confirmDialog({ message: `Delete the signature "${s.Name}"?`, danger: true }))
                      )
                        return;
                      await api.delete(`/api/signatures/${s.SignatureId}`).catch(notifyError);
                      await refresh();
                    }}
                  >
                    <IconTrash size={16} />
                  </ActionIcon>
                </Tooltip>
              </Group>
            </Group>
          </Paper>
        ),
      )}
      {editing === 'new' ? <SignatureForm initial={null} onDone={() => setEditing(null)} /> : null}
      <Group justify="space-between">
        <Button variant="light" onClick={() => setEditing('new')} disabled={editing !== null}>
          Add signature
        </Button>
        <Button variant="default" onClick={onClose}>
          Close
        </Button>
      </Group>
    </Stack>
  );
}

export default SignatureManager;
