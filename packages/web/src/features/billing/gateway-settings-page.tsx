/**
 * `/a/billing/settings/gateway` (setup): how members pay by card. No card payments, the offline test gateway, or
 * Stripe with its publishable key, secret key and webhook signing secret. The secrets are write-only: the server
 * answers only whether each is set, so the form shows "Set" and keeps a secret left blank; the webhook address to
 * give Stripe is shown beside them. Without a gateway (or without Stripe's keys) members see no card form.
 */
import { type GatewaySettingsAnswer, gatewaySettingsAnswerSchema } from '@guildhall/shared';
import {
  Alert,
  Badge,
  Button,
  Code,
  Group,
  Paper,
  PasswordInput,
  Radio,
  Stack,
  Text,
  TextInput,
} from '@mantine/core';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { useIdentity } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';

type Gateway = GatewaySettingsAnswer['gateway'];
const KEY = ['billing', 'settings', 'gateway'] as const;

export function GatewaySettingsPage() {
  const me = useIdentity();
  const queryClient = useQueryClient();
  const settings = useQuery({
    queryKey: KEY,
    queryFn: async () => gatewaySettingsAnswerSchema.parse(await api.get('/api/billing/settings/gateway')),
  });
  const [gateway, setGateway] = useState<Gateway>('none');
  const [publishable, setPublishable] = useState('');
  const [secret, setSecret] = useState('');
  const [webhook, setWebhook] = useState('');
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const current = settings.data;
  useEffect(() => {
    if (!current) return;
    setGateway(current.gateway);
    setPublishable(current.stripePublishableKey ?? '');
  }, [current]);

  if (settings.error) return <ErrorBlock error={settings.error} onRetry={() => void settings.refetch()} />;
  if (!current) return <LoadingBlock />;

  const fieldError = (name: string) => (isApiError(error) ? error.fieldError(name) : undefined);
  const webhookUrl = `${window.location.origin}/api/billing/webhooks/stripe/${me.tenant.id}`;

  async function save(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      const answer = gatewaySettingsAnswerSchema.parse(
        await api.put('/api/billing/settings/gateway', {
          gateway,
          ...(gateway === 'stripe'
            ? {
                stripePublishableKey: publishable.trim(),
                // A secret left blank keeps the one already set (it is never sent back to be shown).
                ...(secret.trim() ? { stripeSecretKey: secret.trim() } : {}),
                ...(webhook.trim() ? { stripeWebhookSecret: webhook.trim() } : {}),
              }
            : {}),
        }),
      );
      queryClient.setQueryData(KEY, answer);
      setSecret('');
      setWebhook('');
      notifySaved('Card payments saved.');
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }

  const setBadge = (set: boolean) =>
    set ? (
      <Badge color="green" variant="light">
        Set
      </Badge>
    ) : (
      <Badge color="gray" variant="light">
        Not set
      </Badge>
    );

  return (
    <Stack gap="lg" maw={720}>
      <PageHeader
        title="Card payments"
        description="How members pay their invoices by card in the member area."
      />
      <form onSubmit={save} noValidate>
        <Stack gap="md">
          {isApiError(error) && !error.joinedErrors() ? (
            <Alert color="red" title="Not saved">
              {error.message}
            </Alert>
          ) : null}
          {error && !isApiError(error) ? <ErrorBlock error={error} /> : null}
          <Radio.Group label="Card gateway" value={gateway} onChange={(v) => setGateway(v as Gateway)}>
            <Stack gap="xs" mt="xs">
              <Radio value="none" label="No card payments" description="Members see no card form." />
              <Radio
                value="test"
                label="Test gateway"
                description="An offline gateway for trying the member area out: test cards only, no money moves."
              />
              <Radio
                value="stripe"
                label="Stripe"
                description="Cards are entered in Stripe's own form; no card number reaches this server."
              />
            </Stack>
          </Radio.Group>
          {gateway === 'stripe' ? (
            <Paper withBorder p="md">
              <Stack gap="sm">
                <Text size="sm" c="dimmed">
                  From the Stripe dashboard (Developers → API keys, and Webhooks). Secrets are never shown
                  again once saved: leave one blank to keep it.
                </Text>
                <TextInput
                  label="Publishable key"
                  placeholder="pk_live_…"
                  value={publishable}
                  onChange={(e) => setPublishable(e.currentTarget.value)}
                  error={fieldError('stripePublishableKey')}
                  autoComplete="off"
                />
                <PasswordInput
                  label={
                    <Group gap={6} component="span">
                      Secret key {setBadge(current.stripeSecretKeySet)}
                    </Group>
                  }
                  placeholder={current.stripeSecretKeySet ? 'Set: leave blank to keep it' : 'sk_live_…'}
                  value={secret}
                  onChange={(e) => setSecret(e.currentTarget.value)}
                  error={fieldError('stripeSecretKey')}
                  autoComplete="new-password"
                />
                <PasswordInput
                  label={
                    <Group gap={6} component="span">
                      Webhook signing secret {setBadge(current.stripeWebhookSecretSet)}
                    </Group>
                  }
                  placeholder={current.stripeWebhookSecretSet ? 'Set: leave blank to keep it' : 'whsec_…'}
                  value={webhook}
                  onChange={(e) => setWebhook(e.currentTarget.value)}
                  error={fieldError('stripeWebhookSecret')}
                  autoComplete="new-password"
                />
                <Text size="sm">
                  Webhook endpoint to add in Stripe (event <Code>payment_intent.succeeded</Code>):
                </Text>
                <Code block data-testid="stripe-webhook-url">
                  {webhookUrl}
                </Code>
              </Stack>
            </Paper>
          ) : null}
          <Group>
            <Button type="submit" loading={busy}>
              Save
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
