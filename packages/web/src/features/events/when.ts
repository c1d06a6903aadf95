/**
 * An occurrence's date and times in a time zone (the event's own on its page: the back office shows them so too),
 * the zone's short name after the end time ("CST", "GMT+1").
 */
export const when = (start: string, end: string, timeZone?: string) => {
  const s = new Date(start);
  const e = new Date(end);
  const zone = timeZone ? { timeZone } : {};
  const day = s.toLocaleDateString(undefined, {
    weekday: 'short',
    day: 'numeric',
    month: 'short',
    year: 'numeric',
    ...zone,
  });
  const t = (d: Date, named = false) =>
    d.toLocaleTimeString(undefined, {
      hour: '2-digit',
      minute: '2-digit',
      ...zone,
      ...(named && timeZone ? { timeZoneName: 'short' as const } : {}),
    });
  return `${day}, ${t(s)} – ${t(e, true)}`;
};
