import type { Me } from '@guildhall/shared';
import { Button, Group, Text } from '@mantine/core';
import { IconArrowBackUp, IconMask } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { useIdentity } from '../../platform/identity.ts';
import { notifyError } from '../../platform/notify.ts';

export const IMPERSONATION_BANNER_HEIGHT = 40;

/** Across the top while a staff user works as someone else, with the way back (POST /api/auth/impersonate/stop). */
export function ImpersonationBanner() {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const impersonatedId = me.user.id;
  const stop = useMutation({
    mutationFn: () => api.post<Me>('/api/auth/impersonate/stop'),
    onSuccess: (staff) => {
      // A full load: nothing cached or kept in memory for the impersonated user survives the switch.
      queryClient.clear();
      window.location.assign(staff.area === 'backoffice' ? `/a/users/${impersonatedId}` : '/');
    },
    onError: (error) => notifyError(error, 'Could not return to your account'),
  });
  if (!me.impersonation) return null;
  const user = me.user.displayName || me.user.username;
  const impersonator = me.impersonation.impersonator.displayName || me.impersonation.impersonator.username;
  return (
    <Group
      role="region"
      aria-label="Impersonation"
      h={IMPERSONATION_BANNER_HEIGHT}
      px="md"
      gap="sm"
      justify="center"
      wrap="nowrap"
      bg="var(--mantine-color-orange-7)"
      c="white"
      data-testid="impersonation-banner"
    >
      <IconMask size={18} aria-hidden style={{ flexShrink: 0 }} />
      <Text size="sm" fw={600} truncate="end">
        You are working as {user}
      </Text>
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
    </Group>
  );
}
