import { displayTimeZone, INVITABLE_ROLE_LABELS, type InvitationRow, usersResource } from '@guildhall/shared';
import { Anchor, Badge, Button, Group, Stack, Text } from '@mantine/core';
import { IconMailPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { api } from '../../platform/api-client.ts';
import { ClientTable, type Column } from '../../platform/client-table.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { can, useIdentity } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, RequirePermission } from '../../platform/page.tsx';
import { ListScreen } from '../../platform/screens/list-screen.tsx';
import { listSlots } from '../../platform/screens/list-slots.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { activeAction, featureFlagsAction, RoleName, StatusBadge } from './user-actions.tsx';
import { invitationsKey } from './users-api.ts';

/**
 * The users of the association (`/a/users`): the generic users list embedded with the feature's slots: Invite in the
 * toolbar, Deactivate/Reactivate and the feature flags as record actions, the status and role as cells, and the pending
 * invitations (spec 000 section 4) as a tab of their own. Records open at `/a/users/{id}`.
 */
export function UsersPage() {
  return (
    <RequirePermission permission="users.read">
      <UsersScreen />
    </RequirePermission>
  );
}

function UsersScreen() {
  const me = useIdentity();
  const canManage = can(me, 'users.manage') && !me.impersonation;
  const [inviting, setInviting] = useState(false);
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: ({ signal }) => api.get<InvitationRow[]>('/api/users/invitations', { signal }),
  });
  const pending = invitations.data?.length ?? 0;
  const slots = useMemo(
    () =>
      listSlots(usersResource, {
        description:
          'Everyone who can sign in to your association: staff and members, and the colleagues invited.',
        toolbar: canManage ? (
          <Button leftSection={<IconMailPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
            Invite a colleague
          </Button>
        ) : null,
        cells: { IsActive: StatusBadge, Role: RoleName },
        recordActions: [activeAction(me), featureFlagsAction],
        recordPath: (id) => `/a/users/${id}`,
        tabs: [
          {
            key: 'invitations',
            title: 'Pending invitations',
            badge: pending ? (
              <Badge size="sm" variant="light" circle>
                {pending}
              </Badge>
            ) : undefined,
            panel: <InvitationsPanel canManage={canManage} />,
          },
        ],
      }),
    [canManage, pending, me],
  );
  return (
    <>
      <ListScreen resource={usersResource} slots={slots} />
      {canManage ? <InviteDialog opened={inviting} onClose={() => setInviting(false)} /> : null}
    </>
  );
}

function PendingActions({ invitation, canManage }: { invitation: InvitationRow; canManage: boolean }) {
  const queryClient = useQueryClient();
  const call = useMutation({
    mutationFn: (action: 'resend' | 'revoke') =>
      api.post<{ message: string }>(`/api/users/invitations/${invitation.invitationId}/${action}`),
    onSuccess: async (answer) => {
      notifySaved(answer.message);
      await queryClient.invalidateQueries({ queryKey: invitationsKey });
    },
    onError: (error) => notifyError(error, 'The invitation was not changed'),
  });
  const who = invitation.displayName || invitation.email;
  return (
    <Stack gap={4} align="flex-start">
      <SoftBadge color="yellow" style={{ flexShrink: 0 }}>
        {invitation.expired ? 'Pending · link expired' : 'Pending'}
      </SoftBadge>
      {canManage ? (
        <Group gap="sm" wrap="nowrap">
          <Anchor
            component="button"
            type="button"
            size="sm"
            disabled={call.isPending}
            aria-label={`Resend the invitation to ${who}`}
            onClick={() => call.mutate('resend')}
          >
            Resend
          </Anchor>
          <Anchor
            component="button"
            type="button"
            size="sm"
            c="red"
            disabled={call.isPending}
            aria-label={`Revoke the invitation of ${who}`}
            onClick={() => {
              if (window.confirm(`Revoke the invitation of ${who}? The link stops working.`))
                call.mutate('revoke');
            }}
          >
            Revoke
          </Anchor>
        </Group>
      ) : null}
    </Stack>
  );
}

/** The colleagues invited and not signed up yet, with Resend and Revoke. */
function InvitationsPanel({ canManage }: { canManage: boolean }) {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: ({ signal }) => api.get<InvitationRow[]>('/api/users/invitations', { signal }),
  });
  const columns: Column<InvitationRow>[] = [
    {
      key: 'name',
      header: 'Name',
      sortValue: (r) => r.displayName || r.email,
      render: (r) => (
        <div>
          <Text fw={600} size="sm">
            {r.displayName || r.email}
          </Text>
          <Text size="xs" c="dimmed">
            Invited{r.invitedByName ? ` by ${r.invitedByName}` : ''}
          </Text>
        </div>
      ),
    },
    { key: 'email', header: 'Email', sortValue: (r) => r.email, render: (r) => r.email, visibleFrom: 'md' },
    {
      key: 'role',
      header: 'Role',
      sortValue: (r) => r.role,
      render: (r) => INVITABLE_ROLE_LABELS[r.role],
    },
    {
      key: 'status',
      header: 'Status',
      sortValue: (r) => (r.expired ? 1 : 0),
      render: (r) => <PendingActions invitation={r} canManage={canManage} />,
    },
    {
      key: 'sent',
      header: 'Sent',
      sortValue: (r) => r.sentAt,
      render: (r) => formatDateTime(r.sentAt, tz),
      visibleFrom: 'md',
    },
  ];
  if (invitations.isPending) return <LoadingBlock label="Loading invitations" />;
  if (invitations.isError)
    return <ErrorBlock error={invitations.error} onRetry={() => void invitations.refetch()} />;
  return (
    <ClientTable
      label="Pending invitations"
      rows={invitations.data}
      columns={columns}
      rowKey={(r) => String(r.invitationId)}
      searchText={(r) => `${r.displayName} ${r.email} pending`}
      searchLabel="Search invitations"
      initialSort={{ key: 'sent', direction: 'desc' }}
      emptyText="No pending invitations."
    />
  );
}
