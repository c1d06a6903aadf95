import type { Me } from '@guildhall/shared';
import { Button, Group, Stack } from '@mantine/core';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useState } from 'react';
import { api, isApiError } from '../../platform/api-client.ts';
import { ErrorBlock } from '../../platform/error-block.tsx';
import { setMe } from '../../platform/identity.ts';
import { NewPasswordFields, type NewPasswordValue, validateNewPassword } from './new-password-fields.tsx';
import { PasswordField } from './password-field.tsx';

interface Props {
  /** The current password is asked unless a reset is pending (forced change). */
  requireCurrent: boolean;
  submitLabel?: string;
  onChanged: (me: Me) => void;
}

/** POST /api/auth/change-password; the answer is the new identity (the session was replaced). */
export function ChangePasswordForm({ requireCurrent, submitLabel = 'Change password', onChanged }: Props) {
  const queryClient = useQueryClient();
  const [current, setCurrent] = useState('');
  const [value, setValue] = useState<NewPasswordValue>({ password: '', confirm: '' });
  const [errors, setErrors] = useState<{ current?: string; password?: string; confirm?: string }>({});
  const change = useMutation({
    mutationFn: () =>
      api.post<Me>('/api/auth/change-password', {
        ...(requireCurrent ? { currentPassword: current } : {}),
        newPassword: value.password,
      }),
    onSuccess: (me) => {
      setMe(queryClient, me);
      onChanged(me);
    },
  });

  const serverError = isApiError(change.error) ? change.error : null;
  const currentError = errors.current ?? serverError?.fieldError('currentPassword');
  const newError = errors.password ?? serverError?.fieldError('newPassword');

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found: { current?: string; password?: string; confirm?: string } = validateNewPassword(value);
    if (requireCurrent && !current) found.current = 'Enter your current password.';
    setErrors(found);
    if (found.current || found.password || found.confirm) return;
    change.mutate();
  };

  return (
    <form onSubmit={submit} noValidate>
      <Stack gap="md" maw={420}>
        {change.error && !serverError?.fieldError('currentPassword', 'newPassword') ? (
          <ErrorBlock error={change.error} title="Your password was not changed" />
        ) : null}
        {requireCurrent ? (
          <PasswordField
            label="Current password"
            autoComplete="current-password"
            required
            value={current}
            error={currentError}
            onChange={(e) => setCurrent(e.currentTarget.value)}
          />
        ) : null}
        <NewPasswordFields
          value={value}
          onChange={setValue}
          errors={{ password: newError, confirm: errors.confirm }}
          autoFocus={!requireCurrent}
        />
        <Group>
          <Button type="submit" loading={change.isPending}>
            {submitLabel}
          </Button>
        </Group>
      </Stack>
    </form>
  );
}
