import { displayTimeZone } from '@guildhall/shared';
import { Anchor, Card, Group, SimpleGrid, Text } from '@mantine/core';
import { IconChevronLeft } from '@tabler/icons-react';
import { useQuery } from '@tanstack/react-query';
import { Link, useParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { can, useIdentity } from '../../platform/identity.ts';
import { NotFoundPage } from '../../platform/not-found.tsx';
import { LoadingBlock, PageHeader, RequirePermission } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { ImpersonateButton } from '../impersonation/index.ts';
import { FeatureFlagsCard } from './feature-flags-card.tsx';
import { SendResetLinkButton } from './send-reset-link-button.tsx';
import { UserActiveToggle } from './user-active-toggle.tsx';
import { UserContactCard } from './user-contact-card.tsx';
import { LOGIN_TYPE_LABEL, ROLE_LABEL, type UserRecord, userKey } from './users-api.ts';

export function UserPage() {
  return (
    <RequirePermission permission="users.read">
      <UserScreen />
    </RequirePermission>
  );
}

const backLink = (
  <Anchor component={Link} to="/a/users" size="sm">
    <Group gap={2}>
      <IconChevronLeft size={14} aria-hidden />
      Users
    </Group>
  </Anchor>
);

function UserScreen() {
  const { id: raw } = useParams();
  const id = Number(raw);
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const query = useQuery({
    queryKey: userKey(id),
    queryFn: ({ signal }) => api.get<UserRecord>(`/api/users/${id}`, { signal }),
    enabled: Number.isInteger(id) && id > 0,
  });

  if (!Number.isInteger(id) || id <= 0) return <NotFoundPage />;
  if (query.isError && isApiError(query.error) && query.error.status === 404) return <NotFoundPage />;
  if (query.isPending) {
    return (
      <>
        <PageHeader title="User" above={backLink} />
        <LoadingBlock label="Loading user" />
      </>
    );
  }
  if (query.isError) {
    return (
      <>
        <PageHeader title="User" above={backLink} />
        <ErrorBlock error={query.error} onRetry={() => void query.refetch()} />
      </>
    );
  }

  const user = query.data;
  const name = user.displayName || user.username;
  const details: Array<[string, React.ReactNode]> = [
    ['Username', user.username],
    ['Email', user.email || '—'],
    ['Login type', LOGIN_TYPE_LABEL[user.loginType]],
    ['Role', ROLE_LABEL[user.role]],
    ['Status', user.isActive ? 'Active' : 'Inactive'],
    ['Last sign-in', user.lastSignInAt ? formatDateTime(user.lastSignInAt, tz) : 'Never'],
  ];

  return (
    <>
      <PageHeader
        title={name}
        above={backLink}
        actions={
          <Group gap="sm">
            <SendResetLinkButton userId={user.id} userName={name} isActive={user.isActive} />
            <ImpersonateButton userId={user.id} userName={name} isActive={user.isActive} />
            {can(me, 'users.manage') && !me.impersonation && user.id !== me.user.id ? (
              <UserActiveToggle userId={user.id} userName={name} isActive={user.isActive} variant="button" />
            ) : null}
          </Group>
        }
      />
      <SimpleGrid cols={{ base: 1, md: 2 }} spacing="lg">
        <Card withBorder component="section" aria-labelledby="user-details">
          <Group justify="space-between" mb="sm">
            <Text fw={700} component="h2" id="user-details">
              Details
            </Text>
            <SoftBadge color={user.isActive ? 'green' : 'gray'}>
              {user.isActive ? 'Active' : 'Inactive'}
            </SoftBadge>
          </Group>
          <dl style={{ margin: 0, display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '8px 16px' }}>
            {details.map(([term, value]) => (
              <div key={term} style={{ display: 'contents' }}>
                <Text component="dt" size="sm" c="dimmed">
                  {term}
                </Text>
                <Text component="dd" size="sm" m={0} style={{ overflowWrap: 'anywhere' }}>
                  {value}
                </Text>
              </div>
            ))}
          </dl>
        </Card>
        <FeatureFlagsCard user={user} canManage={can(me, 'users.manage')} meId={me.user.id} />
        <UserContactCard userId={user.id} canManage={can(me, 'users.manage')} />
      </SimpleGrid>
    </>
  );
}
