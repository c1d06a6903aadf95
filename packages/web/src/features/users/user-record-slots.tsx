import { displayTimeZone, usersResource } from '@guildhall/shared';
import { Text } from '@mantine/core';
import { useMemo } from 'react';
import { useParams } from 'react-router';
import { formatDateTime } from '../../platform/format.ts';
import { can, useIdentity } from '../../platform/identity.ts';
import { NotFoundPage } from '../../platform/not-found.tsx';
import { RequirePermission } from '../../platform/page.tsx';
import ParentPage from '../../platform/screens/parent-page.tsx';
import {
  type RecordFieldSlotProps,
  type RecordSlotProps,
  recordSlots,
} from '../../platform/screens/record-slots.tsx';
import { ImpersonateButton } from '../impersonation/index.ts';
import { activeAction, RoleName, StatusBadge, UserFeatureFlags } from './user-actions.tsx';
import { UserContactCard } from './user-contact-card.tsx';

/**
 * A user's record (`/a/users/{id}`): the users resource's generic record with the feature's slots: Impersonate in
 * the header, Deactivate/Reactivate beside the declared Send password reset, the role, status and last sign-in
 * drawn by the feature, and the feature flags and the linked contact as tabs.
 */
export function UserRecordPage() {
  return (
    <RequirePermission permission="users.read">
      <UserRecord />
    </RequirePermission>
  );
}

function UserRecord() {
  const { id = '' } = useParams();
  const me = useIdentity();
  const slots = useMemo(
    () =>
      recordSlots(usersResource, {
        description: 'User',
        listPath: '/a/users',
        toolbar: Impersonate,
        recordActions: [activeAction(me)],
        fields: { IsActive: StatusBadge, Role: RoleName, LastSignInAt: LastSignIn },
        tabs: [
          { key: 'featureFlags', title: 'Feature flags', Panel: FeatureFlagsTab },
          { key: 'contact', title: 'Contact record', Panel: ContactTab },
        ],
      }),
    [me],
  );
  if (!/^[1-9][0-9]*$/.test(id)) return <NotFoundPage />;
  return <ParentPage key={id} resource={usersResource} recordId={id} slots={slots} />;
}

function Impersonate({ row, label }: RecordSlotProps) {
  return <ImpersonateButton userId={Number(row.UserId)} userName={label} isActive={row.IsActive === true} />;
}

function LastSignIn({ value }: RecordFieldSlotProps) {
  const me = useIdentity();
  return typeof value === 'string' && value ? (
    formatDateTime(value, displayTimeZone(me))
  ) : (
    <Text span size="sm" c="dimmed">
      Never
    </Text>
  );
}

function FeatureFlagsTab({ id }: RecordSlotProps) {
  return <UserFeatureFlags userId={Number(id)} />;
}

function ContactTab({ id }: RecordSlotProps) {
  const me = useIdentity();
  return <UserContactCard userId={Number(id)} canManage={can(me, 'users.manage')} />;
}
