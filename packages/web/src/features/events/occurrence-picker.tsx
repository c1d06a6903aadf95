import type { EventPage } from '@guildhall/shared';
import { Radio, Stack } from '@mantine/core';
import { when } from './when.ts';

/**
 * The "When" choice of an event's registration, in the event's own time zone (named): past and cancelled occurrences
 * disabled, a full one marked (with its waitlist when open). The member's page also says how many seats are left;
 * the public page does not.
 */
export function OccurrencePicker({
  event,
  value,
  onChange,
  seatsLeft = false,
}: {
  event: EventPage;
  value: string | null;
  onChange: (value: string) => void;
  seatsLeft?: boolean;
}) {
  const note = (o: EventPage['Occurrences'][number]) => {
    if (o.Status === 'cancelled') return ' (cancelled)';
    if (o.seatsLeft === 0) return event.WaitlistEnabled ? ' · full, waitlist open' : ' · full';
    if (seatsLeft && o.seatsLeft !== null) return ` · ${o.seatsLeft} seats left`;
    return '';
  };
  return (
    <Radio.Group
      label="When"
      description={`Times in the event's time zone: ${event.Timezone}`}
      value={value}
      onChange={onChange}
    >
      <Stack gap={6} mt={4}>
        {event.Occurrences.map((o) => (
          <Radio
            key={o.EventDetailId}
            value={String(o.EventDetailId)}
            disabled={o.Status === 'cancelled' || Date.parse(o.StartsAt) <= Date.now()}
            label={`${when(o.StartsAt, o.EndsAt, event.Timezone)}${note(o)}`}
          />
        ))}
      </Stack>
    </Radio.Group>
  );
}
