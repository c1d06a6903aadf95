import { Button, Container, Stack, Title } from '@mantine/core';
import { isRouteErrorResponse, useRouteError } from 'react-router';
import { ErrorBlock } from './error-block.tsx';
import { NotFoundPage } from './not-found.tsx';

function isStaleChunkError(error: unknown): boolean {
  if (!(error instanceof Error)) return false;
  return /dynamically imported module|Importing a module script failed|error loading dynamically/i.test(
    error.message,
  );
}

/** errorElement of every route: the error block in place of the screen, never a blank page. */
export function RouteError() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundPage />;
  if (isStaleChunkError(error)) return <ChunkLoadError />;
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h3">
          This screen could not be shown
        </Title>
        <ErrorBlock error={error} retryLabel="Reload" onRetry={() => window.location.reload()} />
        <div>
          <Button component="a" href="/" variant="default">
            Go to the start page
          </Button>
        </div>
      </Stack>
    </Container>
  );
}

/** A screen's code could not be loaded: usually a newer version was deployed since the page was opened. */
export function ChunkLoadError() {
  return (
    <Container size="sm" py="xl">
      <Stack>
        <Title order={1} size="h3">
          This screen could not be loaded
        </Title>
        <ErrorBlock
          title="Reload needed"
          message="Guildhall may have been updated since you opened it, or the connection dropped. Reload the page to continue."
          isKnown
          retryLabel="Reload"
          onRetry={() => window.location.reload()}
        />
      </Stack>
    </Container>
  );
}
