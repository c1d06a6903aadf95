import {
  type MembershipChange,
  type MembershipChangeAnswer,
  type MembershipOptions,
  membershipStatusName,
  staffTransitionsFrom,
} from '@guildhall/shared';
import { Alert, Button, Select, Stack, Table, Text, Textarea } from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { confirmDialog, StackedModal } from '../../platform/screens/dialogs.tsx';

const LABELS: Record<string, string> = { approve: 'Approve', drop: 'Drop…', reinstate: 'Reinstate' };

/** The lifecycle buttons of a membership's record: the staff transitions its status allows. */
export default function MembershipRecordActions({ recordId, record }: RecordActionProps) {
  const queryClient = useQueryClient();
  const [dropping, setDropping] = useState(false);
  const [changing, setChanging] = useState(false);
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
      {status === 'active' ? (
        <Button variant="default" onClick={() => setChanging(true)}>
          Upgrade or downgrade…
        </Button>
      ) : null}
      {changing ? (
        <ChangeDialog
          recordId={recordId}
          record={record}
          onClose={() => setChanging(false)}
          onDone={async () => {
            setChanging(false);
            await Promise.all([
              queryClient.invalidateQueries({ queryKey: ['record', 'memberships', recordId] }),
              queryClient.invalidateQueries({ queryKey: ['list'] }),
            ]);
          }}
        />
      ) : null}
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

const num = (v: string | null) => (v === null || v === '' ? null : Number(v));

/**
 * Upgrade or downgrade mid-term: choose the new type, level, chapter or frequency; the server's preview shows the
 * credit for the unused old term, the invoice for the days left at the new price and the net before confirming.
 */
function ChangeDialog(props: {
  recordId: string;
  record: RecordActionProps['record'];
  onClose: () => void;
  onDone: () => Promise<void>;
}) {
  const options = useQuery({
    queryKey: ['memberships', 'options'],
    queryFn: () => api.get<MembershipOptions>('/api/memberships/options'),
  });
  const [typeId, setTypeId] = useState<number | null>(Number(props.record.MembershipTypeId) || null);
  const [levelId, setLevelId] = useState<number | null>(
    props.record.MembershipLevelId == null ? null : Number(props.record.MembershipLevelId),
  );
  const [chapterId, setChapterId] = useState<number | null>(
    props.record.ChapterId == null ? null : Number(props.record.ChapterId),
  );
  const [frequency, setFrequency] = useState<number | null>(
    props.record.BillFrequencyTypeId == null ? null : Number(props.record.BillFrequencyTypeId),
  );
  const [busy, setBusy] = useState(false);
  const type = options.data?.Types.find((t) => t.MembershipTypeId === typeId);
  const body: MembershipChange = {
    MembershipTypeId: typeId,
    MembershipLevelId: levelId,
    ChapterId: chapterId,
    BillFrequencyTypeId: frequency,
  };
  const preview = useQuery({
    queryKey: ['memberships', 'change-preview', props.recordId, body],
    queryFn: () =>
      api.post<MembershipChangeAnswer>(`/api/memberships/memberships/${props.recordId}/change/preview`, body),
    enabled: typeId !== null,
    retry: false,
  });
  async function confirm() {
    setBusy(true);
    try {
      const done = await api.post<MembershipChangeAnswer>(
        `/api/memberships/memberships/${props.recordId}/change`,
        body,
      );
      notifySaved(done.message);
      await props.onDone();
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }
  const p = preview.data;
  return (
    <StackedModal opened onClose={props.onClose} title="Upgrade or downgrade">
      <Stack gap="md">
        <Select
          label="Membership type"
          data={(options.data?.Types ?? []).map((t) => ({
            value: String(t.MembershipTypeId),
            label: t.Name,
          }))}
          value={typeId === null ? null : String(typeId)}
          onChange={(v) => {
            setTypeId(num(v));
            setLevelId(null);
            setFrequency(null);
          }}
          allowDeselect={false}
        />
        {type && type.Levels.length > 0 ? (
          <Select
            label="Level"
            data={type.Levels.map((l) => ({ value: String(l.MembershipLevelId), label: l.Name }))}
            value={levelId === null ? null : String(levelId)}
            onChange={(v) => setLevelId(num(v))}
          />
        ) : null}
        {(options.data?.Chapters.length ?? 0) > 0 ? (
          <Select
            label="Chapter"
            clearable
            data={(options.data?.Chapters ?? []).map((c) => ({ value: String(c.ChapterId), label: c.Name }))}
            value={chapterId === null ? null : String(chapterId)}
            onChange={(v) => setChapterId(num(v))}
          />
        ) : null}
        {type && type.Frequencies.length > 1 ? (
          <Select
            label="Billing frequency"
            data={type.Frequencies.map((f) => ({ value: String(f.BillFrequencyTypeId), label: f.Name }))}
            value={frequency === null ? null : String(frequency)}
            onChange={(v) => setFrequency(num(v))}
          />
        ) : null}
        {preview.error ? (
          <Alert color="yellow" role="status">
            {preview.error instanceof Error ? preview.error.message : 'This change cannot be made.'}
          </Alert>
        ) : null}
        {p ? (
          <div role="status" aria-live="polite">
            <Text size="sm" mb="xs">
              {p.FromName} to {p.ToName} ({p.Direction}): {p.DaysLeft} of {p.DaysInTerm} days of the term are
              left (to {p.TermEnd}).
            </Text>
            <Table>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>Credit for the unused old term</Table.Td>
                  <Table.Td ta="right">{formatMoney(p.CreditCents)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>New invoice for the days left</Table.Td>
                  <Table.Td ta="right">{formatMoney(p.ChargeCents)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td fw={600}>
                    {p.NetCents >= 0 ? 'The member owes' : 'Left as the member’s credit'}
                  </Table.Td>
                  <Table.Td ta="right" fw={600}>
                    {formatMoney(Math.abs(p.NetCents))}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          </div>
        ) : null}
        <Button disabled={!p || preview.isFetching} loading={busy} onClick={() => void confirm()}>
          Confirm the change
        </Button>
      </Stack>
    </StackedModal>
  );
}
