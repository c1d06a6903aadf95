import {
  billFrequencyName,
  firstVisibleStep,
  type LookupOption,
  type MembershipOptions,
  type MembershipQuote,
  planNext,
  planPrevious,
  type WizardStep,
} from '@guildhall/shared';
import {
  Alert,
  Button,
  Group,
  Paper,
  Radio,
  Select,
  Stack,
  Stepper,
  Switch,
  Table,
  Text,
  TextInput,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useNavigate, useSearchParams } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { formatMoney } from '../../platform/fields/field-display.tsx';
import { notifyError, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';

interface Choice {
  ContactId: number | null;
  MembershipTypeId: number | null;
  MembershipLevelId: number | null;
  ChapterId: number | null;
  BillFrequencyTypeId: number | null;
  Units: string;
  AutoPay: boolean;
}

const STEPS: WizardStep<Choice>[] = [{ key: 'membership' }, { key: 'billing' }, { key: 'review' }];
const TITLES = ['Member and membership', 'Fees and billing', 'Review and join'];

/**
 * Joining a member: choose the contact, the type, level and chapter; then the bill frequency, with every fee priced
 * live by the server from the shared pricing rules (a frequency change recalculates each item); then the review.
 * Steps follow the shared wizard rules.
 */
export function JoinPage() {
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const preset = Number(params.get('contact'));
  const [choice, setChoice] = useState<Choice>({
    ContactId: Number.isSafeInteger(preset) && preset > 0 ? preset : null,
    MembershipTypeId: null,
    MembershipLevelId: null,
    ChapterId: null,
    BillFrequencyTypeId: null,
    Units: '',
    AutoPay: false,
  });
  const [current, setCurrent] = useState(() => firstVisibleStep(STEPS, choice) ?? 0);
  const [busy, setBusy] = useState(false);
  const options = useQuery({
    queryKey: ['memberships', 'options'],
    queryFn: () => api.get<MembershipOptions>('/api/memberships/options'),
  });
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 250);
  const contacts = useQuery({
    queryKey: ['lookup', 'contacts', debounced],
    queryFn: ({ signal }) =>
      api.get<LookupOption[]>(
        `/api/contacts/contacts/contactLookup?search=${encodeURIComponent(debounced)}`,
        {
          signal,
        },
      ),
    staleTime: 30_000,
  });
  const type = options.data?.Types.find((t) => t.MembershipTypeId === choice.MembershipTypeId) ?? null;
  const needsLevel = (type?.Levels.length ?? 0) > 0;
  const ready = choice.MembershipTypeId !== null && (!needsLevel || choice.MembershipLevelId !== null);
  const priceBody = useMemo(
    () => ({
      MembershipTypeId: choice.MembershipTypeId,
      MembershipLevelId: choice.MembershipLevelId,
      ChapterId: choice.ChapterId,
      BillFrequencyTypeId: choice.BillFrequencyTypeId,
      Units: choice.Units.trim() === '' ? null : choice.Units.trim(),
    }),
    [choice],
  );
  const price = useQuery({
    queryKey: ['memberships', 'price', priceBody],
    queryFn: () => api.post<MembershipQuote>('/api/memberships/price', priceBody),
    enabled: ready,
    placeholderData: keepPreviousData,
  });
  const set = (patch: Partial<Choice>) => setChoice((c) => ({ ...c, ...patch }));
  const stepValid = [choice.ContactId !== null && ready, price.data !== undefined && !price.error, true];

  async function join() {
    if (choice.ContactId === null) return;
    setBusy(true);
    try {
      const answer = await api.post<{ MembershipId: number; Status: string }>('/api/memberships/join', {
        ...priceBody,
        ContactId: choice.ContactId,
        AutoPay: choice.AutoPay,
      });
      notifySaved('Membership created');
      navigate(`/micronet/list/memberships/memberships/${answer.MembershipId}`);
    } catch (error) {
      notifyError(error);
    } finally {
      setBusy(false);
    }
  }

  if (options.isLoading) return <LoadingBlock />;
  const contactOptions = (contacts.data ?? []).map((c) => ({ value: String(c.Id), label: c.Name }));
  if (choice.ContactId !== null && !contactOptions.some((o) => o.value === String(choice.ContactId)))
    contactOptions.unshift({ value: String(choice.ContactId), label: `Contact ${choice.ContactId}` });
  const next = planNext(STEPS, current, choice, stepValid[current] ?? false);
  const previous = planPrevious(STEPS, current, choice);

  return (
    <Stack gap="md" maw={900}>
      <PageHeader
        title="Join a member"
        description="Sign a contact up for a membership, priced as you choose."
      />
      {options.data && options.data.Types.length === 0 ? (
        <Alert color="yellow">No membership type is open for joining. Add one under Membership setup.</Alert>
      ) : null}
      <Stepper active={current} allowNextStepsSelect={false} size="sm">
        {TITLES.map((title) => (
          <Stepper.Step key={title} label={title} />
        ))}
      </Stepper>
      <Paper withBorder p="md">
        {current === 0 ? (
          <Stack gap="sm">
            <Select
              label="Member"
              placeholder="Type a name"
              searchable
              required
              data={contactOptions}
              value={choice.ContactId === null ? null : String(choice.ContactId)}
              onSearchChange={setSearch}
              onChange={(v) => set({ ContactId: v ? Number(v) : null })}
              nothingFoundMessage="No contact by that name"
            />
            <Select
              label="Membership type"
              required
              data={(options.data?.Types ?? []).map((t) => ({
                value: String(t.MembershipTypeId),
                label: t.Name,
              }))}
              value={choice.MembershipTypeId === null ? null : String(choice.MembershipTypeId)}
              onChange={(v) =>
                set({
                  MembershipTypeId: v ? Number(v) : null,
                  MembershipLevelId: null,
                  BillFrequencyTypeId: null,
                })
              }
            />
            {type?.Description ? (
              <Text size="sm" c="dimmed">
                {type.Description}
              </Text>
            ) : null}
            {needsLevel ? (
              <Select
                label="Level"
                required
                data={(type?.Levels ?? []).map((l) => ({
                  value: String(l.MembershipLevelId),
                  label: l.Name,
                }))}
                value={choice.MembershipLevelId === null ? null : String(choice.MembershipLevelId)}
                onChange={(v) => set({ MembershipLevelId: v ? Number(v) : null })}
              />
            ) : null}
            <Select
              label="Chapter"
              clearable
              data={(options.data?.Chapters ?? []).map((c) => ({
                value: String(c.ChapterId),
                label: c.Name,
              }))}
              value={choice.ChapterId === null ? null : String(choice.ChapterId)}
              onChange={(v) => set({ ChapterId: v ? Number(v) : null })}
            />
            {type?.FormulaBasedPricing ? (
              <TextInput
                label="Units (employees, revenue…)"
                value={choice.Units}
                onChange={(e) => set({ Units: e.currentTarget.value })}
              />
            ) : null}
          </Stack>
        ) : null}
        {current === 1 ? (
          <Stack gap="sm">
            <Radio.Group
              label="Bill frequency"
              value={String(choice.BillFrequencyTypeId ?? price.data?.BillFrequencyTypeId ?? '')}
              onChange={(v) => set({ BillFrequencyTypeId: Number(v) })}
            >
              <Group mt="xs">
                {(type?.Frequencies ?? []).map((f) => (
                  <Radio key={f.BillFrequencyTypeId} value={String(f.BillFrequencyTypeId)} label={f.Name} />
                ))}
              </Group>
            </Radio.Group>
            {price.error ? <Alert color="red">{(price.error as Error).message}</Alert> : null}
            {price.data ? <PriceTable price={price.data} /> : <LoadingBlock />}
            <Switch
              label="Charge renewals to the card on file (autopay)"
              checked={choice.AutoPay}
              onChange={(e) => set({ AutoPay: e.currentTarget.checked })}
            />
          </Stack>
        ) : null}
        {current === 2 && price.data ? (
          <Stack gap="xs">
            <Text>
              <b>{price.data.Name}</b> for{' '}
              {contactOptions.find((o) => o.value === String(choice.ContactId))?.label}
            </Text>
            <Text size="sm">
              Term {price.data.TermStart} to {price.data.TermEnd}, billed{' '}
              {billFrequencyName(price.data.BillFrequencyTypeId).toLowerCase()}.
            </Text>
            <Text size="sm" data-testid="first-invoice">
              First invoice: <b>{formatMoney(price.data.FirstBill)}</b>
              {price.data.Proration.numerator !== price.data.Proration.denominator
                ? ` (prorated ${price.data.Proration.numerator}/${price.data.Proration.denominator} of the term)`
                : ''}
            </Text>
            <Text size="sm">
              The membership is pending until its first invoice is paid or staff approve it.
            </Text>
          </Stack>
        ) : null}
      </Paper>
      <Group justify="space-between">
        <Button
          variant="default"
          disabled={previous.type !== 'move' || busy}
          onClick={() => previous.type === 'move' && setCurrent(previous.to)}
        >
          Previous
        </Button>
        {current < STEPS.length - 1 ? (
          <Button disabled={next.type !== 'move'} onClick={() => next.type === 'move' && setCurrent(next.to)}>
            Next
          </Button>
        ) : (
          <Button loading={busy} onClick={() => void join()}>
            Join
          </Button>
        )}
      </Group>
    </Stack>
  );
}

