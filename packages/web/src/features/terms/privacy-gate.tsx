import type { Me } from '@guildhall/shared';
import { Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../../platform/api-client.ts';
import { meQueryKey, signOutLocally } from '../../platform/identity.ts';
import { notifyError } from '../../platform/notify.ts';
import { privacyPolicyDialog } from '../../platform/screens/dialogs.tsx';

/**
 * The privacy-policy acceptance modal (spec 000 s2), shown once the terms of use are settled, while the association
 * has a privacy policy this user has not accepted. Accept records the version read; Decline signs out.
 */
export function PrivacyGate({ me }: { me: Me }) {
  const queryClient = useQueryClient();
  const policy = me.pendingPrompts.privacyPolicy;
  const shown = useRef<string | null>(null);
  const blocked = me.impersonation !== null || me.pendingPrompts.terms.length > 0;

  useEffect(() => {
    if (!policy || blocked || shown.current === policy.Version) return;
    shown.current = policy.Version;
    void (async () => {
      const accepted = await privacyPolicyDialog(
        <Text size="sm" style={{ whiteSpace: 'pre-wrap' }} data-testid="privacy-policy-text">
          {policy.Text}
        </Text>,
        policy.Url ?? undefined,
      );
      try {
        await api.post('/api/privacy-policy/acceptance', { Version: policy.Version, IsAccepted: accepted });
      } catch (err) {
        notifyError(err);
        shown.current = null;
        return;
      }
      if (accepted) await queryClient.refetchQueries({ queryKey: meQueryKey, exact: true });
      else signOutLocally(queryClient, 'declined-privacy-policy');
    })();
  }, [policy, blocked, queryClient]);

  return null;
}
