import { displayTimeZone, INVITABLE_ROLE_LABELS, type InvitationRow } from '@guildhall/shared';
import { Anchor, Button, Group, Stack, Text } from '@mantine/core';
import { IconMailPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ClientTable, type Column } from '../../platform/client-table.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { can, useIdentity } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { InviteDialog } from './invite-dialog.tsx';
import { UserActiveToggle } from './user-active-toggle.tsx';
import { invitationsKey, LOGIN_TYPE_LABEL, ROLE_LABEL, type UserSummary, usersKey } from './users-api.ts';

export function UsersPage() {
  return (
    <RequirePermission permission="users.read">
      <UsersScreen />
    </RequirePermission>
  );
}

/** A row of the list: a user, or a pending user (an invitation not accepted yet, spec 000 section 4). */
type Row = { kind: 'user'; user: UserSummary } | { kind: 'invitation'; invitation: InvitationRow };

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

function UsersScreen() {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const canManage = can(me, 'users.manage') && !me.impersonation;
  const [inviting, setInviting] = useState(false);
  const query = useQuery({
    queryKey: usersKey,
    queryFn: ({ signal }) => api.get<UserSummary[]>('/api/users', { signal }),
  });
  const invitations = useQuery({
    queryKey: invitationsKey,
    queryFn: ({ signal }) => api.get<InvitationRow[]>('/api/users/invitations', { signal }),
  });

  const nameOf = (r: Row) =>
    r.kind === 'user'
      ? r.user.displayName || r.user.username
      : r.invitation.displayName || r.invitation.email;
  const columns: Column<Row>[] = [
    {
      key: 'name',
      header: 'Name',
      sortValue: nameOf,
      render: (r) =>
        r.kind === 'user' ? (
          <div>
            <Anchor component={Link} to={`/a/users/${r.user.id}`} fw={600} size="sm">
              {nameOf(r)}
            </Anchor>
            <Text size="xs" c="dimmed">
              {r.user.username}
            </Text>
          </div>
        ) : (
          <div>
            <Text fw={600} size="sm">
              {nameOf(r)}
            </Text>
            <Text size="xs" c="dimmed">
              Invited{r.invitation.invitedByName ? ` by ${r.invitation.invitedByName}` : ''}
            </Text>
          </div>
        ),
    },
    {
      key: 'email',
      header: 'Email',
      sortValue: (r) => (r.kind === 'user' ? r.user.email : r.invitation.email),
      render: (r) => (r.kind === 'user' ? r.user.email : r.invitation.email),
      visibleFrom: 'md',
    },
    {
      key: 'type',
      header: 'Login type',
      sortValue: (r) => (r.kind === 'user' ? r.user.loginType : 'staff'),
      render: (r) => LOGIN_TYPE_LABEL[r.kind === 'user' ? r.user.loginType : 'staff'],
      visibleFrom: 'sm',
    },
    {
      key: 'role',
      header: 'Role',
      sortValue: (r) => (r.kind === 'user' ? r.user.role : r.invitation.role),
      render: (r) => (r.kind === 'user' ? ROLE_LABEL[r.user.role] : INVITABLE_ROLE_LABELS[r.invitation.role]),
    },
    {
      key: 'status',
      header: 'Status',
      sortValue: (r) => (r.kind === 'invitation' ? 0 : r.user.isActive ? 1 : 2),
      render: (r) =>
        r.kind === 'invitation' ? (
          <PendingActions invitation={r.invitation} canManage={canManage} />
        ) : (
          <Stack gap={4} align="flex-start">
            {r.user.isActive ? (
              <SoftBadge color="green">Active</SoftBadge>
            ) : (
              <SoftBadge color="gray">Inactive</SoftBadge>
            )}
            {canManage && r.user.id !== me.user.id ? (
              <UserActiveToggle userId={r.user.id} userName={nameOf(r)} isActive={r.user.isActive} />
            ) : null}
          </Stack>
        ),
    },
    {
      key: 'lastSignIn',
      header: 'Last sign-in',
      sortValue: (r) => (r.kind === 'user' ? r.user.lastSignInAt : r.invitation.sentAt),
      render: (r) =>
        r.kind === 'invitation' ? (
          <Text c="dimmed" size="sm">
            Invitation sent {formatDateTime(r.invitation.sentAt, tz)}
          </Text>
        ) : r.user.lastSignInAt ? (
          formatDateTime(r.user.lastSignInAt, tz)
        ) : (
          <Text c="dimmed" size="sm">
            Never
          </Text>
        ),
      visibleFrom: 'md',
    },
  ];

  const rows: Row[] | undefined = query.data
    ? [
        ...(invitations.data ?? []).map((invitation) => ({ kind: 'invitation' as const, invitation })),
        ...query.data.map((user) => ({ kind: 'user' as const, user })),
      ]
    : undefined;

  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who can sign in to your association: staff and members, and the colleagues invited."
        actions={
          canManage ? (
            <Button leftSection={<IconMailPlus size={16} aria-hidden />} onClick={() => setInviting(true)}>
              Invite a colleague
            </Button>
          ) : null
        }
      />
      {query.isPending ? <LoadingBlock label="Loading users" /> : null}
      {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      {rows ? (
        <ClientTable
          label="Users"
          rows={rows}
          columns={columns}
          rowKey={(r) => (r.kind === 'user' ? `u${r.user.id}` : `i${r.invitation.invitationId}`)}
          searchText={(r) =>
            r.kind === 'user'
              ? `${r.user.displayName} ${r.user.username} ${r.user.email}`
              : `${r.invitation.displayName} ${r.invitation.email} pending`
          }
          searchLabel="Search users"
          initialSort={{ key: 'status', direction: 'asc' }}
          emptyText="No users yet."
        />
      ) : null}
      {canManage ? <InviteDialog opened={inviting} onClose={() => setInviting(false)} /> : null}
    </>
  );
}
