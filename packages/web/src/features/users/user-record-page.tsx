import { usersResource } from '@guildhall/shared';
import { useParams } from 'react-router';
import { NotFoundPage } from '../../platform/not-found.tsx';
import { RequirePermission } from '../../platform/page.tsx';
import ParentPage from '../../platform/screens/parent-page.tsx';

/**
 * A user's record (`/a/users/{id}`): the users resource's generic record, drawn with the slots the users module
 * claims for it (`user-record-slots.tsx`), as at its generic address.
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
  if (!/^[1-9][0-9]*$/.test(id)) return <NotFoundPage />;
  return <ParentPage key={id} resource={usersResource} recordId={id} />;
}
