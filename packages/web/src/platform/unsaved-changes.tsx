import { Button, Group, Modal, Text } from '@mantine/core';
import { useEffect } from 'react';
import { useBlocker } from 'react-router';

/**
 * "Unsaved Changes" (spec 000 section 4): leaving a changed form asks first, inside the app (route
 * change) and outside it (reload, closing the tab).
 */
export function UnsavedChangesPrompt({ when }: { when: boolean }) {
  const blocker = useBlocker(
    ({ currentLocation, nextLocation }) => when && currentLocation.pathname !== nextLocation.pathname,
  );

  useEffect(() => {
    if (!when) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [when]);

  const blocked = blocker.state === 'blocked';
  return (
    <Modal opened={blocked} onClose={() => blocker.reset?.()} title="Unsaved Changes" centered>
      <Text size="sm">You have changes that are not saved. Leave this page and lose them?</Text>
      <Group justify="flex-end" mt="lg">
        <Button variant="default" onClick={() => blocker.reset?.()} data-autofocus>
          Stay on this page
        </Button>
        <Button color="red" onClick={() => blocker.proceed?.()}>
          Leave without saving
        </Button>
      </Group>
    </Modal>
  );
}
