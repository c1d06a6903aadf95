import { IMAGE_USAGE, tenantSettingsResource } from '@guildhall/shared';
import { Paper, Text } from '@mantine/core';
import { Suspense } from 'react';
import { LoadingBlock, RequirePermission } from '../../platform/page.tsx';
import { EditScreen } from '../../platform/screens/edit-screen.tsx';
import { editSlots } from '../../platform/screens/edit-slots.tsx';
import { ImageSlot } from '../files/index.ts';

/** The settings form's slots: the association's logo before the form. */
const SLOTS = editSlots(tenantSettingsResource, { before: LogoSection });

/**
 * The association's settings: the generic edit form of the tenantSettings resource (one way to edit them, the same
 * fields, rules and messages as its API), with the association's logo above it.
 */
export function SettingsPage() {
  return (
    <RequirePermission permission="settings.manage">
      <EditScreen resource={tenantSettingsResource} recordId={null} slots={SLOTS} />
    </RequirePermission>
  );
}

function LogoSection() {
  return (
    <Paper withBorder p="lg" component="section" aria-labelledby="settings-logo" mb="lg">
      <Text fw={700} component="h2" id="settings-logo" mb="xs">
        Logo
      </Text>
      <Text size="sm" c="dimmed" mb="md">
        Shown in the header beside the association's name. It is saved as soon as you save it in the image
        dialog.
      </Text>
      <Suspense fallback={<LoadingBlock label="Loading the logo" />}>
        <ImageSlot usageId={IMAGE_USAGE.Logo} sourceId={null} label="Logo" size={64} />
      </Suspense>
    </Paper>
  );
}
