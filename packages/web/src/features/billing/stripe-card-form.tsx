/**
 * Paying an invoice by card when the association's gateway is Stripe: the card is typed into Stripe's own card
 * element (Stripe.js, from js.stripe.com, loaded only when this form shows), Stripe turns it into a payment method,
 * and only that method's id goes to our server, whose Stripe adapter makes and confirms the PaymentIntent for the
 * invoice's balance (decision 0125). When the card's bank asks the cardholder to confirm (3-D Secure), the server
 * answers the PaymentIntent's client secret, Stripe.js shows the bank's check (`handleNextAction`), and the server
 * then finishes the payment from the PaymentIntent's state at Stripe. No card number, expiry or code passes through
 * this app's code or server.
 * Loaded lazily with its two Stripe packages, so no other screen carries them.
 */
import type { ChargeAnswer } from '@guildhall/shared';
import { Alert, Button, Card, Group, Stack, Text, Title } from '@mantine/core';
import { CardElement, Elements, useElements, useStripe } from '@stripe/react-stripe-js';
import { loadStripe, type Stripe } from '@stripe/stripe-js';
import { IconCreditCard } from '@tabler/icons-react';
import { useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useRef, useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { notifySaved } from '../../platform/notify.ts';

/** One Stripe.js instance per publishable key (loadStripe adds the script once). */
const instances = new Map<string, Promise<Stripe | null>>();
function stripeFor(publishableKey: string): Promise<Stripe | null> {
  let stripe = instances.get(publishableKey);
  if (!stripe) {
    stripe = loadStripe(publishableKey).catch(() => null);
    instances.set(publishableKey, stripe);
  }
  return stripe;
}

export interface StripeCardFormProps {
  publishableKey: string;
  invoiceId: number;
  balanceCents: number;
  currency: string;
  money: (cents: number) => string;
}

export default function StripeCardForm(props: StripeCardFormProps) {
  return (
    <Card withBorder component="section" aria-labelledby="pay-by-card">
      <Group gap="xs" mb="sm">
        <IconCreditCard size={20} aria-hidden />
        <Title order={2} size="h4" id="pay-by-card">
          Pay {props.money(props.balanceCents)} by card
        </Title>
      </Group>
      <Elements stripe={stripeFor(props.publishableKey)} options={{ locale: 'en' }}>
        <PayWithCardElement {...props} />
      </Elements>
    </Card>
  );
}

function PayWithCardElement({ invoiceId, balanceCents, money }: StripeCardFormProps) {
  const stripe = useStripe();
  const elements = useElements();
  const queryClient = useQueryClient();
  const [complete, setComplete] = useState(false);
  const [cardError, setCardError] = useState<string | null>(null);
  const [declined, setDeclined] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  // One key per attempt: a retried request after a lost answer charges once.
  const attempt = useRef<string | null>(null);

  async function pay(e: FormEvent) {
    e.preventDefault();
    const card = elements?.getElement(CardElement);
    if (!stripe || !card) return;
    if (!complete) {
      setCardError(cardError ?? 'Enter the card number, expiry and security code.');
      return;
    }
    setBusy(true);
    setDeclined(null);
    try {
      const made = await stripe.createPaymentMethod({ type: 'card', card });
      if (made.error || !made.paymentMethod) {
        setDeclined(made.error?.message ?? 'The card could not be read; check it and try again.');
        return;
      }
      attempt.current ??= crypto.randomUUID();
      const idempotencyKey = attempt.current;
      let answer = await api.post<ChargeAnswer>(`/api/billing/member/invoices/${invoiceId}/pay`, {
        methodRef: made.paymentMethod.id,
        idempotencyKey,
      });
      if (answer.action) {
        // The bank's check, in Stripe.js; whatever it says, the server decides from the PaymentIntent at Stripe.
        await stripe.handleNextAction({ clientSecret: answer.action.clientSecret });
        answer = await api.post<ChargeAnswer>(`/api/billing/member/invoices/${invoiceId}/pay/finish`, {
          paymentRef: answer.action.paymentRef,
          idempotencyKey,
        });
      }
      attempt.current = null;
      if (answer.ok) {
        notifySaved(`Paid ${money(balanceCents)}: thank you`);
        await queryClient.invalidateQueries({ queryKey: ['billing', 'member'] });
      } else setDeclined(answer.message ?? 'The payment did not go through.');
    } catch (error) {
      setDeclined(isApiError(error) ? error.message : 'The payment did not go through; try again.');
    } finally {
      setBusy(false);
    }
  }

  return (
    <form onSubmit={(e) => void pay(e)} noValidate>
      <Stack gap="sm" maw={460}>
        {declined ? (
          <Alert color="red" role="alert" title="Payment refused">
            {declined}
          </Alert>
        ) : null}
        <div>
          <Text size="sm" fw={500} mb={4}>
            Card
          </Text>
          <div
            data-testid="stripe-card"
            style={{
              border: '1px solid var(--mantine-color-default-border)',
              borderRadius: 'var(--mantine-radius-default)',
              padding: '10px 12px',
            }}
          >
            <CardElement
              options={{ hidePostalCode: true }}
              onChange={(event) => {
                setComplete(event.complete);
                setCardError(event.error?.message ?? null);
              }}
            />
          </div>
          {cardError ? (
            <Text size="xs" c="red" mt={4} role="alert">
              {cardError}
            </Text>
          ) : null}
        </div>
        <Text size="xs" c="dimmed">
          Your card is entered in Stripe's secure form: its number never reaches the association.
        </Text>
        <Button type="submit" loading={busy} disabled={!stripe} w="fit-content">
          Pay {money(balanceCents)}
        </Button>
      </Stack>
    </form>
  );
}
