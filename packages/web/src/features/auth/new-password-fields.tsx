import { passwordSchema } from '@guildhall/shared';
import { Stack, Text } from '@mantine/core';
import { PasswordField } from './password-field.tsx';

export interface NewPasswordValue {
  password: string;
  confirm: string;
}

/** Client-side check of a new password against the shared policy; undefined when fine. */
export function validateNewPassword(value: NewPasswordValue): { password?: string; confirm?: string } {
  const errors: { password?: string; confirm?: string } = {};
  const parsed = passwordSchema.safeParse(value.password);
  if (!parsed.success) errors.password = parsed.error.issues[0]?.message ?? 'Choose another password.';
  else if (value.confirm !== value.password) errors.confirm = 'The two passwords differ.';
  return errors;
}

/** "New password" and "Confirm password", with the policy spelled out. */
export function NewPasswordFields({
  value,
  onChange,
  errors,
  autoFocus,
}: {
  value: NewPasswordValue;
  onChange: (next: NewPasswordValue) => void;
  errors: { password?: string | undefined; confirm?: string | undefined };
  autoFocus?: boolean;
}) {
  return (
    <Stack gap="md">
      <PasswordField
        label="New password"
        description="At least 10 characters. A short sentence is easy to remember and hard to guess."
        autoComplete="new-password"
        required
        value={value.password}
        error={errors.password}
        onChange={(e) => onChange({ ...value, password: e.currentTarget.value })}
        autoFocus={autoFocus}
      />
      <PasswordField
        label="Confirm password"
        autoComplete="new-password"
        required
        value={value.confirm}
        error={errors.confirm}
        onChange={(e) => onChange({ ...value, confirm: e.currentTarget.value })}
      />
      <Text size="xs" c="dimmed">
        Changing your password signs you out everywhere else.
      </Text>
    </Stack>
  );
}
