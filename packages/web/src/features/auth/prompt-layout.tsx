import { Anchor, Box, Center, Group, Paper, Stack, Text } from '@mantine/core';
import { useQueryClient } from '@tanstack/react-query';
import { Outlet } from 'react-router';
import { Brand } from '../../platform/brand.tsx';
import { signOut, useIdentity } from '../../platform/identity.ts';

/** The security prompts after sign-in: one card, who is signed in, a way out. */
export function PromptLayout() {
  const me = useIdentity();
  const queryClient = useQueryClient();
  return (
    <Box bg="var(--mantine-color-gray-0)" mih="100dvh">
      <Center component="main" id="main-content" mih="100dvh" p="md">
        <Stack w="100%" maw={460} gap="lg">
          <Center>
            <Brand name={me.tenant.name} size="lg" />
          </Center>
          <Paper withBorder shadow="sm" p="xl" radius="md">
            <Outlet />
          </Paper>
          <Group justify="center" gap="xs">
            <Text size="sm" c="dimmed">
              Signed in as {me.user.username}.
            </Text>
            <Anchor component="button" type="button" size="sm" onClick={() => void signOut(queryClient)}>
              Sign out
            </Anchor>
          </Group>
        </Stack>
      </Center>
    </Box>
  );
}
