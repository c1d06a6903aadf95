import '@mantine/core/styles.css';
import '@mantine/notifications/styles.css';
import './global.css';
import { MantineProvider } from '@mantine/core';
import { ModalsProvider } from '@mantine/modals';
import { Notifications } from '@mantine/notifications';
import { QueryClientProvider } from '@tanstack/react-query';
import { type ReactNode, useState } from 'react';
import { useMe } from '../platform/identity.ts';
import { createQueryClient } from './query-client.ts';
import { cssVariablesResolver, theme } from './theme.ts';

/**
 * Toasts last as long as the tenant configured (spec 000 section 1: notification duration). They stack at the bottom
 * right: at the top right two of them covered a record header's actions (Reactivate, then Send password reset), and a
 * pointer resting on a toast holds it open.
 */
function TenantNotifications() {
  const { data: me } = useMe();
  return (
    <Notifications position="bottom-right" autoClose={me?.tenant.settings.notificationDurationMs ?? 5000} />
  );
}

export function AppProviders({ children }: { children: ReactNode }) {
  const [queryClient] = useState(createQueryClient);
  return (
    <QueryClientProvider client={queryClient}>
      <MantineProvider theme={theme} defaultColorScheme="light" cssVariablesResolver={cssVariablesResolver}>
        <TenantNotifications />
        <ModalsProvider labels={{ confirm: 'Confirm', cancel: 'Cancel' }}>{children}</ModalsProvider>
      </MantineProvider>
    </QueryClientProvider>
  );
}
