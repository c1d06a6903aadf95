import { Anchor, Text } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { Link } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ClientTable, type Column } from '../../platform/client-table.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { LOGIN_TYPE_LABEL, ROLE_LABEL, type UserSummary, usersKey } from './users-api.ts';

export function UsersPage() {
  return (
    <RequirePermission permission="users.read">
      <UsersScreen />
    </RequirePermission>
  );
}

function UsersScreen() {
  const me = useIdentity();
  const tz = me.tenant.settings.defaultTimezone;
  const query = useQuery({
    queryKey: usersKey,
    queryFn: ({ signal }) => api.get<UserSummary[]>('/api/users', { signal }),
  });

  const columns: Column<UserSummary>[] = [
    {
      key: 'name',
      header: 'Name',
      sortValue: (u) => u.displayName || u.username,
      render: (u) => (
        <div>
          <Anchor component={Link} to={`/a/users/${u.id}`} fw={600} size="sm">
            {u.displayName || u.username}
          </Anchor>
          <Text size="xs" c="dimmed">
            {u.username}
          </Text>
        </div>
      ),
    },
    { key: 'email', header: 'Email', sortValue: (u) => u.email, render: (u) => u.email, visibleFrom: 'md' },
    {
      key: 'type',
      header: 'Login type',
      sortValue: (u) => u.loginType,
      render: (u) => LOGIN_TYPE_LABEL[u.loginType],
      visibleFrom: 'sm',
    },
    { key: 'role', header: 'Role', sortValue: (u) => u.role, render: (u) => ROLE_LABEL[u.role] },
    {
      key: 'status',
      header: 'Status',
      sortValue: (u) => (u.isActive ? 0 : 1),
      render: (u) =>
        u.isActive ? (
          <SoftBadge color="green">Active</SoftBadge>
        ) : (
          <SoftBadge color="gray">Inactive</SoftBadge>
        ),
    },
    {
      key: 'lastSignIn',
      header: 'Last sign-in',
      sortValue: (u) => u.lastSignInAt,
      render: (u) =>
        u.lastSignInAt ? (
          formatDateTime(u.lastSignInAt, tz)
        ) : (
          <Text c="dimmed" size="sm">
            Never
          </Text>
        ),
      visibleFrom: 'md',
    },
  ];

  return (
    <>
      <PageHeader
        title="Users"
        description="Everyone who can sign in to your association: staff and members."
      />
      {query.isPending ? <LoadingBlock label="Loading users" /> : null}
      {query.isError ? <ErrorBlock error={query.error} onRetry={() => void query.refetch()} /> : null}
      {query.data ? (
        <ClientTable
          label="Users"
          rows={query.data}
          columns={columns}
          rowKey={(u) => u.id}
          searchText={(u) => `${u.displayName} ${u.username} ${u.email}`}
          searchLabel="Search users"
          initialSort={{ key: 'name', direction: 'asc' }}
          emptyText="No users yet."
        />
      ) : null}
    </>
  );
}