function PriceTable({ price }: { price: MembershipQuote }) {
  return (
    <Table striped withTableBorder data-testid="fee-items">
      <Table.Thead>
        <Table.Tr>
          <Table.Th>Fee</Table.Th>
          <Table.Th>Billed</Table.Th>
          <Table.Th ta="right">Price per term</Table.Th>
          <Table.Th ta="right">Bills</Table.Th>
          <Table.Th ta="right">Per bill</Table.Th>
          <Table.Th ta="right">First invoice</Table.Th>
        </Table.Tr>
      </Table.Thead>
      <Table.Tbody>
        {price.FeeItems.map((item) => (
          <Table.Tr key={`${item.FeeId}-${item.Name}`}>
            <Table.Td>{item.Name}</Table.Td>
            <Table.Td>{billFrequencyName(item.BillFrequencyTypeId)}</Table.Td>
            <Table.Td ta="right">{formatMoney(item.Price)}</Table.Td>
            <Table.Td ta="right">{item.BillFrequency}</Table.Td>
            <Table.Td ta="right">{formatMoney(item.PerBillAmount)}</Table.Td>
            <Table.Td ta="right">{formatMoney(item.FirstBillAmount)}</Table.Td>
          </Table.Tr>
        ))}
      </Table.Tbody>
      <Table.Tfoot>
        <Table.Tr>
          <Table.Th colSpan={2}>Term total</Table.Th>
          <Table.Th ta="right" data-testid="term-total">
            {formatMoney(price.TermTotal)}
          </Table.Th>
          <Table.Th ta="right">{price.Bills.length}</Table.Th>
          <Table.Th />
          <Table.Th ta="right">{formatMoney(price.FirstBill)}</Table.Th>
        </Table.Tr>
      </Table.Tfoot>
    </Table>
  );
}
