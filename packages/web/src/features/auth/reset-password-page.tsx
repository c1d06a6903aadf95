import { Alert, Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { IconCircleCheck } from '@tabler/icons-react';
import { useMutation } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { Link, useSearchParams } from 'react-router';
import { api } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { usePageTitle } from '../../platform/page-title.ts';
import { NewPasswordFields, type NewPasswordValue, validateNewPassword } from './new-password-fields.tsx';

const INVALID_LINK = 'This reset link is invalid or has expired.';

/** `/reset-password?token=…`: choose a new password with the single-use token from the email. */
export function ResetPasswordPage() {
  usePageTitle('Choose a new password');
  const [params] = useSearchParams();
  const token = params.get('token') ?? '';
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<{ password?: string; confirm?: string }>({});
  const reset = useMutation({
    mutationFn: () =>
      api.post<{ message: string }>(
        '/api/auth/reset-password',
        { token, newPassword: value.password },
        { expectUnauthorized: true },
      ),
  });

  if (token.length < 16) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          Choose a new password
        </Title>
        <ErrorBlock title="This link does not work" message={INVALID_LINK} isKnown />
        <Anchor component={Link} to="/forgot-password" size="sm">
          Ask for a new link
        </Anchor>
      </Stack>
    );
  }

  if (reset.isSuccess) {
    return (
      <Stack gap="md">
        <Title order={1} size="h2">
          Password changed
        </Title>
        <Alert color="green" variant="light" icon={<IconCircleCheck aria-hidden />} role="status">
          {reset.data?.message || 'Your password has been changed. Sign in with your new password.'}
        </Alert>
        <Button component={Link} to="/sign-in">
          Sign in
        </Button>
      </Stack>
    );
  }

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateNewPassword(value);
    setErrors(found);
    if (found.password || found.confirm) return;
    reset.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md">
        <div>
          <Title order={1} size="h2" id="reset-title">
            Choose a new password
          </Title>
          <Text c="dimmed" size="sm">
            Pick a password you do not use anywhere else.
          </Text>
        </div>
        {reset.error ? (
          <Stack gap="xs">
            <ErrorBlock error={reset.error} />
            <Anchor component={Link} to="/forgot-password" size="sm">
              Ask for a new link
            </Anchor>
          </Stack>
        ) : null}
        <NewPasswordFields value={value} onChange={setValue} errors={errors} autoFocus />
        <Button type="submit" fullWidth loading={reset.isPending}>
          Save the new password
        </Button>
      </Stack>
    </form>
  );
}
