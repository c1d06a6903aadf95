import { INVITABLE_ROLE_LABELS, INVITABLE_ROLES, type InvitableRole } from '@guildhall/shared';
import { Button, Group, Modal, SegmentedControl, Stack, Text, TextInput } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { notifySaved } from '../../platform/notify.ts';
import { invitationsKey } from './users-api.ts';

const ROLE_HELP: Record<InvitableRole, string> = {
  staff: 'Works in the back office: contacts, memberships, events, billing, tasks.',
  admin: 'Everything staff do, and also users, settings, terms of use and the audit log.',
};

/** Invite a colleague by email with a role: they get a single-use link that works for 7 days. */
export function InviteDialog({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  const queryClient = useQueryClient();
  const [email, setEmail] = useState('');
  const [name, setName] = useState('');
  const [role, setRole] = useState<InvitableRole>('staff');
  const invite = useMutation({
    mutationFn: () =>
      api.post<{ message: string }>('/api/users/invitations/invite', {
        Email: email.trim(),
        DisplayName: name.trim() || undefined,
        Role: role,
      }),
    onSuccess: async (answer) => {
      notifySaved(answer.message);
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
      setEmail('');
      setName('');
      setRole('staff');
      invite.reset();
      onClose();
    },
  });
  const emailError = isApiError(invite.error) ? invite.error.fieldError('Email') : undefined;
  const submit = (event: FormEvent) => {
    event.preventDefault();
    invite.mutate();
  };
  return (
    <Modal opened={opened} onClose={onClose} title="Invite a colleague" size="md">
      <form onSubmit={submit} noValidate>
        <Stack gap="md">
          <Text size="sm" c="dimmed">
            We email them a link to choose a username and password. It works once, for 7 days; until they
            accept they show as pending, with Resend.
          </Text>
          {invite.error && !emailError ? <ErrorBlock error={invite.error} /> : null}
          <TextInput
            label="Email"
            type="email"
            required
            value={email}
            error={emailError}
            onChange={(e) => setEmail(e.currentTarget.value)}
            data-autofocus
          />
          <TextInput
            label="Name"
            description="Optional"
            value={name}
            onChange={(e) => setName(e.currentTarget.value)}
          />
          <Stack gap={4}>
            <Text size="sm" fw={500} id="invite-role">
              Role
            </Text>
            <SegmentedControl
              aria-labelledby="invite-role"
              value={role}
              onChange={(v) => setRole(v as InvitableRole)}
              data={INVITABLE_ROLES.map((r) => ({ value: r, label: INVITABLE_ROLE_LABELS[r] }))}
            />
            <Text size="xs" c="dimmed">
              {ROLE_HELP[role]}
            </Text>
          </Stack>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" loading={invite.isPending}>
              Send invitation
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
