/** A figure on a summary: its label, the value large, and an optional hint below (a tab's or a page's totals). */
import { Paper, Text, Title } from '@mantine/core';
import type { ReactNode } from 'react';

export function Figure({
  label,
  value,
  hint,
}: {
  label: string;
  value: ReactNode;
  hint?: string | undefined;
}) {
  return (
    <Paper withBorder p="sm">
      <Text size="sm" c="dimmed">
        {label}
      </Text>
      <Title order={3}>{value}</Title>
      {hint ? (
        <Text size="xs" c="dimmed">
          {hint}
        </Text>
      ) : null}
    </Paper>
  );
}
