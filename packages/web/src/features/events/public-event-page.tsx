import type { EventPage, RegisterAnswer } from '@guildhall/shared';
import { Alert, Anchor, Button, Stack, Text, TextInput, Title, Typography } from '@mantine/core';
import { useQuery } from '@tanstack/react-query';
import DOMPurify from 'dompurify';
import { type FormEvent, useState } from 'react';
import { Link, useParams } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { FullPageLoader } from '../../platform/full-page-loader.tsx';
import { usePageTitle } from '../../platform/page-title.ts';
import { OccurrencePicker } from './occurrence-picker.tsx';

/**
 * `/events/:tenantId/:hash`: a published public event's page for anyone, without a session (the address of
 * `GET /api/events/public/:tenantId/:hash`, by the event's hashed id). The event's image, its description, its
 * occurrences in the event's own time zone (named), and registration without an account (name and email: the
 * server matches or creates the contact), or signing in for a member.
 */
export function PublicEventPage() {
  const { tenantId = '', hash = '' } = useParams();
  const base = `/api/events/public/${encodeURIComponent(tenantId)}/${encodeURIComponent(hash)}`;
  const event = useQuery({
    queryKey: ['events', 'public', tenantId, hash],
    queryFn: ({ signal }) => api.get<EventPage>(base, { signal, expectUnauthorized: true }),
    retry: false,
  });
  usePageTitle(event.data?.Name ?? 'Event');
  const [detail, setDetail] = useState<string | null>(null);
  const [person, setPerson] = useState({ FirstName: '', LastName: '', Email: '' });
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<unknown>(null);
  const [done, setDone] = useState<RegisterAnswer | null>(null);
  if (event.error) return <ErrorBlock error={event.error} />;
  if (!event.data) return <FullPageLoader />;
  const e = event.data;
  const open = e.Occurrences.filter((o) => o.Status !== 'cancelled' && Date.parse(o.StartsAt) > Date.now());
  const chosen = detail ?? (open.length === 1 ? String(open[0]?.EventDetailId) : null);
  const chosenType = e.RegistrationTypes.length === 1 ? e.RegistrationTypes[0] : undefined;
  async function submit(ev: FormEvent) {
    ev.preventDefault();
    if (!chosen) return;
    setBusy(true);
    setError(null);
    try {
      setDone(
        await api.post<RegisterAnswer>(
          `${base}/register`,
          {
            EventDetailId: Number(chosen),
            ...(chosenType ? { RegistrationTypeId: chosenType.RegistrationTypeId } : {}),
            ...person,
          },
          { expectUnauthorized: true },
        ),
      );
    } catch (err) {
      setError(err);
    } finally {
      setBusy(false);
    }
  }
  return (
    <Stack gap="md" component="article" aria-label={e.Name}>
      {e.Image ? (
        <img
          src={e.Image.Url}
          alt={e.Name}
          data-testid="event-image"
          style={{ display: 'block', maxWidth: '100%', maxHeight: 240, borderRadius: 8, objectFit: 'cover' }}
        />
      ) : null}
      <Title order={2}>{e.Name}</Title>
      {e.Category || e.Location ? (
        <Text c="dimmed" size="sm">
          {[e.Category, e.Location].filter(Boolean).join(' · ')}
        </Text>
      ) : null}
      {e.Description ? (
        <Typography>
          {/* biome-ignore lint/security/noDangerouslySetInnerHtml: sanitized with DOMPurify */}
          <div dangerouslySetInnerHTML={{ __html: DOMPurify.sanitize(e.Description) }} />
        </Typography>
      ) : null}
      {done ? (
        <Alert color={done.outcome === 'waitlisted' ? 'orange' : 'green'} data-testid="register-result">
          {done.message}
        </Alert>
      ) : (
        <form onSubmit={submit} aria-label="Register">
          <Stack gap="sm">
            <OccurrencePicker event={e} value={chosen} onChange={setDetail} />
            {!e.RegistrationOpen ? (
              <Alert color="gray">Registration is closed.</Alert>
            ) : e.RegistrationTypes.length > 1 || e.Questions.length > 0 ? (
              <Text size="sm">Sign in to register: this event asks members to choose or answer more.</Text>
            ) : (
              <>
                <TextInput
                  label="First name"
                  required
                  value={person.FirstName}
                  onChange={(x) => setPerson({ ...person, FirstName: x.currentTarget.value })}
                />
                <TextInput
                  label="Last name"
                  required
                  value={person.LastName}
                  onChange={(x) => setPerson({ ...person, LastName: x.currentTarget.value })}
                />
                <TextInput
                  label="Email"
                  type="email"
                  required
                  value={person.Email}
                  onChange={(x) => setPerson({ ...person, Email: x.currentTarget.value })}
                />
                {error ? <ErrorBlock error={error} /> : null}
                <Button type="submit" loading={busy} disabled={!chosen}>
                  Register
                </Button>
              </>
            )}
            <Text size="sm">
              A member?{' '}
              <Anchor
                component={Link}
                to={`/sign-in?next=${encodeURIComponent(`/m/events/${e.HashedEventId}`)}`}
              >
                Sign in
              </Anchor>{' '}
              to register from your account.
            </Text>
          </Stack>
        </form>
      )}
    </Stack>
  );
}
