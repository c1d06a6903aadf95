import { Group, Text, ThemeIcon } from '@mantine/core';
import { IconBuildingCommunity } from '@tabler/icons-react';

/** The product's mark with the association's name, in the shells' header and above the sign-in forms. */
export function Brand({ name, size = 'md' }: { name?: string; size?: 'md' | 'lg' }) {
  return (
    <Group gap="xs" wrap="nowrap" style={{ minWidth: 0 }}>
      <ThemeIcon size={size === 'lg' ? 40 : 32} radius="md" aria-hidden>
        <IconBuildingCommunity size={size === 'lg' ? 24 : 20} />
      </ThemeIcon>
      <div style={{ minWidth: 0 }}>
        <Text fw={700} size={size === 'lg' ? 'xl' : 'md'} lh={1.1} truncate="end">
          {name ?? 'Guildhall'}
        </Text>
        {name ? (
          <Text size="xs" c="dimmed" lh={1.1}>
            Guildhall
          </Text>
        ) : null}
      </div>
    </Group>
  );
}
