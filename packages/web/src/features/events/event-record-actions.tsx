/**
 * The event record's Register… button: staff register a contact for one of its occurrences, with a registration
 * type and the event's registration questions (POST /api/events/registrations).
 */
import { Alert, Button, Group, Select, Stack, Text } from '@mantine/core';
import { IconExternalLink, IconId, IconPrinter, IconUserPlus } from '@tabler/icons-react';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { Suspense, useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { FIELD_REGISTRY } from '../../platform/fields/field-registry.ts';
import { formatDateTime } from '../../platform/format.ts';
import { useDisplayTimeZone, useMe } from '../../platform/identity.ts';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { notifySaved } from '../../platform/notify.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { StackedModal } from '../../platform/screens/dialogs.tsx';
import { useFieldContext } from '../../platform/screens/field-context.ts';
import { QuestionInputs } from '../custom-fields/index.ts';
import { eventsApi } from './events-api.ts';

type Row = Record<string, unknown>;

const rowsOf = (resource: string, view: string, eventId: number, signal?: AbortSignal) =>
  api
    .post<{ Results: Row[] }>(
      `/api/events/${resource}/${view}Data?$top=100`,
      {
        Id: 9999,
        Criteria: [{ PropertyName: 'EventId', Operator: 'eq', Value: eventId }],
      },
      { signal },
    )
    .then((r) => r.Results);

const CONTACT = {
  type: 'lookup' as const,
  label: 'Contact',
  required: true,
  lookup: { source: 'contacts', display: 'DisplayName' },
};

function RegisterDialog({ eventId, onClose }: { eventId: number; onClose: () => void }) {
  const shownZone = useDisplayTimeZone();
  const context = useFieldContext();
  const client = useQueryClient();
  const [contactId, setContactId] = useState<unknown>(null);
  const [detail, setDetail] = useState<string | null>(null);
  const [type, setType] = useState<string | null>(null);
  const [answers, setAnswers] = useState<Record<string, unknown>>({});
  const details = useQuery({
    queryKey: ['events', 'register', 'details', eventId],
    queryFn: ({ signal }) => rowsOf('details', 'detail', eventId, signal),
  });
  const types = useQuery({
    queryKey: ['events', 'register', 'types', eventId],
    queryFn: ({ signal }) => rowsOf('registration-types', 'registrationType', eventId, signal),
  });
  const questions = useQuery({
    queryKey: ['events', 'questions', eventId],
    queryFn: ({ signal }) => eventsApi.questions(eventId, signal),
  });
  const register = useMutation({
    mutationFn: eventsApi.register,
    onSuccess: (answer) => {
      notifySaved(answer.message);
      void client.invalidateQueries({ queryKey: ['list'] });
      void client.invalidateQueries({ queryKey: ['events'] });
      onClose();
    },
  });
  const failed = details.error ?? types.error ?? questions.error;
  if (failed) return <ErrorBlock error={failed} />;
  if (!details.data || !types.data || !questions.data) return <LoadingBlock />;
  const open = details.data.filter((d) => d.Status !== 'cancelled');
  const chosenDetail = detail ?? (open.length === 1 ? String(open[0]?.EventDetailId) : null);
  const chosenType = type ?? (types.data.length === 1 ? String(types.data[0]?.RegistrationTypeId) : null);
  const ContactInput = FIELD_REGISTRY.lookup.Input;
  const err = (name: string) => (isApiError(register.error) ? register.error.fieldError(name) : undefined);
  return (
    <form
      onSubmit={(e) => {
        e.preventDefault();
        register.mutate({
          EventDetailId: Number(chosenDetail),
          ...(contactId !== null && contactId !== undefined ? { ContactId: Number(contactId) } : {}),
          ...(chosenType ? { RegistrationTypeId: Number(chosenType) } : {}),
          ...(questions.data.length > 0 ? { Answers: answers } : {}),
        });
      }}
    >
      <Stack gap="sm">
        <ContactInput
          name="ContactId"
          field={CONTACT}
          value={contactId}
          onChange={setContactId}
          error={err('ContactId')}
          context={context}
        />
        <Select
          label="Occurrence"
          required
          value={chosenDetail}
          onChange={setDetail}
          data={open.map((d) => ({
            value: String(d.EventDetailId),
            label: formatDateTime(String(d.StartsAt), shownZone),
          }))}
        />
        {types.data.length > 0 ? (
          <Select
            label="Registration type"
            value={chosenType}
            onChange={setType}
            error={err('RegistrationTypeId')}
            data={types.data.map((t) => ({ value: String(t.RegistrationTypeId), label: String(t.Name) }))}
          />
        ) : null}
        {questions.data.length > 0 ? (
          <Stack gap={6} component="section" aria-label="Questions">
            <Text size="sm" fw={500}>
              Registration questions
            </Text>
            <Suspense fallback={<LoadingBlock />}>
              <QuestionInputs
                questions={questions.data}
                values={answers}
                onChange={setAnswers}
                error={register.error}
                context={context}
              />
            </Suspense>
          </Stack>
        ) : null}
        {register.error ? (
          <Alert color="red" title="Not registered">
            {register.error instanceof Error ? register.error.message : 'Registering failed.'}
          </Alert>
        ) : null}
        <Group justify="flex-end">
          <Button variant="default" onClick={onClose}>
            Cancel
          </Button>
          <Button type="submit" disabled={!chosenDetail} loading={register.isPending}>
            Register
          </Button>
        </Group>
      </Stack>
    </form>
  );
}

/** The printable attendee list and badges of the event's next occurrence (or its last, once all are past). */
function Printables({ eventId }: { eventId: number }) {
  const answer = useQuery({
    queryKey: ['events', 'getEventId', String(eventId)],
    queryFn: () => eventsApi.getEventId(eventId),
  });
  const detail = answer.data?.EventDetailId;
  if (!detail) return null;
  return (
    <>
      <Button
        component="a"
        href={`/api/events/details/${detail}/attendees.pdf`}
        target="_blank"
        rel="noopener"
        variant="default"
        leftSection={<IconPrinter size={16} />}
      >
        Attendee list
      </Button>
      <Button
        component="a"
        href={`/api/events/details/${detail}/badges.pdf`}
        target="_blank"
        rel="noopener"
        variant="default"
        leftSection={<IconId size={16} />}
      >
        Badges
      </Button>
    </>
  );
}

/** The public page of a published public event (no session needed), to open or share. */
function PublicPageLink({ record }: { record: Row }) {
  const me = useMe();
  const tenantId = me.data?.tenant.id;
  if (!tenantId || record.Status !== 'published' || record.Visibility !== 'public' || !record.HashedEventId)
    return null;
  return (
    <Button
      component="a"
      href={`/events/${tenantId}/${String(record.HashedEventId)}`}
      target="_blank"
      rel="noopener"
      variant="default"
      leftSection={<IconExternalLink size={16} />}
    >
      Public page
    </Button>
  );
}

export default function EventRecordActions({ recordId, record }: RecordActionProps) {
  const [opened, setOpened] = useState(false);
  return (
    <>
      <PublicPageLink record={record} />
      <Printables eventId={Number(recordId)} />
      <Button variant="default" leftSection={<IconUserPlus size={16} />} onClick={() => setOpened(true)}>
        Register…
      </Button>
      <StackedModal
        opened={opened}
        onClose={() => setOpened(false)}
        title="Register for this event"
        size="lg"
      >
        {opened ? <RegisterDialog eventId={Number(recordId)} onClose={() => setOpened(false)} /> : null}
      </StackedModal>
    </>
  );
}
