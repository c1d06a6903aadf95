import {
  INVITABLE_ROLE_LABELS,
  type InvitationInfo,
  passwordSchema,
  usernameSchema,
} from '@guildhall/shared';
import { Alert, Anchor, Button, PasswordInput, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation, useQuery } from '@tanstack/react-query';
import { type FormEvent, useEffect, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { FullPageLoader } from '../../platform/full-page-loader.tsx';
import { usePageTitle } from '../../platform/page-title.ts';

const INVALID = 'This invitation link is invalid, has expired or was already used. Ask for a new one.';

const FIELDS = ['NewUsername', 'DisplayName', 'NewPassword', 'Confirm', 'Username', 'Password'] as const;
function hasFieldError(error: unknown): boolean {
  return isApiError(error) && FIELDS.some((k) => error.fieldError(k));
}

type Errors = Partial<Record<(typeof FIELDS)[number], string>>;

/**
 * `/invitation?token=…`: a colleague invited by email accepts. A new person chooses a username, their name and a
 * password; a person with an account (of another association) signs in with it and the association is added.
 */
export function AcceptInvitationPage() {
  usePageTitle('Accept the invitation');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const info = useQuery({
    queryKey: ['invitation', token],
    queryFn: () =>
      api.get<InvitationInfo>(`/api/users/invitations/by-token/${encodeURIComponent(token)}`, {
        expectUnauthorized: true,
      }),
    enabled: token.length >= 16,
    retry: false,
  });
  const [mode, setMode] = useState<'new' | 'existing'>('new');
  const [form, setForm] = useState({
    NewUsername: '',
    DisplayName: '',
    NewPassword: '',
    Confirm: '',
    Username: '',
    Password: '',
  });
  const [errors, setErrors] = useState<Errors>({});
  useEffect(() => {
    if (!info.data?.Valid) return;
    setMode(info.data.HasAccount ? 'existing' : 'new');
    setForm((f) => ({ ...f, DisplayName: f.DisplayName || info.data.DisplayName || '' }));
  }, [info.data]);

  const accept = useMutation({
    mutationFn: (body: Record<string, string>) =>
      api.post<{ message: string }>('/api/users/invitations/accept', body, { expectUnauthorized: true }),
    onError: (error) => {
      if (!isApiError(error)) return;
      const next: Errors = {};
      for (const key of FIELDS) {
        const message = error.fieldError(key);
        if (message) next[key] = message;
      }
      setErrors(next);
    },
  });

  const heading = (
    <Title order={1} size="h2">
      Accept the invitation
    </Title>
  );
  if (token.length < 16 || (info.data && !info.data.Valid)) {
    return (
      <Stack gap="md">
        {heading}
        <ErrorBlock title="This link does not work" message={INVALID} isKnown />
        <Anchor component={Link} to="/sign-in" size="sm">
          Go to sign-in
        </Anchor>
      </Stack>
    );
  }
  if (info.isPending) return <FullPageLoader />;
  if (info.isError)
    return (
      <Stack gap="md">
        {heading}
        <ErrorBlock error={info.error} onRetry={() => void info.refetch()} />
      </Stack>
    );
  const invitation = info.data;

  if (accept.isSuccess) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          You are in
        </Title>
        <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
          {accept.data.message}
        </Alert>
        <Button component={Link} to="/sign-in">
          Sign in
        </Button>
      </Stack>
    );
  }

  const set = (key: keyof typeof form) => (e: React.ChangeEvent<HTMLInputElement>) =>
    setForm({ ...form, [key]: e.currentTarget.value });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: Errors = {};
    if (mode === 'new') {
      const u = usernameSchema.safeParse(form.NewUsername);
      if (!u.success) found.NewUsername = u.error.issues[0]?.message;
      if (!form.DisplayName.trim()) found.DisplayName = 'Enter your name.';
      const p = passwordSchema.safeParse(form.NewPassword);
      if (!p.success) found.NewPassword = p.error.issues[0]?.message;
      else if (form.Confirm !== form.NewPassword) found.Confirm = 'The two passwords differ.';
    } else {
      if (!form.Username.trim()) found.Username = 'Enter your username.';
      if (!form.Password) found.Password = 'Enter your password.';
    }
    setErrors(found);
    if (Object.values(found).some(Boolean)) return;
    accept.mutate(
      mode === 'new'
        ? {
            Token: token,
            NewUsername: form.NewUsername.trim(),
            DisplayName: form.DisplayName.trim(),
            NewPassword: form.NewPassword,
          }
        : { Token: token, Username: form.Username.trim(), Password: form.Password },
    );
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          {heading}
          <Text c="dimmed" size="sm">
            You are invited to work in <b>{invitation.AssociationName}</b>’s back office as{' '}
            {invitation.Role ? INVITABLE_ROLE_LABELS[invitation.Role].toLowerCase() : 'staff'}. The invitation
            was sent to {invitation.Email}.
          </Text>
        </div>
        {accept.error && !hasFieldError(accept.error) ? <ErrorBlock error={accept.error} /> : null}
        {mode === 'new' ? (
          <>
            <TextInput
              label="Your name"
              autoComplete="name"
              required
              value={form.DisplayName}
              error={errors.DisplayName}
              onChange={set('DisplayName')}
            />
            <TextInput
              label="Username"
              description="You sign in with it. Letters, digits, dots, dashes, underscores and @."
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={form.NewUsername}
              error={errors.NewUsername}
              onChange={set('NewUsername')}
              autoFocus
            />
            <PasswordInput
              label="Password"
              description="At least 10 characters. A short sentence is easy to remember and hard to guess."
              autoComplete="new-password"
              required
              value={form.NewPassword}
              error={errors.NewPassword}
              onChange={set('NewPassword')}
            />
            <PasswordInput
              label="Confirm password"
              autoComplete="new-password"
              required
              value={form.Confirm}
              error={errors.Confirm}
              onChange={set('Confirm')}
            />
            <Button type="submit" fullWidth loading={accept.isPending}>
              Create my account
            </Button>
            <Text size="sm" ta="center">
              Already have a Guildhall account?{' '}
              <Anchor component="button" type="button" onClick={() => setMode('existing')}>
                Sign in with it to join
              </Anchor>
            </Text>
          </>
        ) : (
          <>
            <Text size="sm">
              This address already has a Guildhall account. Sign in with it and {invitation.AssociationName}{' '}
              is added to your associations.
            </Text>
            <TextInput
              label="Username"
              autoComplete="username"
              autoCapitalize="none"
              spellCheck={false}
              required
              value={form.Username}
              error={errors.Username}
              onChange={set('Username')}
              autoFocus
            />
            <PasswordInput
              label="Password"
              autoComplete="current-password"
              required
              value={form.Password}
              error={errors.Password}
              onChange={set('Password')}
            />
            <Button type="submit" fullWidth loading={accept.isPending}>
              Join {invitation.AssociationName}
            </Button>
            <Text size="sm" ta="center">
              <Anchor component="button" type="button" onClick={() => setMode('new')}>
                Create a new account instead
              </Anchor>
            </Text>
          </>
        )}
      </Stack>
    </form>
  );
}
