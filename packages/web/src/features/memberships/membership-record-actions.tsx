import { membershipStatusName, staffTransitionsFrom } from '@guildhall/shared';
import { Button, Stack, Text, Textarea } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { confirmDialog, StackedModal } from '../../platform/screens/dialogs.tsx';

const LABELS: Record<string, string> = { approve: 'Approve', drop: 'Drop…', reinstate: 'Reinstate' };

/** The lifecycle buttons of a membership's record: the staff transitions its status allows. */
export default function MembershipRecordActions({ recordId, record }: RecordActionProps) {
  const queryClient = useQueryClient();
  const [dropping, setDropping] = useState(false);
  const [busy, setBusy] = useState(false);
  const status = String(record.Status ?? '');
  async function run(which: string, reason: string | null = null) {
    setBusy(true);
    try {
      await api.post(`/api/memberships/memberships/${recordId}/${which}`, { Reason: reason });
      await Promise.all([
        queryClient.invalidateQueries({ queryKey: ['record', 'memberships', recordId] }),
        queryClient.invalidateQueries({ queryKey: ['list'] }),
      ]);
      notifySaved(which === 'drop' ? 'Dropped' : which === 'approve' ? 'Approved' : 'Reinstated');
      setDropping(false);
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }
  async function ask(which: string) {
    if (which === 'drop') {
      setDropping(true);
      return;
    }
    const ok = await confirmDialog({
      title: which === 'approve' ? 'Approve the membership' : 'Reinstate the membership',
      message:
        which === 'approve'
          ? `Approve this ${membershipStatusName(status).toLowerCase()} membership? It becomes active.`
          : 'Reinstate this membership? It becomes active again; a term that has ended starts anew today.',
    });
    if (ok) await run(which);
  }
  return (
    <>
      {staffTransitionsFrom(status).map((which) => (
        <Button
          key={which}
          variant={which === 'drop' ? 'default' : 'filled'}
          color={which === 'drop' ? 'red' : undefined}
          loading={busy}
          onClick={() => void ask(which)}
        >
          {LABELS[which] ?? which}
        </Button>
      ))}
      {dropping ? (
        <DropDialog busy={busy} onClose={() => setDropping(false)} onDrop={(r) => run('drop', r)} />
      ) : null}
    </>
  );
}

function DropDialog(props: {
  busy: boolean;
  onClose: () => void;
  onDrop: (reason: string) => Promise<void>;
}) {
  const [reason, setReason] = useState('');
  return (
    <StackedModal opened onClose={props.onClose} title="Drop the membership">
      <Stack gap="md">
        <Text size="sm">The member loses member access. The reason is kept in the membership's history.</Text>
        <Textarea
          label="Reason"
          required
          autosize
          minRows={2}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.currentTarget.value)}
          data-autofocus
        />
        <Button
          color="red"
          disabled={reason.trim() === ''}
          loading={props.busy}
          onClick={() => void props.onDrop(reason.trim())}
        >
          Drop the membership
        </Button>
      </Stack>
    </StackedModal>
  );
}
