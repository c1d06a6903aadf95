import { Anchor, Button } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { confirmDialog } from '../../platform/screens/dialogs.tsx';
import { type UserRecord, userKey, usersKey } from './users-api.ts';

/**
 * Deactivates or reactivates a person in this association only. Deactivating asks first: their sessions here end
 * at once, and their other associations are not touched.
 */
export function UserActiveToggle({
  userId,
  userName,
  isActive,
  variant = 'link',
  onChanged,
}: {
  userId: number;
  userName: string;
  isActive: boolean;
  variant?: 'link' | 'button';
  /** Called after the change was saved (the embedding list reloads). */
  onChanged?: () => void;
}) {
  const queryClient = useQueryClient();
  const change = useMutation({
    mutationFn: (action: 'deactivate' | 'reactivate') =>
      api.post<UserRecord>(`/api/users/${userId}/${action}`),
    onSuccess: async (user) => {
      notifySaved(user.isActive ? `${userName} can sign in again.` : `${userName} was deactivated.`);
      queryClient.setQueryData(userKey(userId), user);
      await queryClient.invalidateQueries({ queryKey: usersKey });
      onChanged?.();
    },
    onError: (error) => notifyError(error, 'The user was not changed'),
  });
  const run = async () => {
    if (isActive) {
      const ok = await confirmDialog({
        title: `Deactivate ${userName}?`,
        message: `${userName} is signed out of this association now and cannot sign in to it until reactivated. Nothing they did is removed, and their other associations are not affected.`,
        okLabel: 'Deactivate',
        danger: true,
      });
      if (!ok) return;
      change.mutate('deactivate');
    } else change.mutate('reactivate');
  };
  const label = isActive ? 'Deactivate' : 'Reactivate';
  const aria = `${label} ${userName}`;
  if (variant === 'button')
    return (
      <Button
        variant="default"
        color={isActive ? 'red' : undefined}
        loading={change.isPending}
        aria-label={aria}
        onClick={() => void run()}
      >
        {label}
      </Button>
    );
  return (
    <Anchor
      component="button"
      type="button"
      size="sm"
      c={isActive ? 'red' : undefined}
      disabled={change.isPending}
      aria-label={aria}
      onClick={() => void run()}
    >
      {label}
    </Anchor>
  );
}
