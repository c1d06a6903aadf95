import { weakPasswordReason } from '@guildhall/shared';
import {
  Alert,
  Anchor,
  Button,
  Loader,
  PasswordInput,
  Select,
  Stack,
  Stepper,
  Text,
  TextInput,
  Title,
} from '@mantine/core';
import { IconAlertTriangle, IconCircleCheck } from '@tabler/icons-react';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { usePageTitle } from '../../platform/page-title.ts';

/** The wizard's steps (spec 001 section 2): 0 the form, 1 creating, 2 success with the url, 3 failure. */
export type SetupStep = 0 | 1 | 2 | 3;

/** The starting step: forceStep (0 to 3) overrides it; then the form is not sent. */
export function startingStep(forceStep: string | null): { step: SetupStep; forced: boolean } {
  if (forceStep !== null && /^[0-3]$/.test(forceStep))
    return { step: Number(forceStep) as SetupStep, forced: true };
  return { step: 0, forced: false };
}

interface UsernameCheck {
  Data: { Valid: boolean; ErrorMessages: string[]; PasswordResetUrl: string | null; LoginUrl: string | null };
}

const MEMBER_COUNTS = ['Fewer than 100', '100 to 500', '500 to 2,000', 'More than 2,000'];

function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** The account setup wizard, opened from the mailed link (spec 001 sections 2 to 5). */
export function SetupWizardPage() {
  usePageTitle('Set up your association');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const start = startingStep(params.get('forceStep'));
  const [step, setStep] = useState<SetupStep>(start.step);
  const [url, setUrl] = useState<string | null>(null);
  const [failure, setFailure] = useState<string | null>(null);
  const [linkValid, setLinkValid] = useState<boolean | null>(start.forced ? true : null);

  const [associationName, setAssociationName] = useState('');
  const [name, setName] = useState('');
  const [email, setEmail] = useState('');
  const [username, setUsername] = useState('');
  const [password, setPassword] = useState('');
  const [members, setMembers] = useState<string | null>(null);
  const [errors, setErrors] = useState<Record<string, string | undefined>>({});
  const [usernameCheck, setUsernameCheck] = useState<UsernameCheck['Data'] | null>(null);
  const [parsedName, setParsedName] = useState<{ FirstName: string; LastName: string } | null>(null);

  // The link's address and name fill the form (not when a step is forced: then nothing is sent).
  useEffect(() => {
    if (start.forced) return;
    if (!token) {
      setLinkValid(false);
      return;
    }
    api
      .get<{ Data: { Valid: boolean; Email: string | null; Name: string | null } }>(
        `/api/signup/links/${encodeURIComponent(token)}`,
        { expectUnauthorized: true },
      )
      .then((r) => {
        setLinkValid(r.Data.Valid);
        if (r.Data.Email) setEmail(r.Data.Email);
        if (r.Data.Name) setName(r.Data.Name);
        if (r.Data.Email) setUsername(r.Data.Email.split('@')[0]?.replace(/[^A-Za-z0-9._-]/g, '') ?? '');
      })
      .catch(() => setLinkValid(false));
  }, [token, start.forced]);

  // Username availability: checked on load and on change (spec 001 section 5), a moment after typing stops.
  const checking = useRef(0);
  useEffect(() => {
    if (start.forced || !username.trim()) {
      setUsernameCheck(null);
      return;
    }
    const id = ++checking.current;
    const timer = setTimeout(() => {
      api
        .get<UsernameCheck>(`/api/Signup/ValidateUsername/${encodeURIComponent(username.trim())}`, {
          expectUnauthorized: true,
        })
        .then((r) => {
          if (id === checking.current) setUsernameCheck(r.Data);
        })
        .catch(() => undefined);
    }, 250);
    return () => clearTimeout(timer);
  }, [username, start.forced]);

  const checkName = async (value: string) => {
    if (!value.trim()) {
      setParsedName(null);
      return;
    }
    try {
      const r = await api.get<{
        Data: { Name: { FirstName: string; LastName: string }; Valid: boolean; ErrorMessages: string[] };
      }>(`/api/Signup/ParseName/${encodeURIComponent(value.trim())}`, { expectUnauthorized: true });
      setParsedName(r.Data.Valid ? r.Data.Name : null);
      setErrors((e) => ({ ...e, Name: r.Data.Valid ? undefined : r.Data.ErrorMessages[0] }));
    } catch {
      setParsedName(null);
    }
  };

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    if (start.forced) return;
    const next: Record<string, string | undefined> = {};
    if (associationName.trim().length < 2) next.AssociationName = 'Enter the name of your association.';
    if (!name.trim()) next.Name = 'Enter your first and last name.';
    else if (errors.Name) next.Name = errors.Name;
    if (!email.trim()) next.Email = 'Enter your email address.';
    if (usernameCheck && !usernameCheck.Valid) next.NewUsername = usernameCheck.ErrorMessages[0];
    if (password.length < 10) next.NewPassword = 'A password has at least 10 characters.';
    else {
      const weak = weakPasswordReason(password, [username, email, ...name.split(/\s+/)]);
      if (weak) next.NewPassword = weak;
    }
    const shown = Object.fromEntries(Object.entries(next).filter(([, v]) => v));
    setErrors(shown);
    if (Object.keys(shown).length > 0) return;
    setStep(1);
    try {
      const answer = await api.post<{ Data: { success: boolean; url: string | null } }>(
        '/api/Signup/CompleteSignup',
        {
          Token: token,
          AssociationName: associationName.trim(),
          Name: name.trim(),
          Email: email.trim(),
          NewUsername: username.trim(),
          NewPassword: password,
          CustomFields: members ? [{ Name: 'Members', Value: members }] : [],
          TrialKey: params.get('trial'),
          browserTimeZone: browserTimeZone(),
        },
        { expectUnauthorized: true },
      );
      if (answer.Data.success) {
        setUrl(answer.Data.url);
        setStep(2);
      } else setStep(3);
    } catch (error) {
      // Spec 001 section 8: setup errors are logged and the wizard moves to step 3, which says what went wrong.
      console.error('Account setup failed', error);
      if (isApiError(error) && error.status === 400 && Object.keys(error.errors).length > 0) {
        setFailure(error.joinedErrors());
      } else setFailure(isApiError(error) && error.isKnown ? error.message : null);
      setStep(3);
    }
  };

  return (
    <Stack gap="md">
      <Title order={1} size="h2">
        Set up your association
      </Title>
      <Stepper active={step === 3 ? 2 : step} size="xs" allowNextStepsSelect={false}>
        <Stepper.Step label="Your details" />
        <Stepper.Step label="Creating" />
        <Stepper.Step label="Ready" color={step === 3 ? 'red' : undefined} />
      </Stepper>
      {step === 0 && linkValid === null ? <Loader size="sm" aria-label="Checking your link" /> : null}
      {step === 0 && linkValid === false ? (
        <Alert color="red" variant="light" role="alert" icon={<IconAlertTriangle aria-hidden />}>
          This sign-up link is invalid, has expired or was already used.{' '}
          <Anchor component={Link} to="/signup">
            Start again
          </Anchor>
          .
        </Alert>
      ) : null}
      {step === 0 && linkValid ? (
        <form onSubmit={submit} noValidate aria-label="Your association">
          <Stack gap="sm">
            <TextInput
              label="Association name"
              required
              value={associationName}
              error={errors.AssociationName}
              onChange={(e) => setAssociationName(e.currentTarget.value)}
              autoFocus
            />
            <TextInput
              label="Your name"
              description={
                parsedName
                  ? `First name ${parsedName.FirstName}, last name ${parsedName.LastName}`
                  : 'First and last name'
              }
              autoComplete="name"
              required
              value={name}
              error={errors.Name}
              onChange={(e) => setName(e.currentTarget.value)}
              onBlur={(e) => void checkName(e.currentTarget.value)}
            />
            <TextInput
              label="Email"
              type="email"
              autoComplete="email"
              required
              value={email}
              error={errors.Email}
              onChange={(e) => setEmail(e.currentTarget.value)}
            />
            <TextInput
              label="Username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={username}
              error={
                errors.NewUsername ??
                (usernameCheck && !usernameCheck.Valid ? (
                  <span>
                    {usernameCheck.ErrorMessages[0]}{' '}
                    {usernameCheck.LoginUrl ? <Anchor href={usernameCheck.LoginUrl}>Sign in</Anchor> : null}
                    {usernameCheck.PasswordResetUrl ? (
                      <>
                        {' or '}
                        <Anchor href={usernameCheck.PasswordResetUrl}>reset the password</Anchor>
                      </>
                    ) : null}
                  </span>
                ) : undefined)
              }
              description={usernameCheck?.Valid ? 'This username is free.' : undefined}
              onChange={(e) => setUsername(e.currentTarget.value)}
            />
            <PasswordInput
              label="Password"
              description="At least 10 characters; not your name, email or username."
              autoComplete="new-password"
              required
              value={password}
              error={errors.NewPassword}
              onChange={(e) => setPassword(e.currentTarget.value)}
            />
            <Select
              label="How many members does your association have?"
              data={MEMBER_COUNTS}
              value={members}
              onChange={setMembers}
              clearable
            />
            <Text size="xs" c="dimmed">
              By creating your association you accept the terms of use for staff. Your trial lasts 30 days;
              nothing is deleted when it ends.
            </Text>
            <Button type="submit" fullWidth>
              Create my association
            </Button>
          </Stack>
        </form>
      ) : null}
      {step === 1 ? (
        <Stack align="center" gap="xs" role="status">
          <Loader />
          <Text>Creating your association…</Text>
        </Stack>
      ) : null}
      {step === 2 ? (
        <Stack gap="sm">
          <Alert
            color="green"
            variant="light"
            role="status"
            icon={<IconCircleCheck aria-hidden />}
            title="Your association is ready"
          >
            You are signed in as its administrator.
          </Alert>
          <Button component="a" href={url ?? '/a'} fullWidth>
            Open your back office
          </Button>
          {url ? (
            <Text size="xs" c="dimmed" ta="center">
              {url}
            </Text>
          ) : null}
        </Stack>
      ) : null}
      {step === 3 ? (
        <Stack gap="sm">
          <Alert
            color="red"
            variant="light"
            role="alert"
            icon={<IconAlertTriangle aria-hidden />}
            title="We could not create your association"
          >
            {failure ?? 'Something went wrong on our side. Try again in a moment.'}
          </Alert>
          {start.forced ? null : (
            <Button variant="default" onClick={() => setStep(0)} fullWidth>
              Back to the form
            </Button>
          )}
        </Stack>
      ) : null}
    </Stack>
  );
}
