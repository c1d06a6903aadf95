import { displayTimeZone, type Me, usersResource } from '@guildhall/shared';
import { Text } from '@mantine/core';
import { formatDateTime } from '../../platform/format.ts';
import { can, useIdentity } from '../../platform/identity.ts';
import {
  type RecordFieldSlotProps,
  type RecordSlotProps,
  recordSlots,
} from '../../platform/screens/record-slots.tsx';
import { ImpersonateButton } from '../impersonation/index.ts';
import { activeAction, RoleName, StatusBadge, UserFeatureFlags } from './user-actions.tsx';
import { UserContactCard } from './user-contact-card.tsx';

/**
 * The users module's slots of a user's record, at `/a/users/{id}` and at the generic address alike: Impersonate in
 * the header, Deactivate/Reactivate beside the declared Send password reset, the role, status and last sign-in drawn
 * by the feature, and the feature flags and the linked contact as tabs.
 */
export function userRecordSlots(me: Me) {
  return recordSlots(usersResource, {
    description: 'User',
    listPath: '/a/users',
    toolbar: Impersonate,
    recordActions: [activeAction(me)],
    fields: { IsActive: StatusBadge, Role: RoleName, LastSignInAt: LastSignIn },
    tabs: [
      { key: 'featureFlags', title: 'Feature flags', Panel: FeatureFlagsTab },
      { key: 'contact', title: 'Contact record', Panel: ContactTab },
    ],
  });
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
