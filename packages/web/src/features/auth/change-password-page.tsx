import { Paper } from '@mantine/core';
import { useNavigate } from 'react-router';
import { areaHome } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { PageHeader } from '../../platform/page.tsx';
import { ChangePasswordForm } from './change-password-form.tsx';

/** Account > Change password, in both areas. */
export function ChangePasswordPage() {
  const navigate = useNavigate();
  return (
    <>
      <PageHeader
        title="Change password"
        description="Enter your current password, then the new one twice. You stay signed in here; other devices are signed out."
      />
      <Paper withBorder p="lg" maw={480}>
        <ChangePasswordForm
          requireCurrent
          onChanged={(me) => {
            notifySaved('Your password has been changed.');
            void navigate(areaHome(me));
          }}
        />
      </Paper>
    </>
  );
}
