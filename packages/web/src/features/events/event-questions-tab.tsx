/**
 * The event record's Registration questions tab: the questions asked when someone registers for this event
 * (custom fields of its attendees, scoped to the event), defined with the custom fields' own editor.
 */
import { Stack, Text } from '@mantine/core';
import { Suspense } from 'react';
import type { RecordActionProps } from '../../platform/modules/web-module.ts';
import { LoadingBlock } from '../../platform/page.tsx';
import { ScopedFields } from '../custom-fields/index.ts';

export default function EventQuestionsTab({ recordId }: RecordActionProps) {
  return (
    <Stack gap="sm">
      <Text size="sm" c="dimmed">
        Asked of each attendee when registering, in the back office and (when members may edit them) in the
        member area and on the public page. The answers show on the attendee and as columns of the attendee
        list.
      </Text>
      <Suspense fallback={<LoadingBlock />}>
        <ScopedFields entity="EventRegistration" scopeId={Number(recordId)} noun="question" />
      </Suspense>
    </Stack>
  );
}
