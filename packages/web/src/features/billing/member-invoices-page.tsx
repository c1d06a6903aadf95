/**
 * The member area's invoices (issue 15): `/m/invoices` lists the member's own invoices with their balances, their
 * payments and credits; `/m/invoices/:id` shows one invoice, downloads its PDF, and pays what it owes by card when
 * the association has a card gateway. The card never reaches our server: the test gateway's form turns a test card
 * number into the gateway's payment method reference in the browser; with Stripe, the card is typed into Stripe's
 * own card element (stripe-card-form.tsx), which gives us the payment method's id.
 */
import {
  formatDateInput,
  formatMoney,
  INVOICE_STATUS_LABELS,
  type InvoiceDetail,
  PAYMENT_METHOD_LABELS,
  TEST_GATEWAY_CARDS,
} from '@guildhall/shared';
import {
  Alert,
  Anchor,
  Badge,
  Button,
  Card,
  Group,
  Paper,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
  VisuallyHidden,
} from '@mantine/core';
import { IconCreditCard, IconDownload } from '@tabler/icons-react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, lazy, Suspense, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { Figure } from '../../platform/figure.tsx';
import { formatDay } from '../../platform/format.ts';
import { useDisplayTimeZone } from '../../platform/identity.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { useAccount } from './member-account.ts';
import { STATUS_COLORS } from './status-colors.ts';

/** Stripe's card form and Stripe.js load only when an invoice is paid with Stripe. */
const StripeCardForm = lazy(() => import('./stripe-card-form.tsx'));

const right = { textAlign: 'right' } as const;
const pdfUrl = (invoiceId: number) => `/api/billing/member/invoices/${invoiceId}/pdf`;

const owes = (status: string) => status === 'open' || status === 'partially_paid';

