import { Button } from '@mantine/core';
import { IconKey } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { can, useIdentity } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';

interface Props {
  userId: number;
  userName: string;
  isActive: boolean;
}

/**
 * Sends the user a link to choose a new password (permission users.manage). Staff never see the link and never set
 * a password themselves; the audit log names who sent it.
 */
export function SendResetLinkButton({ userId, userName, isActive }: Props) {
  const me = useIdentity();
  const send = useMutation({
    mutationFn: () => api.post<{ message: string }>(`/api/users/${userId}/send-password-reset`),
    onSuccess: (answer) => notifySaved(answer.message),
    onError: (error) => notifyError(error, 'Could not send the link'),
  });

  if (!can(me, 'users.manage') || me.impersonation || userId === me.user.id) return null;

  return (
    <Button
      leftSection={<IconKey size={16} aria-hidden />}
      variant="default"
      onClick={() => send.mutate()}
      loading={send.isPending}
      disabled={!isActive}
      title={
        isActive
          ? `Email ${userName} a link to choose a new password`
          : 'Inactive users cannot reset their password'
      }
    >
      Send password reset link
    </Button>
  );
}
