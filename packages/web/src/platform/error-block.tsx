import { Alert, Button, Group, Text } from '@mantine/core';
import { IconAlertTriangle } from '@tabler/icons-react';
import type { Ref } from 'react';
import { GENERIC_ERROR_MESSAGE, isApiError } from './api-client.ts';

export interface ErrorInfo {
  /** What went wrong, as the server or the screen explained it. */
  message: string;
  /** Whether `message` is meant for the user; unknown errors show a generic message instead. */
  isKnown: boolean;
}

/** Turns anything thrown into what the error block shows. */
export function toErrorInfo(error: unknown): ErrorInfo {
  if (isApiError(error)) {
    const joined = error.joinedErrors();
    if (error.isKnown) return { message: joined || error.message, isKnown: true };
    return { message: error.message, isKnown: false };
  }
  return { message: error instanceof Error ? error.message : String(error), isKnown: false };
}

export interface ErrorBlockProps {
  error?: unknown;
  message?: string;
  isKnown?: boolean;
  title?: string;
  onRetry?: () => void;
  retryLabel?: string;
  ref?: Ref<HTMLDivElement>;
}

/**
 * The error block of spec 000 section 8: a message and whether it is known. Unknown errors never show
 * their raw text (no stack traces, no internals) but a generic message.
 */
export function ErrorBlock({
  error,
  message,
  isKnown,
  title = 'Oh no :(',
  onRetry,
  retryLabel = 'Try again',
  ref,
}: ErrorBlockProps) {
  const info: ErrorInfo =
    message !== undefined ? { message, isKnown: isKnown ?? true } : toErrorInfo(error ?? 'Unknown error');
  const text = info.isKnown ? info.message : GENERIC_ERROR_MESSAGE;
  return (
    <Alert
      ref={ref}
      role="alert"
      color="red"
      variant="light"
      title={title}
      icon={<IconAlertTriangle aria-hidden />}
      tabIndex={-1}
      data-error-block
      data-known={info.isKnown ? 'true' : 'false'}
    >
      <Text size="sm">{text}</Text>
      {onRetry ? (
        <Group mt="sm">
          <Button size="xs" variant="white" color="red" onClick={onRetry}>
            {retryLabel}
          </Button>
        </Group>
      ) : null}
    </Alert>
  );
}
