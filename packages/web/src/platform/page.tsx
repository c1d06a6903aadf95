import type { FeatureFlagKey, Permission } from '@guildhall/shared';
import { Center, Group, Loader, Stack, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';
import { ErrorBlock } from './error-block.tsx';
import { can, flagOn, useIdentity } from './identity.ts';
import { usePageTitle } from './page-title.ts';

interface PageHeaderProps {
  title: string;
  description?: ReactNode;
  actions?: ReactNode;
  /** Small line above the title, for example a link back to the list. */
  above?: ReactNode;
}

/**
 * The heading of a screen; also sets the document title. The title and its description stay together on the left;
 * the actions sit to their right, the title wrapping to leave them room (down to 16rem). Actions too wide for that
 * go, all together, below the description, never between the title and it; their row wraps within the page.
 */
export function PageHeader({ title, description, actions, above }: PageHeaderProps) {
  const me = useIdentity();
  usePageTitle(title, me.tenant.name);
  return (
    <Stack gap={4} mb="lg">
      {above}
      <Group justify="space-between" align="flex-start" gap="sm" data-page-header>
        <Stack gap={4} style={{ flex: '1 1 16rem', minWidth: 0 }}>
          <Title order={1} size="h2" style={{ overflowWrap: 'anywhere' }}>
            {title}
          </Title>
          {description ? (
            <Text c="dimmed" size="sm" maw={720}>
              {description}
            </Text>
          ) : null}
        </Stack>
        {actions ? (
          <Group gap="xs" justify="flex-end" style={{ flex: '0 1 auto' }} data-page-actions>
            {actions}
          </Group>
        ) : null}
      </Group>
    </Stack>
  );
}

/** Shows the screen only to users with the permission (and flag); others get a clear message. */
export function RequirePermission({
  permission,
  flag,
  children,
}: {
  permission: Permission;
  flag?: FeatureFlagKey;
  children: ReactNode;
}) {
  const me = useIdentity();
  if (can(me, permission) && (!flag || flagOn(me, flag))) return children;
  return <NotAvailable featureOff={can(me, permission)} tenantName={me.tenant.name} />;
}

function NotAvailable({ featureOff, tenantName }: { featureOff: boolean; tenantName: string }) {
  usePageTitle('Not available', tenantName);
  return (
    <Stack maw={640}>
      <Title order={1} size="h2">
        Not available
      </Title>
      <ErrorBlock
        title="You do not have access to this screen"
        message={
          featureOff
            ? 'This feature is turned off for your account. An administrator can turn it on.'
            : 'You do not have permission to do that. Ask an administrator of your association if you need it.'
        }
        isKnown
      />
    </Stack>
  );
}

export function LoadingBlock({ label = 'Loading' }: { label?: string }) {
  return (
    <Center py="xl" role="status" aria-live="polite">
      <Loader size="sm" aria-label={label} />
    </Center>
  );
}
