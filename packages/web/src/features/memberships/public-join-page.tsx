import {
  formatMoney,
  type MembershipQuote,
  type PublicJoinAnswer,
  type PublicJoinOptions,
} from '@guildhall/shared';
import { Alert, Button, Select, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { useParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { FullPageLoader } from '../../platform/full-page-loader.tsx';
import { usePageTitle } from '../../platform/page-title.ts';

const num = (v: string | null) => (v === null || v === '' ? null : Number(v));

/**
 * `/join/:tenantId`: a person who is not a member yet joins online. They choose a type (and its level, chapter and
 * billing frequency) with the price shown live, give their name and email (and the organisation's name for an
 * organisation's membership); the server matches or creates the contact, the membership and its first invoice.
 */
export function PublicJoinPage() {
  usePageTitle('Join');
  const tenantId = useParams().tenantId ?? '';
  const options = useQuery({
    queryKey: ['public-join', tenantId],
    queryFn: () =>
      api.get<PublicJoinOptions>(`/api/memberships/public/${tenantId}/options`, { expectUnauthorized: true }),
  });
  const [typeId, setTypeId] = useState<number | null>(null);
  const [levelId, setLevelId] = useState<number | null>(null);
  const [chapterId, setChapterId] = useState<number | null>(null);
  const [frequency, setFrequency] = useState<number | null>(null);
  const [person, setPerson] = useState({ FirstName: '', LastName: '', Email: '', Organization: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<PublicJoinAnswer | null>(null);
  const type = options.data?.Types.find((t) => t.MembershipTypeId === typeId) ?? null;
  const ready = type !== null && (type.Levels.length === 0 || levelId !== null);
  const choice = {
    MembershipTypeId: typeId,
    MembershipLevelId: levelId,
    ChapterId: chapterId,
    BillFrequencyTypeId: frequency,
  };
  const price = useQuery({
    queryKey: ['public-join', tenantId, 'price', choice],
    queryFn: () =>
      api.post<MembershipQuote>(`/api/memberships/public/${tenantId}/price`, choice, {
        expectUnauthorized: true,
      }),
    enabled: ready,
    placeholderData: keepPreviousData,
    retry: false,
  });
  async function submit(e: FormEvent) {
    e.preventDefault();
    setBusy(true);
    setError(null);
    try {
      setDone(
        await api.post<PublicJoinAnswer>(
          `/api/memberships/public/${tenantId}/join`,
          { ...choice, ...person, Organization: type?.IsOrganization ? person.Organization : null },
          { expectUnauthorized: true },
        ),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  // Not signed in: the association's currency comes with its join options.
  const money = (cents: number) => formatMoney(cents, { currency: options.data?.Currency });
  if (options.isLoading) return <FullPageLoader />;
  if (options.error || !options.data)
    return <ErrorBlock error={options.error ?? new Error('This join page does not exist.')} />;
  if (done)
    return (
      <Stack gap="md" maw={560} mx="auto" my="xl">
        <Title order={1}>
          <IconCircleCheck aria-hidden /> Thank you for joining
        </Title>
        <Text role="status">{done.message}</Text>
        {done.FirstBill > 0 ? (
          <Text>
            Your first invoice is {money(done.FirstBill)}; we will send it to {person.Email}.
          </Text>
        ) : null}
      </Stack>
    );
  const field = (key: keyof typeof person) => ({
    value: person[key],
    onChange: (e: { currentTarget: { value: string } }) => {
      const value = e.currentTarget.value;
      setPerson((p) => ({ ...p, [key]: value }));
    },
    error: isApiError(error) ? error.fieldError(key) : undefined,
  });
  return (
    <form onSubmit={(e) => void submit(e)}>
      <Stack gap="md" maw={560} mx="auto" my="xl">
        <Title order={1}>Join {options.data.Association}</Title>
        {options.data.Types.length === 0 ? (
          <Alert color="yellow">No membership is open for joining online at the moment.</Alert>
        ) : null}
        <Select
          label="Membership"
          required
          data={options.data.Types.map((t) => ({ value: String(t.MembershipTypeId), label: t.Name }))}
          value={typeId === null ? null : String(typeId)}
          onChange={(v) => {
            setTypeId(num(v));
            setLevelId(null);
            setFrequency(null);
          }}
        />
        {type?.Description ? <Text size="sm">{type.Description}</Text> : null}
        {type && type.Levels.length > 0 ? (
          <Select
            label="Level"
            required
            data={type.Levels.map((l) => ({ value: String(l.MembershipLevelId), label: l.Name }))}
            value={levelId === null ? null : String(levelId)}
            onChange={(v) => setLevelId(num(v))}
          />
        ) : null}
        {options.data.Chapters.length > 0 ? (
          <Select
            label="Chapter"
            clearable
            data={options.data.Chapters.map((c) => ({ value: String(c.ChapterId), label: c.Name }))}
            value={chapterId === null ? null : String(chapterId)}
            onChange={(v) => setChapterId(num(v))}
          />
        ) : null}
        {type && type.Frequencies.length > 1 ? (
          <Select
            label="Billing frequency"
            data={type.Frequencies.map((f) => ({ value: String(f.BillFrequencyTypeId), label: f.Name }))}
            value={frequency === null ? null : String(frequency)}
            onChange={(v) => setFrequency(num(v))}
          />
        ) : null}
        {price.data && ready ? (
          <Table withTableBorder data-testid="public-join-price">
            <Table.Tbody>
              {price.data.FeeItems.map((item) => (
                <Table.Tr key={`${item.FeeId}-${item.Name}`}>
                  <Table.Td>{item.Name}</Table.Td>
                  <Table.Td ta="right">{money(item.FirstBillAmount)}</Table.Td>
                </Table.Tr>
              ))}
              <Table.Tr>
                <Table.Td fw={600}>First invoice</Table.Td>
                <Table.Td ta="right" fw={600} data-testid="public-join-first-bill">
                  {money(price.data.FirstBill)}
                </Table.Td>
              </Table.Tr>
            </Table.Tbody>
          </Table>
        ) : null}
        {type?.IsOrganization ? <TextInput label="Organisation" required {...field('Organization')} /> : null}
        <TextInput label="First name" required autoComplete="given-name" {...field('FirstName')} />
        <TextInput label="Last name" required autoComplete="family-name" {...field('LastName')} />
        <TextInput label="Email" type="email" required autoComplete="email" {...field('Email')} />
        {error && !(isApiError(error) && Object.keys(error.errors).length > 0) ? (
          <Alert color="red" role="alert">
            {error instanceof Error ? error.message : 'Something went wrong.'}
          </Alert>
        ) : null}
        <Button type="submit" loading={busy} disabled={!ready}>
          Join
        </Button>
      </Stack>
    </form>
  );
}
