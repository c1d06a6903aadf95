import { Center, Loader } from '@mantine/core';

/** The whole page waits (the app's first load, the account being read, sign-in redirecting). */
export function FullPageLoader({ label = 'Loading' }: { label?: string }) {
  return (
    <Center h="100dvh" role="status" aria-live="polite">
      <Loader aria-label={label} />
    </Center>
  );
}
