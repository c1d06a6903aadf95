import { Card, Group, SimpleGrid, Stack, Text, ThemeIcon } from '@mantine/core';
import { lazy, Suspense } from 'react';
import { Link } from 'react-router';
import { can, flagOn, useIdentity } from '../../platform/identity.ts';
import { isNavItemVisible, navSections, useModules } from '../../platform/modules/modules-context.tsx';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';

/** The dashboard grid and its charts are a chunk of their own, loaded after the home screen shows. */
const DashboardGrid = lazy(() =>
  import('../../platform/screens/dashboard/dashboard.tsx').then((m) => ({ default: m.DashboardGrid })),
);

/** `/a`: where staff land after signing in: the dashboard, then shortcuts to every screen they may open. */
export function BackOfficeHome() {
  const me = useIdentity();
  const first = (me.user.displayName || me.user.username).split(' ')[0];
  const shortcuts = navSections(useModules())
    .flatMap((s) => s.items)
    .filter((item) => item.to !== '/a' && isNavItemVisible(me, item));
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
                          {item.description ?? ''}
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
