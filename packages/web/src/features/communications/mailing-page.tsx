/**
 * One mailing. A draft is written here (from a template or from scratch, in the rich-text editor with merge fields),
 * its audience chosen (a filter of the contacts list, the members of chosen membership types, levels and statuses,
 * or an event's attendees; evaluated when the send starts), previewed as a recipient,
 * test-sent to oneself, then sent now or scheduled. Once sent, the page shows how delivery went, recipient by
 * recipient (queued, sent, deferred, failed, bounced, suppressed).
 */
import {
  type AudienceCount,
  type AudienceOptions,
  DEFAULT_AUDIENCE_ATTENDEE_STATUSES,
  DEFAULT_AUDIENCE_MEMBERSHIP_STATUSES,
  type DesignedMessage,
  designFromRichText,
  displayTimeZone,
  EVENT_ATTENDEE_STATUS_OPTIONS,
  type LookupOption,
  MAILING_STATUSES,
  type Mailing,
  type MailingAudience,
  type MailingInput,
  MEMBERSHIP_STATUSES,
  MERGE_FLAGS,
  type RecipientLog,
  TEMPLATE_TYPES,
} from '@guildhall/shared';
import {
  Alert,
  Button,
  Card,
  Checkbox,
  Group,
  MultiSelect,
  SegmentedControl,
  Select,
  SimpleGrid,
  Stack,
  Table,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { useDebouncedValue } from '@mantine/hooks';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { useNavigate, useParams } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { RichTextEditor } from '../../platform/editor/rich-text-editor.tsx';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { formatDateTime } from '../../platform/format.ts';
import { useIdentity } from '../../platform/identity.ts';
import { notifyError, notifyInfo, notifySaved } from '../../platform/notify.ts';
import { LoadingBlock, PageHeader } from '../../platform/page.tsx';
import { confirmDialog } from '../../platform/screens/dialogs.tsx';
import { resourceByName } from '../../platform/screens/resources.ts';
import { SoftBadge } from '../../platform/soft-badge.tsx';
import { deliverySummary, MAILING_STATUS_COLORS } from './mailings-page.tsx';

const MERGE_CONTEXT = { flags: MERGE_FLAGS.RichText, templateType: TEMPLATE_TYPES.Email, entity: 'mailing' };

interface TemplateRow {
  TemplateId: number;
  Name: string;
  Subject: string;
  IsArchived: boolean;
}

function useTemplates() {
  return useQuery({
    queryKey: ['email-templates', 'for-mailing'],
    queryFn: () =>
      api.post<{ Results: TemplateRow[] }>('/api/communication/templates/templateData', { Id: 1 }),
  });
}

function ContactPicker({ value, onChange }: { value: string | null; onChange: (v: string | null) => void }) {
  const [search, setSearch] = useState('');
  const [debounced] = useDebouncedValue(search, 300);
  const found = useQuery({
    queryKey: ['contact-lookup', debounced],
    queryFn: () =>
      api.get<LookupOption[]>(`/api/contacts/contacts/contactLookup?search=${encodeURIComponent(debounced)}`),
  });
  return (
    <Select
      label="Preview as"
      placeholder="Type a contact's name"
      searchable
      clearable
      searchValue={search}
      onSearchChange={setSearch}
      filter={({ options }) => options}
      data={(found.data ?? []).map((c) => ({ value: String(c.Id), label: c.Name }))}
      value={value}
      onChange={onChange}
    />
  );
}

function Preview({ mailingId }: { mailingId: number }) {
  const me = useIdentity();
  const [contactId, setContactId] = useState<string | null>(null);
  const preview = useQuery({
    queryKey: ['mailing-preview', mailingId, contactId],
    queryFn: () =>
      api.post<{ Subject: string; Html: string; Email: string | null }>(
        `/api/communication/mailings/${mailingId}/preview`,
        { ContactId: contactId ? Number(contactId) : null },
      ),
  });
  const [sending, setSending] = useState(false);
  return (
    <Card withBorder>
      <Stack>
        <Group justify="space-between" align="flex-end">
          <div style={{ flex: 1, maxWidth: 420 }}>
            <ContactPicker value={contactId} onChange={setContactId} />
          </div>
          <Button
            variant="light"
            loading={sending}
            onClick={async () => {
              setSending(true);
              try {
                const r = await api.post<{ message: string }>(
                  `/api/communication/mailings/${mailingId}/test`,
                  {
                    To: me.user.email,
                    ContactId: contactId ? Number(contactId) : null,
                  },
                );
                notifyInfo(r.message);
              } catch (e) {
                notifyError(e);
              } finally {
                setSending(false);
              }
            }}
          >
            Send a test to {me.user.email}
          </Button>
        </Group>
        {preview.isError ? <ErrorBlock error={preview.error} /> : null}
        {preview.data ? (
          <>
            <Text size="sm">
              <Text span fw={600}>
                Subject:
              </Text>{' '}
              {preview.data.Subject}
              {preview.data.Email ? ` · to ${preview.data.Email}` : ''}
            </Text>
            <iframe
              title="Preview of the message"
              sandbox=""
              srcDoc={preview.data.Html}
              style={{
                width: '100%',
                height: 420,
                border: '1px solid var(--mantine-color-gray-3)',
                borderRadius: 4,
              }}
            />
          </>
        ) : null}
      </Stack>
    </Card>
  );
}

function RecipientsLog({ mailing }: { mailing: Mailing }) {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const log = useQuery({
    queryKey: ['mailing-log', mailing.MailingId, mailing.Status, JSON.stringify(mailing.Counts)],
    queryFn: () => api.get<RecipientLog[]>(`/api/communication/mailings/${mailing.MailingId}/recipients`),
    refetchInterval: mailing.Status === 'sending' ? 2000 : false,
  });
  return (
    <Card withBorder>
      <Title order={3} size="h4" mb="sm">
        Delivery log
      </Title>
      {log.data && log.data.length === 0 ? (
        <Text c="dimmed" size="sm">
          The recipients are fixed when the send starts.
        </Text>
      ) : null}
      {log.data && log.data.length > 0 ? (
        <Table striped aria-label="Delivery log">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Recipient</Table.Th>
              <Table.Th>Status</Table.Th>
              <Table.Th>Tries</Table.Th>
              <Table.Th>Sent</Table.Th>
              <Table.Th>Answer</Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {log.data.map((r) => (
              <Table.Tr key={r.RecipientId}>
                <Table.Td>{r.Email}</Table.Td>
                <Table.Td>
                  <SoftBadge color={MAILING_STATUS_COLORS[r.Status] ?? 'gray'}>{r.Status}</SoftBadge>
                </Table.Td>
                <Table.Td>{r.Attempts}</Table.Td>
                <Table.Td>{r.SentAt ? formatDateTime(r.SentAt, tz) : '—'}</Table.Td>
                <Table.Td>
                  <Text size="xs" c="dimmed">
                    {r.LastError ?? ''}
                  </Text>
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      ) : null}
    </Card>
  );
}

const AUDIENCE_KINDS = [
  { value: 'filter', label: 'Contacts' },
  { value: 'membership', label: 'Members' },
  { value: 'event', label: 'Event attendees' },
];

function audienceOf(kind: string): MailingAudience {
  if (kind === 'membership')
    return {
      Kind: 'membership',
      MembershipTypeIds: [],
      MembershipLevelIds: [],
      Statuses: [...DEFAULT_AUDIENCE_MEMBERSHIP_STATUSES],
      IncludeSecondaryMembers: false,
    };
  if (kind === 'event')
    return { Kind: 'event', EventId: 0, AttendeeStatusIds: [...DEFAULT_AUDIENCE_ATTENDEE_STATUSES] };
  return { Kind: 'filter', FilterId: 0 };
}

/** Who receives the mailing: a filter of the contacts list, members by type, level and status, or an event's attendees. */
function AudiencePicker({
  value,
  onChange,
  filterOptions,
}: {
  value: MailingAudience;
  onChange: (a: MailingAudience) => void;
  filterOptions: { value: string; label: string }[];
}) {
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const options = useQuery({
    queryKey: ['mailing-audience-options'],
    queryFn: () => api.get<AudienceOptions>('/api/communication/mailings/audience-options'),
    enabled: value.Kind === 'membership' || value.Kind === 'event',
  });
  const kind = value.Kind === 'contacts' ? 'filter' : value.Kind;
  const types = options.data?.MembershipTypes ?? [];
  return (
    <Stack gap="xs">
      <div>
        <Text size="sm" fw={500}>
          Recipients
        </Text>
        <Text size="xs" c="dimmed">
          Chosen when the send starts; suppressed addresses are skipped
        </Text>
      </div>
      <SegmentedControl
        aria-label="Recipients"
        data={AUDIENCE_KINDS}
        value={kind}
        onChange={(k) => onChange(k === kind ? value : audienceOf(k))}
      />
      {value.Kind === 'filter' || value.Kind === 'contacts' ? (
        <Select
          label="Contacts"
          aria-label="Contacts filter"
          description="A filter of the contacts list"
          data={filterOptions}
          value={value.Kind === 'filter' ? String(value.FilterId) : null}
          placeholder={value.Kind === 'contacts' ? `${value.ContactIds.length} chosen contacts` : undefined}
          onChange={(v) => onChange({ Kind: 'filter', FilterId: Number(v ?? 0) })}
        />
      ) : null}
      {value.Kind === 'membership' ? (
        <>
          <MultiSelect
            label="Membership types"
            placeholder={value.MembershipTypeIds.length ? undefined : 'Every type'}
            data={types.map((t) => ({ value: String(t.Id), label: t.Name }))}
            value={value.MembershipTypeIds.map(String)}
            onChange={(v) => {
              const typeIds = v.map(Number);
              const allowed = new Set(
                types.filter((t) => typeIds.includes(t.Id)).flatMap((t) => t.Levels.map((l) => l.Id)),
              );
              onChange({
                ...value,
                MembershipTypeIds: typeIds,
                MembershipLevelIds: value.MembershipLevelIds.filter((l) => allowed.has(l)),
              });
            }}
          />
          {types.some((t) => value.MembershipTypeIds.includes(t.Id) && t.Levels.length > 0) ? (
            <MultiSelect
              label="Levels"
              placeholder={value.MembershipLevelIds.length ? undefined : 'Every level'}
              data={types
                .filter((t) => value.MembershipTypeIds.includes(t.Id) && t.Levels.length > 0)
                .map((t) => ({
                  group: t.Name,
                  items: t.Levels.map((l) => ({ value: String(l.Id), label: l.Name })),
                }))}
              value={value.MembershipLevelIds.map(String)}
              onChange={(v) => onChange({ ...value, MembershipLevelIds: v.map(Number) })}
            />
          ) : null}
          <MultiSelect
            label="Membership statuses"
            required
            data={MEMBERSHIP_STATUSES.map((s) => ({ value: s.Id, label: s.Name }))}
            value={value.Statuses}
            error={value.Statuses.length === 0 ? 'Choose at least one membership status.' : undefined}
            onChange={(v) => onChange({ ...value, Statuses: v as typeof value.Statuses })}
          />
          <Checkbox
            label="Also the people an organisation's membership covers"
            checked={value.IncludeSecondaryMembers}
            onChange={(e) => onChange({ ...value, IncludeSecondaryMembers: e.currentTarget.checked })}
          />
        </>
      ) : null}
      {value.Kind === 'event' ? (
        <>
          <Select
            label="Event"
            required
            searchable
            placeholder="Choose an event"
            data={(options.data?.Events ?? []).map((e) => ({
              value: String(e.Id),
              label: `${e.Name} (${formatDateTime(e.StartsAt, tz)})`,
            }))}
            value={value.EventId ? String(value.EventId) : null}
            onChange={(v) => onChange({ ...value, EventId: Number(v ?? 0) })}
          />
          <MultiSelect
            label="Attendees"
            required
            data={EVENT_ATTENDEE_STATUS_OPTIONS.map((s) => ({ value: String(s.Id), label: s.Name }))}
            value={value.AttendeeStatusIds.map(String)}
            error={value.AttendeeStatusIds.length === 0 ? 'Choose at least one attendee status.' : undefined}
            onChange={(v) => onChange({ ...value, AttendeeStatusIds: v.map(Number) })}
          />
        </>
      ) : null}
    </Stack>
  );
}

const number = new Intl.NumberFormat('en-US');
const people = (n: number) => `${number.format(n)} ${n === 1 ? 'person' : 'people'}`;

/** What the audience reaches now, in words: "Reaches 1,204 people now (3 suppressed, 12 without an address)". */
export function reachText(c: AudienceCount): string {
  const apart = [
    c.Suppressed ? `${number.format(c.Suppressed)} suppressed` : null,
    c.WithoutAddress ? `${number.format(c.WithoutAddress)} without an address` : null,
  ].filter(Boolean);
  return `Reaches ${people(c.Recipients)} now${apart.length ? ` (${apart.join(', ')}: not sent to)` : ''}`;
}

const countAudience = (Audience: MailingAudience) =>
  api.post<AudienceCount>('/api/communication/mailings/audience-count', { Audience });

/** Whether the audience names its recipients well enough to save. */
function audienceComplete(a: MailingAudience): boolean {
  if (a.Kind === 'membership') return a.Statuses.length > 0;
  if (a.Kind === 'event') return a.EventId > 0 && a.AttendeeStatusIds.length > 0;
  return true;
}

const EMPTY: MailingInput = {
  Name: '',
  TemplateId: null,
  Subject: '',
  BodyHtml: '',
  Audience: { Kind: 'filter', FilterId: 0 },
};

export function MailingPage() {
  const params = useParams();
  const isNew = params.id === 'new' || params.id === undefined;
  const id = isNew ? null : Number(params.id);
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  const me = useIdentity();
  const tz = displayTimeZone(me);
  const mailing = useQuery({
    queryKey: ['mailing', id],
    queryFn: () => api.get<Mailing>(`/api/communication/mailings/${id}`),
    enabled: id !== null,
    // A send in progress (or due now) is followed until it is done.
    refetchInterval: (q) => {
      const d = q.state.data;
      if (!d) return false;
      if (d.Status === 'sending') return 2000;
      if (d.Status === 'scheduled' && d.ScheduledAt && Date.parse(d.ScheduledAt) <= Date.now() + 5000)
        return 2000;
      return false;
    },
  });
  const templates = useTemplates();
  const [draft, setDraft] = useState<MailingInput>(EMPTY);
  const [dirty, setDirty] = useState(false);
  const [saving, setSaving] = useState(false);
  const [when, setWhen] = useState('');
  useEffect(() => {
    if (mailing.data && !dirty) {
      const m = mailing.data;
      setDraft({
        Name: m.Name,
        TemplateId: m.TemplateId,
        Subject: m.Subject,
        BodyHtml: m.BodyHtml,
        DesignJson: m.DesignJson,
        Audience: m.Audience,
      });
    }
  }, [mailing.data, dirty]);

  // How many the chosen audience reaches, asked again a moment after each change.
  const [audience] = useDebouncedValue(draft.Audience, 400);
  const reach = useQuery({
    queryKey: ['mailing-audience-count', audience],
    queryFn: () => countAudience(audience),
    enabled: (!mailing.data || mailing.data.Status === 'draft') && audienceComplete(audience),
  });

  const contacts = resourceByName('contacts');
  const filterOptions = [
    { value: '0', label: 'Every contact with an email address' },
    ...(contacts?.filters ?? []).map((f) => ({ value: String(f.Id), label: f.Name })),
  ];
  const update = (patch: Partial<MailingInput>) => {
    setDraft((d) => ({ ...d, ...patch }));
    setDirty(true);
  };

  const save = async (patch: Partial<MailingInput> = {}): Promise<number | null> => {
    setSaving(true);
    const body = { ...draft, ...patch };
    try {
      const saved = id
        ? await api.put<Mailing>(`/api/communication/mailings/${id}`, body)
        : await api.post<Mailing>('/api/communication/mailings', body);
      setDraft(body);
      setDirty(false);
      await queryClient.invalidateQueries({ queryKey: ['mailing'] });
      await queryClient.invalidateQueries({ queryKey: ['mailing-preview'] });
      await queryClient.invalidateQueries({ queryKey: ['mailings'] });
      notifySaved();
      if (!id && !patch.DesignJson) navigate(`/a/mailings/${saved.MailingId}`, { replace: true });
      return saved.MailingId;
    } catch (e) {
      notifyError(e);
      return null;
    } finally {
      setSaving(false);
    }
  };

  // "Design it": the rich-text message becomes the first block of a new design, saved with the draft, and the
  // designer opens on it.
  const designIt = async () => {
    if (
      !(await confirmDialog({
        title: 'Design this message',
        message:
          'The message becomes a text block of a new design, with the footer below it, and opens in the email designer. From then on it is edited there.',
        okLabel: 'Design it',
      }))
    )
      return;
    const mailingId = await save({ DesignJson: designFromRichText(draft.BodyHtml) });
    if (mailingId) navigate(`/a/designer/mailings/${mailingId}`);
  };

  const send = async (scheduled: boolean) => {
    const mailingId = dirty || !id ? await save() : id;
    if (!mailingId) return;
    const at = scheduled && when ? new Date(when).toISOString() : null;
    let count: AudienceCount;
    try {
      count = await countAudience(draft.Audience);
    } catch (e) {
      notifyError(e);
      return;
    }
    const question = at
      ? `Send "${draft.Name}" on ${formatDateTime(at, tz)}? It would reach ${people(count.Recipients)} today; its recipients are chosen then.`
      : `Send "${draft.Name}" now to ${people(count.Recipients)}?${count.Suppressed ? ` ${number.format(count.Suppressed)} suppressed ${count.Suppressed === 1 ? 'address is' : 'addresses are'} skipped.` : ''}`;
    if (
      !(await confirmDialog({
        title: 'Send the mailing',
        message: question,
        okLabel: at ? 'Schedule' : 'Send',
      }))
    )
      return;
    try {
      await api.post(`/api/communication/mailings/${mailingId}/send`, { ScheduledAt: at });
      await queryClient.invalidateQueries({ queryKey: ['mailing'] });
      await queryClient.invalidateQueries({ queryKey: ['mailings'] });
      notifyInfo(at ? 'The mailing is scheduled.' : 'The mailing is on its way.');
    } catch (e) {
      notifyError(e);
    }
  };

  if (id !== null && mailing.isPending) return <LoadingBlock label="Loading the mailing" />;
  if (mailing.isError) return <ErrorBlock error={mailing.error} onRetry={() => void mailing.refetch()} />;
  const m = mailing.data ?? null;
  const editable = !m || m.Status === 'draft';
  void MAILING_STATUSES;

  return (
    <>
      <PageHeader
        title={m ? m.Name : 'New mailing'}
        description={
          m
            ? `${m.Status === 'draft' ? 'Draft' : m.Status}${m.ScheduledAt && m.Status === 'scheduled' ? ` for ${formatDateTime(m.ScheduledAt, tz)}` : ''}${m.RecipientCount ? ` · ${m.RecipientCount} recipients · ${deliverySummary(m.Counts)}` : ''}`
            : 'Write the message, choose who receives it, preview and test it, then send it.'
        }
        actions={
          m ? <SoftBadge color={MAILING_STATUS_COLORS[m.Status] ?? 'gray'}>{m.Status}</SoftBadge> : undefined
        }
      />
      <Stack>
        {editable ? (
          <Card withBorder>
            <Stack>
              <SimpleGrid cols={{ base: 1, sm: 2 }}>
                <TextInput
                  label="Name"
                  required
                  value={draft.Name}
                  onChange={(e) => update({ Name: e.currentTarget.value })}
                />
                <Select
                  label="Start from a template"
                  placeholder="Choose a template"
                  clearable
                  data={(templates.data?.Results ?? []).map((t) => ({
                    value: String(t.TemplateId),
                    label: t.Name,
                  }))}
                  value={draft.TemplateId ? String(draft.TemplateId) : null}
                  onChange={async (v) => {
                    if (!v) return update({ TemplateId: null });
                    const t = await api.post<{ Subject: string; BodyHtml: string | null; Kind: string }>(
                      '/api/communication/templates/templateGet',
                      { id: Number(v) },
                    );
                    // A designed template brings its design (the server renders the message from it).
                    const design =
                      t.Kind === 'newsletter'
                        ? (await api.get<DesignedMessage>(`/api/communication/designer/templates/${v}`))
                            .DesignJson
                        : null;
                    update({
                      TemplateId: Number(v),
                      Subject: t.Subject,
                      BodyHtml: t.BodyHtml ?? '',
                      DesignJson: design,
                    });
                  }}
                />
                <TextInput
                  label="Subject"
                  required
                  value={draft.Subject}
                  onChange={(e) => update({ Subject: e.currentTarget.value })}
                />
              </SimpleGrid>
              <div>
                <AudiencePicker
                  value={draft.Audience}
                  onChange={(Audience) => update({ Audience })}
                  filterOptions={filterOptions}
                />
                <Text size="sm" mt="xs" aria-live="polite" data-testid="audience-reach">
                  {!audienceComplete(draft.Audience)
                    ? ''
                    : reach.data && audience === draft.Audience
                      ? reachText(reach.data)
                      : reach.isError
                        ? 'The recipients could not be counted.'
                        : 'Counting the recipients…'}
                </Text>
              </div>
              <div>
                <Text size="sm" fw={500} mb={4}>
                  Message
                </Text>
                {draft.DesignJson ? (
                  <Group>
                    <Text size="sm" c="dimmed">
                      This message is designed in the email designer.
                    </Text>
                    {id ? (
                      <Button
                        size="xs"
                        variant="light"
                        onClick={() => navigate(`/a/designer/mailings/${id}`)}
                      >
                        Open the designer
                      </Button>
                    ) : (
                      <Text size="sm">Save the draft to open it in the designer.</Text>
                    )}
                  </Group>
                ) : (
                  <Stack gap="xs">
                    <RichTextEditor
                      key={draft.TemplateId ?? 'none'}
                      label="Message"
                      value={draft.BodyHtml}
                      onChange={(html) => update({ BodyHtml: html })}
                      mergeContext={MERGE_CONTEXT}
                      signatures
                      minHeight={220}
                    />
                    <Group>
                      <Button
                        size="xs"
                        variant="light"
                        disabled={
                          !draft.Name.trim() || !draft.Subject.trim() || !audienceComplete(draft.Audience)
                        }
                        title="Start a design in the email designer from this message"
                        onClick={() => void designIt()}
                      >
                        Design it
                      </Button>
                    </Group>
                  </Stack>
                )}
              </div>
              <Group justify="space-between">
                <Button
                  onClick={() => void save()}
                  loading={saving}
                  disabled={!draft.Name.trim() || !draft.Subject.trim() || !audienceComplete(draft.Audience)}
                >
                  Save draft
                </Button>
                <Group align="flex-end">
                  <TextInput
                    label="Send later"
                    type="datetime-local"
                    value={when}
                    onChange={(e) => setWhen(e.currentTarget.value)}
                  />
                  <Button
                    variant="light"
                    disabled={!when || !draft.Name.trim() || !audienceComplete(draft.Audience)}
                    onClick={() => void send(true)}
                  >
                    Schedule
                  </Button>
                  <Button
                    color="green"
                    disabled={
                      !draft.Name.trim() || !draft.Subject.trim() || !audienceComplete(draft.Audience)
                    }
                    onClick={() => void send(false)}
                  >
                    Send now
                  </Button>
                </Group>
              </Group>
            </Stack>
          </Card>
        ) : null}
        {m && m.Status === 'scheduled' ? (
          <Alert color="violet" title="Scheduled">
            <Group justify="space-between">
              <Text size="sm">
                It will be sent on {m.ScheduledAt ? formatDateTime(m.ScheduledAt, tz) : ''}.
              </Text>
              <Button
                size="xs"
                variant="default"
                onClick={async () => {
                  await api.post(`/api/communication/mailings/${m.MailingId}/cancel`).catch(notifyError);
                  await queryClient.invalidateQueries({ queryKey: ['mailing'] });
                }}
              >
                Cancel the schedule
              </Button>
            </Group>
          </Alert>
        ) : null}
        {m && !editable && m.DesignJson ? (
          <Group>
            <Button
              variant="default"
              size="xs"
              onClick={() => navigate(`/a/designer/mailings/${m.MailingId}`)}
            >
              View the design
            </Button>
          </Group>
        ) : null}
        {m ? <Preview mailingId={m.MailingId} /> : null}
        {m && m.Status !== 'draft' ? <RecipientsLog mailing={m} /> : null}
      </Stack>
    </>
  );
}
