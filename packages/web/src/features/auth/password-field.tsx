import { PasswordInput, type PasswordInputProps } from '@mantine/core';

/**
 * PasswordInput whose show/hide toggle is named without the word "password", so that the field's own
 * label ("Password", "New password") is the only accessible name that mentions it.
 */
export function PasswordField(props: PasswordInputProps) {
  return <PasswordInput visibilityToggleButtonProps={{ 'aria-label': 'Show characters' }} {...props} />;
}
