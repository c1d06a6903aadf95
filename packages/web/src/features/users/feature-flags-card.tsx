import { FEATURE_FLAGS } from '@guildhall/shared';
import { Card, Stack, Switch, Text } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { meQueryKey } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { type UserRecord, userKey, usersKey } from './users-api.ts';

/** A user's feature flags (spec 000 section 1), on the user's record and in the users list's Feature flags dialog. */
export function FeatureFlagsCard({
  user,
  canManage,
  meId,
  onSaved,
}: {
  user: UserRecord;
  canManage: boolean;
  meId: number;
  onSaved?: () => void;
}) {
  const queryClient = useQueryClient();
  const save = useMutation({
    mutationFn: (flags: Record<string, boolean>) =>
      api.put<{ featureFlags: Record<string, boolean> }>(`/api/users/${user.id}/feature-flags`, { flags }),
    onMutate: async (flags) => {
      await queryClient.cancelQueries({ queryKey: userKey(user.id) });
      const previous = queryClient.getQueryData<UserRecord>(userKey(user.id));
      if (previous) {
        queryClient.setQueryData<UserRecord>(userKey(user.id), {
          ...previous,
          featureFlags: { ...previous.featureFlags, ...flags },
        });
      }
      return { previous };
    },
    onSuccess: (answer) => {
      queryClient.setQueryData<UserRecord>(userKey(user.id), (prev) =>
        prev ? { ...prev, featureFlags: answer.featureFlags } : prev,
      );
      notifySaved();
    },
    onError: (error, _flags, context) => {
      if (context?.previous) queryClient.setQueryData(userKey(user.id), context.previous);
      notifyError(error, 'The feature flags were not saved');
    },
    onSettled: async () => {
      await queryClient.invalidateQueries({ queryKey: usersKey, exact: true });
      onSaved?.();
      // Flags of the signed-in user gate their own navigation: refresh identity.
      if (user.id === meId) await queryClient.invalidateQueries({ queryKey: meQueryKey, exact: true });
    },
  });

  const flagValue = (key: string, defaultOn: boolean) => user.featureFlags[key] ?? defaultOn;
  /** The whole set is sent, so the answer never depends on what the server assumes for a missing flag. */
  const allFlags = () => Object.fromEntries(FEATURE_FLAGS.map((f) => [f.key, flagValue(f.key, f.defaultOn)]));

  return (
    <Card withBorder component="section" aria-labelledby="user-flags">
      <Text fw={700} component="h2" id="user-flags">
        Feature flags
      </Text>
      <Text size="sm" c="dimmed" mb="md">
        {canManage
          ? 'Turn features on or off for this user only. Changes apply at their next page load.'
          : 'Features turned on or off for this user. Only administrators can change them.'}
      </Text>
      <Stack gap="sm">
        {FEATURE_FLAGS.map((flag) => (
          <Switch
            key={flag.key}
            label={flag.label}
            description={flag.defaultOn ? 'On by default' : 'Off by default'}
            checked={flagValue(flag.key, flag.defaultOn)}
            disabled={!canManage || save.isPending}
            onChange={(e) => save.mutate({ ...allFlags(), [flag.key]: e.currentTarget.checked })}
          />
        ))}
      </Stack>
    </Card>
  );
}
