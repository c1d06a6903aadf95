import { Button, Container, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from 'react-router';
import { usePageTitle } from './page-title.ts';

/** The not-found page: any address the app does not know. */
export function NotFoundPage({ standalone = false }: { standalone?: boolean }) {
  usePageTitle('Page not found');
  return (
    <Container
      size="sm"
      py={64}
      component={standalone ? 'main' : 'div'}
      id={standalone ? 'main-content' : undefined}
    >
      <Stack gap="md">
        <Text c="dimmed" fw={700} size="sm">
          404
        </Text>
        <Title order={1}>We could not find that page</Title>
        <Text>
          The address may be mistyped, or the page may have moved. Check the address or start again.
        </Text>
        <Group>
          <Button component={Link} to="/">
            Go to the start page
          </Button>
          <Button variant="default" onClick={() => window.history.back()}>
            Go back
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
