import type { Me } from '@guildhall/shared';
import { NAV_COLLAPSE_BELOW_PX } from '@guildhall/shared';
import { Button, Flex, Group, Text } from '@mantine/core';
import { useMediaQuery } from '@mantine/hooks';
import { IconArrowBackUp, IconMask } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { useIdentity } from '../../platform/identity.ts';
import { notifyError } from '../../platform/notify.ts';

/** The banner is one row from 768 px up and two rows below, where the name and the button do not fit side by side. */
const NARROW = `(max-width: ${(NAV_COLLAPSE_BELOW_PX - 0.1) / 16}em)`;

export function useImpersonationBannerHeight(active: boolean): number {
  const narrow = useMediaQuery(NARROW, false, { getInitialValueInEffect: false });
  if (!active) return 0;
  return narrow ? 68 : 40;
}

/** Across the top while a staff user works as someone else, with the way back (POST /api/auth/impersonate/stop). */
export function ImpersonationBanner({ height }: { height: number }) {
  const me = useIdentity();
  const impersonatedId = me.user.id;
  const stop = useMutation({
    mutationFn: () => api.post<Me>('/api/auth/impersonate/stop'),
    onSuccess: (staff) => {
      // A full load: nothing cached or kept in memory for the impersonated user survives the switch.
      window.location.assign(staff.area === 'backoffice' ? `/a/users/${impersonatedId}` : '/');
    },
    onError: (error) => notifyError(error, 'Could not return to your account'),
  });
  if (!me.impersonation) return null;
  const user = me.user.displayName || me.user.username;
  const impersonator = me.impersonation.impersonator.displayName || me.impersonation.impersonator.username;
  return (
    <Flex
      role="region"
      aria-label="Impersonation"
      h={height}
      px="md"
      gap={{ base: 4, sm: 'sm' }}
      direction={{ base: 'column', sm: 'row' }}
      justify="center"
      align="center"
      wrap="nowrap"
      bg="var(--mantine-color-orange-7)"
      c="white"
      data-testid="impersonation-banner"
    >
      <Group gap={6} wrap="nowrap" maw="100%">
        <IconMask size={18} aria-hidden style={{ flexShrink: 0 }} />
        <Text size="sm" fw={600} truncate="end">
          You are working as {user}
        </Text>
      </Group>
      <Button
        size="compact-sm"
        variant="white"
        color="orange.9"
        leftSection={<IconArrowBackUp size={14} aria-hidden />}
        onClick={() => stop.mutate()}
        loading={stop.isPending}
        style={{ flexShrink: 0 }}
      >
        Return to {impersonator}
      </Button>
    </Flex>
  );
}
