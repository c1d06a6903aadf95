/** Event attendee statuses Guildhall relies on. "Event attendee status 4 counts as registered." (spec 000 §9) */
export const EVENT_ATTENDEE_STATUS = { Registered: 4 } as const;

export function isRegisteredAttendee(attendee: { EventAttendeeStatusId: number }): boolean {
  return attendee.EventAttendeeStatusId === EVENT_ATTENDEE_STATUS.Registered;
}

/**
 * The number of registered people: each registered attendee record counts for its RegisteredAttendeesCount
 * (a registration for a party of four counts four), or one when the count is not given.
 */
export function registeredAttendeeCount(
  attendees: readonly { EventAttendeeStatusId: number; RegisteredAttendeesCount?: number | null }[],
): number {
  let count = 0;
  for (const attendee of attendees) {
    if (!isRegisteredAttendee(attendee)) continue;
    const party = attendee.RegisteredAttendeesCount;
    count += party === null || party === undefined ? 1 : Math.max(0, Math.trunc(party));
  }
  return count;
}
