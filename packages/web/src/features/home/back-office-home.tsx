import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { BACK_OFFICE_NAV, isNavItemVisible } from '../../app/nav-items.ts';
import { can, flagOn, useIdentity } from '../../platform/identity.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';

/** The dashboard grid and its charts are a chunk of their own, loaded after the home screen shows. */
const DashboardGrid = lazy(() =>
  import('../../platform/screens/dashboard/dashboard.tsx').then((m) => ({ default: m.DashboardGrid })),
);

const DESCRIPTIONS: Record<string, string> = {
  '/a/users': 'See who can sign in, their roles and feature flags; work as a user to see what they see.',
  '/a/outbox': 'Read the emails Guildhall sent or kept, such as password reset links.',
  '/a/settings': 'Name, list page size, timings, default timezone and website prefix.',
  '/a/setup/terms': 'Publish the terms of use staff and members must accept.',
  '/a/status': 'Post a status message or a maintenance notice for everyone.',
  '/a/audit': 'Who did what, and when, including work done on behalf of others.',
  '/a/dashboard': 'The dashboard on a page of its own.',
  '/a/reports': 'Run reports, page and sort them, and keep your favourites first.',
  '/micronet/list/setup/samples': 'The sample entity: one field of every type, in every list view.',
  '/micronet/list/setup/helpTexts': 'The help panel text of each screen.',
  '/micronet/menu/setup': 'Every setup list in one place, with a menu on the left.',
};

/** `/a`: where staff land after signing in: the dashboard, then shortcuts to every screen they may open. */
export function BackOfficeHome() {
  const me = useIdentity();
  const first = (me.user.displayName || me.user.username).split(' ')[0];
  const shortcuts = BACK_OFFICE_NAV.flatMap((s) => s.items).filter(
    (item) => item.to !== '/a' && isNavItemVisible(me, item),
  );
  return (
    <>
      <PageHeader
        title={`Welcome, ${first}`}
        description={`You are in the back office of ${me.tenant.name}.`}
      />
      <Stack gap="lg">
        {flagOn(me, 'betaDashboard') ? (
          <Card withBorder bg="var(--mantine-color-guild-0)" component="section" aria-labelledby="beta-dash">
            <Group gap="xs" mb={4}>
              <Text fw={700} component="h2" id="beta-dash">
                New dashboard
              </Text>
              <SoftBadge size="sm">Beta</SoftBadge>
            </Group>
            <Text size="sm">
              Your dashboard will gather memberships, events and tasks here as those features arrive. Thank
              you for trying it early.
            </Text>
          </Card>
        ) : null}
        {can(me, 'backoffice') ? (
          <section aria-labelledby="dashboard-title">
            <Group justify="space-between" mb="xs">
              <Text fw={700} component="h2" id="dashboard-title">
                Dashboard
              </Text>
              <Text size="sm" c="dimmed">
                Drag a widget by its handle, or resize it from its corner; your layout is kept.
              </Text>
            </Group>
            <Suspense fallback={<LoadingBlock label="Loading the dashboard" />}>
              <DashboardGrid />
            </Suspense>
          </section>
        ) : null}
        <section aria-labelledby="shortcuts">
          <Text fw={700} component="h2" id="shortcuts" mb="sm">
            Shortcuts
          </Text>
          {shortcuts.length === 0 ? (
            <Text c="dimmed" size="sm">
              No screens are open to your role yet.
            </Text>
          ) : (
            <SimpleGrid cols={{ base: 1, sm: 2, lg: 3 }}>
              {shortcuts.map((item) => {
                const Icon = item.icon;
                return (
                  <Card
                    key={item.to}
                    withBorder
                    component={Link}
                    to={item.to}
                    style={{ textDecoration: 'none', color: 'inherit' }}
                  >
                    <Group gap="sm" wrap="nowrap" align="flex-start">
                      <ThemeIcon variant="light" size="lg" aria-hidden>
                        <Icon size={20} />
                      </ThemeIcon>
                      <div>
                        <Text fw={600}>{item.label}</Text>
                        <Text size="sm" c="dimmed">
                          {DESCRIPTIONS[item.to] ?? ''}
                        </Text>
                      </div>
                    </Group>
                  </Card>
                );
              })}
            </SimpleGrid>
          )}
        </section>
      </Stack>
    </>
  );
}
