import type { Me } from '@guildhall/shared';
import { Modal } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { can, useIdentity } from '../../platform/identity.ts';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { confirmDialog } from '../../platform/screens/dialogs.tsx';
import type { RecordAction, RecordActionContext } from '../../platform/screens/record-slots.tsx';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { FeatureFlagsCard } from './feature-flags-card.tsx';
import { ROLE_LABEL, type UserRecord, userKey } from './users-api.ts';

/** Whether the signed-in user may change `userId` (not themselves, not while impersonating). */
function managesOther(me: Me, userId: unknown): boolean {
  return can(me, 'users.manage') && !me.impersonation && Number(userId) !== me.user.id;
}

/**
 * Deactivates or reactivates a person in this association only. Deactivating asks first: their sessions here end
 * at once, and their other associations are not touched.
 */
async function changeActive({ row, id, label, onChanged }: RecordActionContext): Promise<void> {
  const active = row.IsActive === true;
  if (active) {
    const ok = await confirmDialog({
      title: `Deactivate ${label}?`,
      message: `${label} is signed out of this association now and cannot sign in to it until reactivated. Nothing they did is removed, and their other associations are not affected.`,
      okLabel: 'Deactivate',
      danger: true,
    });
    if (!ok) return;
  }
  try {
    const user = await api.post<UserRecord>(`/api/users/${id}/${active ? 'deactivate' : 'reactivate'}`);
    notifySaved(user.isActive ? `${label} can sign in again.` : `${label} was deactivated.`);
    onChanged();
  } catch (error) {
    notifyError(error, 'The user was not changed');
  }
}

/** Deactivate or Reactivate, on the users list's rows and the user's record. */
export function activeAction(me: Me): RecordAction {
  return {
    key: 'active',
    title: (row) => (row.IsActive === true ? 'Deactivate' : 'Reactivate'),
    danger: (row) => row.IsActive === true,
    visible: (row) => managesOther(me, row.UserId),
    run: changeActive,
  };
}

/** The user's feature flags in a dialog (the users list's rows; the record shows them as a card). */
export const featureFlagsAction: RecordAction = {
  key: 'featureFlags',
  title: 'Feature flags',
  Dialog: FeatureFlagsDialog,
};

function FeatureFlagsDialog({ id, label, onClose }: RecordActionContext & { onClose: () => void }) {
  return (
    <Modal opened onClose={onClose} title={`Feature flags of ${label}`} size="lg">
      <UserFeatureFlags userId={Number(id)} />
    </Modal>
  );
}

/** The feature flags card of one user, loaded by id. */
export function UserFeatureFlags({ userId }: { userId: number }) {
  const me = useIdentity();
  const user = useQuery({
    queryKey: userKey(userId),
    queryFn: ({ signal }) => api.get<UserRecord>(`/api/users/${userId}`, { signal }),
  });
  if (user.isPending) return <LoadingBlock label="Loading user" />;
  if (user.isError) return <ErrorBlock error={user.error} onRetry={() => void user.refetch()} />;
  return <FeatureFlagsCard user={user.data} canManage={can(me, 'users.manage')} meId={me.user.id} />;
}

/** The user's status as a badge (a cell of the list, a field of the record). */
export function StatusBadge({ value }: { value: unknown }) {
  return value === true ? (
    <SoftBadge color="green">Active</SoftBadge>
  ) : (
    <SoftBadge color="gray">Inactive</SoftBadge>
  );
}

/** The role by its name ("Administrator"), not its key. */
export function RoleName({ value }: { value: unknown }) {
  return <>{ROLE_LABEL[value as keyof typeof ROLE_LABEL] ?? String(value ?? '')}</>;
}