/** `/m/invoices`: what the member owes, their invoices, payments and credits. */
export function MemberInvoicesPage() {
  const shownZone = useDisplayTimeZone();
  const account = useAccount();
  if (account.error) return <ErrorBlock error={account.error} onRetry={() => void account.refetch()} />;
  const a = account.data;
  if (!a) return <LoadingBlock />;
  const money = (cents: number) => formatMoney(cents, { currency: a.currency });
  return (
    <Stack gap="md">
      <PageHeader
        title="Your invoices"
        description="Your invoices, what is still owed, your payments and credits."
      />
      <SimpleGrid cols={{ base: 1, sm: 3 }}>
        <Figure
          label="Owed on open invoices"
          value={money(a.openBalanceCents)}
          {...(a.overdueCount > 0 ? { hint: `${a.overdueCount} overdue` } : {})}
        />
        <Figure
          label="Credit on your account"
          value={money(a.availableCreditCents)}
          hint="Payments and credits not yet used"
        />
        <Figure
          label="Balance"
          value={money(a.accountBalanceCents)}
          hint={a.accountBalanceCents < 0 ? 'The association owes you this' : 'Owed minus credit'}
        />
      </SimpleGrid>
      <Title order={2} size="h4">
        Invoices
      </Title>
      {a.invoices.length === 0 ? (
        <Text c="dimmed">You have no invoices.</Text>
      ) : (
        <Table striped highlightOnHover aria-label="Your invoices">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Number</Table.Th>
              <Table.Th>Date</Table.Th>
              <Table.Th>Due</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th style={right}>Total</Table.Th>
              <Table.Th style={right}>Balance</Table.Th>
              <Table.Th>
                <VisuallyHidden>PDF</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {a.invoices.map((i) => (
              <Table.Tr key={i.invoiceId}>
                <Table.Td>
                  <Anchor component={Link} to={`/m/invoices/${i.invoiceId}`}>
                    {i.number}
                  </Anchor>
                </Table.Td>
                <Table.Td>{formatDateInput(i.issueDate)}</Table.Td>
                <Table.Td>{formatDateInput(i.dueDate)}</Table.Td>
                <Table.Td>
                  <Badge color={STATUS_COLORS[i.status] ?? 'gray'} variant="light">
                    {INVOICE_STATUS_LABELS[i.status]}
                  </Badge>
                </Table.Td>
                {/* Each invoice in the currency it was issued in. */}
                <Table.Td style={right}>{formatMoney(i.totalCents, { currency: i.currency })}</Table.Td>
                <Table.Td style={right}>{formatMoney(i.balanceCents, { currency: i.currency })}</Table.Td>
                <Table.Td>
                  <Anchor
                    href={pdfUrl(i.invoiceId)}
                    download
                    aria-label={`Download invoice ${i.number} as PDF`}
                  >
                    PDF
                  </Anchor>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      )}
      <SimpleGrid cols={{ base: 1, md: 2 }}>
        <Stack gap="xs">
          <Title order={2} size="h4">
            Payments
          </Title>
          {a.payments.length === 0 ? (
            <Text size="sm" c="dimmed">
              No payments yet.
            </Text>
          ) : (
            <Table aria-label="Your payments">
              <Table.Tbody>
                {a.payments.map((p) => (
                  <Table.Tr key={p.paymentId}>
                    <Table.Td>{formatDay(p.paidAt, shownZone)}</Table.Td>
                    <Table.Td>
                      {PAYMENT_METHOD_LABELS[p.method as keyof typeof PAYMENT_METHOD_LABELS] ?? p.method}
                      {p.status === 'bounced' ? ' (returned unpaid)' : ''}
                    </Table.Td>
                    <Table.Td style={right}>{money(p.amountCents)}</Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
        <Stack gap="xs">
          <Title order={2} size="h4">
            Credits
          </Title>
          {a.credits.length === 0 ? (
            <Text size="sm" c="dimmed">
              No credits.
            </Text>
          ) : (
            <Table aria-label="Your credits">
              <Table.Tbody>
                {a.credits.map((c) => (
                  <Table.Tr key={c.creditId}>
                    <Table.Td>{c.reason}</Table.Td>
                    <Table.Td style={right}>{money(c.amountCents)}</Table.Td>
                    <Table.Td style={right}>
                      {c.unappliedCents > 0 ? `${money(c.unappliedCents)} left` : 'used'}
                    </Table.Td>
                  </Table.Tr>
                ))}
              </Table.Tbody>
            </Table>
          )}
        </Stack>
      </SimpleGrid>
    </Stack>
  );
}

/** `/m/invoices/:id`: one of the member's invoices, its PDF, and paying it by card. */
export function MemberInvoicePage() {
  const shownZone = useDisplayTimeZone();
  const { id = '' } = useParams();
  const account = useAccount();
  const detail = useQuery({
    queryKey: ['billing', 'member', 'invoice', id],
    queryFn: () => api.get<InvoiceDetail>(`/api/billing/member/invoices/${encodeURIComponent(id)}`),
  });
  const error = detail.error ?? account.error;
  if (error) return <ErrorBlock error={error} onRetry={() => void detail.refetch()} />;
  const i = detail.data;
  const a = account.data;
  if (!i || !a) return <LoadingBlock />;
  // The invoice's own currency: the one it was issued in, whatever the association's is now.
  const money = (cents: number) => formatMoney(cents, { currency: i.currency });
  const totals: [string, string, boolean][] = [
    ['Subtotal', money(i.subtotalCents), false],
    ...(i.discountCents
      ? [['Discounts', `−${money(i.discountCents)}`, false] as [string, string, boolean]]
      : []),
    ['Tax', money(i.taxCents), false],
    ['Total', money(i.totalCents), true],
    ...(i.paidCents
      ? [['Paid and credited', `−${money(i.paidCents)}`, false] as [string, string, boolean]]
      : []),
    ...(i.writtenOffCents
      ? [['Written off', `−${money(i.writtenOffCents)}`, false] as [string, string, boolean]]
      : []),
    ['Balance due', money(i.balanceCents), true],
  ];
  return (
    <Stack gap="md" maw={900}>
      <Anchor component={Link} to="/m/invoices" size="sm">
        ← Your invoices
      </Anchor>
      <PageHeader
        title={`Invoice ${i.number}`}
        description={`Issued ${formatDateInput(i.issueDate)}, due ${formatDateInput(i.dueDate)}.`}
        actions={
          <Button
            component="a"
            href={pdfUrl(i.invoiceId)}
            download
            variant="default"
            leftSection={<IconDownload size={16} aria-hidden />}
          >
            Download PDF
          </Button>
        }
      />
      <Group>
        <Badge
          color={STATUS_COLORS[i.status] ?? 'gray'}
          variant="light"
          size="lg"
          data-testid="invoice-status"
        >
          {INVOICE_STATUS_LABELS[i.status]}
        </Badge>
      </Group>
      <Table withTableBorder aria-label="Invoice lines">
        <Table.Thead>
          <Table.Tr>
            <Table.Th>Description</Table.Th>
            <Table.Th style={right}>Qty</Table.Th>
            <Table.Th style={right}>Unit price</Table.Th>
            <Table.Th style={right}>Amount</Table.Th>
          </Table.Tr>
        </Table.Thead>
        <Table.Tbody>
          {i.lines.map((l) => (
            <Table.Tr key={l.lineId}>
              <Table.Td>{l.description}</Table.Td>
              <Table.Td style={right}>{l.quantity}</Table.Td>
              <Table.Td style={right}>{money(l.unitPriceCents)}</Table.Td>
              <Table.Td style={right}>{money(l.totalCents)}</Table.Td>
            </Table.Tr>
          ))}
        </Table.Tbody>
      </Table>
      <Group justify="flex-end">
        <Paper withBorder p="sm" miw={300}>
          <Table aria-label="Invoice totals" withRowBorders={false}>
            <Table.Tbody>
              {totals.map(([label, value, strong]) => (
                <Table.Tr key={label} fw={strong ? 700 : undefined}>
                  <Table.Td>{label}</Table.Td>
                  <Table.Td style={right}>{value}</Table.Td>
                </Table.Tr>
              ))}
            </Table.Tbody>
          </Table>
        </Paper>
      </Group>
      {owes(i.status) && i.balanceCents > 0 ? (
        a.cardGateway?.name === 'test' ? (
          <PayByCard invoice={i} money={money} />
        ) : a.cardGateway?.name === 'stripe' && a.cardGateway.publishableKey ? (
          <Suspense fallback={<LoadingBlock />}>
            <StripeCardForm
              publishableKey={a.cardGateway.publishableKey}
              invoiceId={i.invoiceId}
              balanceCents={i.balanceCents}
              currency={i.currency}
              money={money}
            />
          </Suspense>
        ) : (
          <Alert color="blue" title="How to pay">
            Please pay as your invoice says, quoting {i.number}.
          </Alert>
        )
      ) : null}
      {i.applications.some((x) => !x.isReversed) ? (
        <>
          <Title order={2} size="h4">
            Payments and credits
          </Title>
          <Table aria-label="Payments and credits applied">
            <Table.Tbody>
              {i.applications
                .filter((x) => !x.isReversed)
                .map((x) => (
                  <Table.Tr key={x.applicationId}>
                    <Table.Td>{formatDay(x.createdAt, shownZone)}</Table.Td>
                    <Table.Td>{x.paymentId != null ? 'Payment' : 'Credit'}</Table.Td>
                    <Table.Td style={right}>{money(x.amountCents)}</Table.Td>
                  </Table.Tr>
                ))}
            </Table.Tbody>
          </Table>
        </>
      ) : null}
    </Stack>
  );
}

/**
 * The test gateway's card form: the number, expiry and security code stay in the browser; the number becomes the
 * gateway's payment method reference (its test cards), the only thing sent. Each attempt has its own idempotency
 * key, kept if the same attempt is sent again.
 */
function PayByCard({ invoice, money }: { invoice: InvoiceDetail; money: (cents: number) => string }) {
  const queryClient = useQueryClient();
  const [number, setNumber] = useState('');
  const [expiry, setExpiry] = useState('');
  const [cvc, setCvc] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [declined, setDeclined] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  async function pay(e: FormEvent) {
    e.preventDefault();
    const digits = number.replace(/[\s-]/g, '');
    const found: Record<string, string> = {};
    const methodRef = TEST_GATEWAY_CARDS[digits];
    if (!/^\d{12,19}$/.test(digits)) found.number = 'Enter the card number.';
    else if (!methodRef) found.number = 'This is a test gateway: use the test card 4242 4242 4242 4242.';
    const m = /^(\d{2})\s*\/\s*(\d{2})$/.exec(expiry.trim());
    if (!m || Number(m[1]) < 1 || Number(m[1]) > 12) found.expiry = 'Enter the expiry as MM/YY.';
    if (!/^\d{3,4}$/.test(cvc.trim())) found.cvc = 'Enter the 3 or 4 digits on the back of the card.';
    setErrors(found);
    setDeclined(null);
    if (Object.keys(found).length > 0 || !methodRef) return;
    setBusy(true);
    try {
      const answer = await api.post<{ ok: boolean; paymentId?: number; message?: string }>(
        `/api/billing/member/invoices/${invoice.invoiceId}/pay`,
        { methodRef, idempotencyKey: crypto.randomUUID() },
      );
      if (answer.ok) {
        notifySaved(`Paid ${money(invoice.balanceCents)}: thank you`);
        await queryClient.invalidateQueries({ queryKey: ['billing', 'member'] });
      } else setDeclined(answer.message ?? 'The payment did not go through.');
    } catch (error) {
      setDeclined(isApiError(error) ? error.message : 'The payment did not go through; try again.');
    } finally {
      setBusy(false);
    }
  }
  return (
    <Card withBorder component="section" aria-labelledby="pay-by-card">
      <Group gap="xs" mb="sm">
        <IconCreditCard size={20} aria-hidden />
        <Title order={2} size="h4" id="pay-by-card">
          Pay {money(invoice.balanceCents)} by card
        </Title>
      </Group>
      <form onSubmit={(e) => void pay(e)} noValidate>
        <Stack gap="sm" maw={420}>
          {declined ? (
            <Alert color="red" role="alert" title="Payment refused">
              {declined}
            </Alert>
          ) : null}
          <TextInput
            label="Card number"
            inputMode="numeric"
            autoComplete="cc-number"
            value={number}
            onChange={(e) => setNumber(e.currentTarget.value)}
            error={errors.number}
            required
          />
          <Group grow>
            <TextInput
              label="Expiry (MM/YY)"
              autoComplete="cc-exp"
              value={expiry}
              onChange={(e) => setExpiry(e.currentTarget.value)}
              error={errors.expiry}
              required
            />
            <TextInput
              label="Security code"
              inputMode="numeric"
              autoComplete="cc-csc"
              value={cvc}
              onChange={(e) => setCvc(e.currentTarget.value)}
              error={errors.cvc}
              required
            />
          </Group>
          <Text size="xs" c="dimmed">
            Test gateway: 4242 4242 4242 4242 is accepted, 4000 0000 0000 0002 is declined. Your card details
            are not sent to the association.
          </Text>
          <Button type="submit" loading={busy} w="fit-content">
            Pay {money(invoice.balanceCents)}
          </Button>
        </Stack>
      </form>
    </Card>
  );
}
