import type { Me } from '@guildhall/shared';
import { Button } from '@mantine/core';
import { IconMask } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { areaHome, can, useIdentity } from '../../platform/identity.ts';
import { notifyError } from '../../platform/notify.ts';

interface Props {
  userId: number;
  userName: string;
  isActive: boolean;
}

/** The Impersonate button of a user record (permission users.impersonate). */
export function ImpersonateButton({ userId, userName, isActive }: Props) {
  const me = useIdentity();
  const start = useMutation({
    mutationFn: () => api.post<Me>(`/api/auth/impersonate/${userId}`),
    onSuccess: (asUser) => {
      // A full load: nothing cached or kept in memory for the staff user leaks into the impersonated view.
      window.location.assign(areaHome(asUser));
    },
    onError: (error) => notifyError(error, 'Could not impersonate'),
  });

  if (!can(me, 'users.impersonate') || me.impersonation || userId === me.user.id) return null;

  return (
    <Button
      leftSection={<IconMask size={16} aria-hidden />}
      variant="light"
      color="orange"
      c="color-mix(in srgb, var(--mantine-color-orange-9), black 35%)"
      onClick={() => start.mutate()}
      loading={start.isPending}
      disabled={!isActive}
      title={
        isActive ? `Work as ${userName}; a banner takes you back` : 'Inactive users cannot be impersonated'
      }
    >
      Impersonate
    </Button>
  );
}
