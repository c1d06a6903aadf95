import { MESSAGES, type Me, type PendingTerms, type TermsActionBody } from '@guildhall/shared';
import { Alert, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from '../../platform/api-client.ts';
import { meQueryKey, signOutLocally } from '../../platform/identity.ts';

interface TermsActionAnswer {
  Success?: boolean;
  SignedOut?: boolean;
}

/** Spec 000 section 7: "truthy response means success". */
function succeeded(answer: unknown): boolean {
  if (typeof answer === 'object' && answer !== null && 'Success' in answer)
    return !!(answer as TermsActionAnswer).Success;
  return !!answer;
}

const noop = () => {};

/**
 * The terms-of-use gate (spec 000 sections 4, 7, 8): pending terms block the product in a dialog that
 * cannot be dismissed. Accept closes it and refreshes identity; Decline signs the user out; a failure
 * shows "An error has been occurred.".
 */
export function TermsGate({ me }: { me: Me }) {
  // Nobody accepts or declines terms on someone else's behalf (the server sends none while impersonating).
  if (me.impersonation) return null;
  const terms = me.pendingPrompts.terms[0];
  if (!terms) return null;
  return <TermsDialog key={terms.TermsOfUseId} terms={terms} remaining={me.pendingPrompts.terms.length} />;
}

function TermsDialog({ terms, remaining }: { terms: PendingTerms; remaining: number }) {
  const queryClient = useQueryClient();
  const action = useMutation({
    mutationFn: async (accepted: boolean) => {
      const body: TermsActionBody = {
        UserLoginTypeId: terms.UserLoginTypeId,
        TermsOfUseId: terms.TermsOfUseId,
        IsAccepted: accepted,
      };
      const answer = await api.post<unknown>('/api/Setup/TermsofUse/terms/takeaction', body);
      if (!succeeded(answer)) throw new Error(MESSAGES.termsActionFailed);
      return accepted;
    },
    onSuccess: async (accepted) => {
      if (accepted) {
        // Refresh identity: the next pending terms (if any) or the product.
        await queryClient.refetchQueries({ queryKey: meQueryKey, exact: true });
      } else {
        signOutLocally(queryClient, 'declined-terms');
      }
    },
  });

  const busy = action.isPending;
  return (
    <Modal
      opened
      onClose={noop}
      withCloseButton={false}
      closeOnEscape={false}
      closeOnClickOutside={false}
      trapFocus
      centered
      size="lg"
      title={terms.Title || 'Terms of use'}
      styles={{ title: { fontWeight: 700, fontSize: 'var(--mantine-font-size-xl)' } }}
      overlayProps={{ backgroundOpacity: 0.6, blur: 2 }}
      data-testid="terms-gate"
    >
      <Stack gap="md">
        <Text size="sm" c="dimmed">
          {remaining > 1 ? `Terms of use, 1 of ${remaining}. ` : ''}Please read and accept these terms to
          continue using Guildhall.
        </Text>
        <ScrollArea.Autosize mah="50dvh" type="auto" offsetScrollbars>
          <Text
            component="div"
            role="region"
            aria-label="Terms text"
            size="sm"
            style={{ whiteSpace: 'pre-wrap', padding: 4, borderRadius: 'var(--mantine-radius-sm)' }}
            tabIndex={0}
            data-autofocus
          >
            {terms.Description}
          </Text>
        </ScrollArea.Autosize>
        {action.isError ? (
          <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle aria-hidden />}>
            {MESSAGES.termsActionFailed}
          </Alert>
        ) : null}
        <Group justify="flex-end" gap="sm">
          <Button
            variant="default"
            onClick={() => action.mutate(false)}
            disabled={busy}
            loading={busy && action.variables === false}
          >
            Decline
          </Button>
          <Button
            onClick={() => action.mutate(true)}
            disabled={busy}
            loading={busy && action.variables === true}
          >
            Accept
          </Button>
        </Group>
        <Text size="xs" c="dimmed" ta="right">
          Declining signs you out.
        </Text>
      </Stack>
    </Modal>
  );
}
