import { Alert, Anchor, Button, Stack, Text, TextInput, Title } from '@mantine/core';
import { IconMailCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link } from 'react-router';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { usePageTitle } from '../../platform/page-title.ts';

/** The same words whether or not the account exists, so that the page reveals nothing. */
export const FORGOT_PASSWORD_CONFIRMATION =
  'If an account matches what you entered, we have sent an email with a link to choose a new password. The link works once and expires soon. Check your spam folder if it does not arrive within a few minutes.';

export function ForgotPasswordPage() {
  usePageTitle('Forgot your password?');
  const [value, setValue] = useState('');
  const [fieldError, setFieldError] = useState<string | undefined>();
  const request = useMutation({
    mutationFn: (usernameOrEmail: string) =>
      api.post<{ message: string }>(
        '/api/auth/forgot-password',
        { usernameOrEmail },
        { expectUnauthorized: true },
      ),
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const trimmed = value.trim();
    if (!trimmed) {
      setFieldError('Enter your username or email address.');
      return;
    }
    setFieldError(undefined);
    request.mutate(trimmed);
  };

  // Whatever the server knows, a request it accepted (or refused for a client reason) shows the same confirmation.
  const done =
    request.isSuccess ||
    (isApiError(request.error) && request.error.status < 500 && request.error.status >= 400);

  if (done) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          Check your email
        </Title>
        <Alert color="green" variant="light" icon={<IconMailCheck aria-hidden />} role="status">
          {FORGOT_PASSWORD_CONFIRMATION}
        </Alert>
        <Anchor component={Link} to="/sign-in" size="sm">
          Back to sign in
        </Anchor>
      </Stack>
    );
  }

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2" id="forgot-title">
            Forgot your password?
          </Title>
          <Text c="dimmed" size="sm">
            Enter your username or the email address of your account. We will email you a link to choose a new
            password.
          </Text>
        </div>
        {request.error ? <ErrorBlock error={request.error} /> : null}
        <TextInput
          label="Username or email"
          autoComplete="username"
          autoCapitalize="none"
          spellCheck={false}
          required
          value={value}
          error={fieldError}
          onChange={(e) => setValue(e.currentTarget.value)}
          autoFocus
        />
        <Button type="submit" fullWidth loading={request.isPending}>
          Send the link
        </Button>
        <Anchor component={Link} to="/sign-in" size="sm" ta="center">
          Back to sign in
        </Anchor>
      </Stack>
    </form>
  );
}
