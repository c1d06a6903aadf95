import { Alert, Anchor, Button, Group, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { usePageTitle } from '../../platform/page-title.ts';

/** The invalid-email message of the minimal sign-up (spec 001 section 8: "an invalid-email message"). */
export const INVALID_EMAIL_MESSAGE = 'Enter a valid email address, like jane@example.org.';
export const SIGNUP_SENT_MESSAGE =
  'We have sent you an email with a link to set up your association. The link works once and for 48 hours. Check your spam folder if it does not arrive within a few minutes.';

type Phase = 'form' | 'creating' | 'created';

/**
 * The minimal sign-up (spec 001 sections 2, 4, 5): email and name. The address is validated first
 * (POST /api/utils/email/validate) and only then the form is sent (BeginSignup); "creating" then "created". On an
 * error the button is enabled again and the message shown.
 */
export function SignupPage() {
  usePageTitle('Start your free trial');
  const [params] = useSearchParams();
  const [email, setEmail] = useState('');
  const [firstName, setFirstName] = useState('');
  const [lastName, setLastName] = useState('');
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [failure, setFailure] = useState<string | null>(null);
  const [phase, setPhase] = useState<Phase>('form');

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    const next: Record<string, string | undefined> = {};
    if (!firstName.trim()) next.firstName = 'Enter your first name.';
    if (!lastName.trim()) next.lastName = 'Enter your last name.';
    if (!email.trim()) next.email = INVALID_EMAIL_MESSAGE;
    setErrors(next);
    setFailure(null);
    if (Object.keys(next).length > 0) return;
    setPhase('creating');
    try {
      const check = await api.post<{ Data: { Valid: boolean; ErrorMessages?: string[] } }>(
        '/api/utils/email/validate',
        { emailAddress: email.trim() },
        { expectUnauthorized: true },
      );
      if (!check.Data.Valid) {
        setErrors({ email: check.Data.ErrorMessages?.[0] ?? INVALID_EMAIL_MESSAGE });
        setPhase('form');
        return;
      }
      const answer = await api.post<{ Data: { success: boolean } }>(
        '/api/Signup/BeginSignup',
        {
          Email: email.trim(),
          FirstName: firstName.trim(),
          LastName: lastName.trim(),
          ...(params.get('trial') ? { TrialKey: params.get('trial') } : {}),
        },
        { expectUnauthorized: true },
      );
      if (answer.Data.success) setPhase('created');
      else {
        setFailure('We could not start your trial. Try again in a moment.');
        setPhase('form');
      }
    } catch (error) {
      console.error('Sign-up failed', error);
      if (isApiError(error) && error.fieldError('Email')) setErrors({ email: error.fieldError('Email') });
      else
        setFailure(
          isApiError(error) && error.isKnown
            ? error.message
            : 'We could not start your trial. Try again in a moment.',
        );
      setPhase('form');
    }
  };

  if (phase === 'created') {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          Check your email
        </Title>
        <Alert color="green" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
          {SIGNUP_SENT_MESSAGE}
        </Alert>
        <Anchor component={Link} to="/sign-in" size="sm">
          Already have an account? Sign in
        </Anchor>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2">
            Start your free trial
          </Title>
          <Text c="dimmed" size="sm">
            30 days of the whole back office for your association, no card needed. We will email you a link to
            set it up.
          </Text>
        </div>
        {failure ? (
          <Alert color="red" variant="light" role="alert">
            {failure}
          </Alert>
        ) : null}
        <Group grow align="flex-start">
          <TextInput
            label="First name"
            autoComplete="given-name"
            required
            value={firstName}
            error={errors.firstName}
            onChange={(e) => setFirstName(e.currentTarget.value)}
            autoFocus
          />
          <TextInput
            label="Last name"
            autoComplete="family-name"
            required
            value={lastName}
            error={errors.lastName}
            onChange={(e) => setLastName(e.currentTarget.value)}
          />
        </Group>
        <TextInput
          label="Work email"
          type="email"
          autoComplete="email"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={email}
          error={errors.email}
          onChange={(e) => setEmail(e.currentTarget.value)}
        />
        <Button type="submit" fullWidth loading={phase === 'creating'} disabled={phase === 'creating'}>
          {phase === 'creating' ? 'Creating…' : 'Start my trial'}
        </Button>
        <Anchor component={Link} to="/sign-in" size="sm" ta="center">
          Already have an account? Sign in
        </Anchor>
      </Stack>
    </form>
  );
}
