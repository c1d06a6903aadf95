import { Box, Center, Paper, Stack, Text } from '@mantine/core';
import { Outlet } from 'react-router';
import { Brand } from '../platform/brand.tsx';

/** Sign-in, forgotten password and reset: a single card, no product chrome. */
export function PublicLayout() {
  return (
    <Box bg="var(--mantine-color-gray-0)" mih="100dvh">
      <Center component="main" mih="100dvh" p="md">
        <Stack w="100%" maw={420} gap="lg">
          <Center>
            <Brand size="lg" />
          </Center>
          <Paper withBorder shadow="sm" p="xl" radius="md">
            <Outlet />
          </Paper>
          <Text ta="center" size="xs" c="dimmed">
            Guildhall, the back office of your association
          </Text>
        </Stack>
      </Center>
    </Box>
  );
}
