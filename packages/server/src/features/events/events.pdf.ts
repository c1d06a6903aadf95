/**
 * Printable documents of an occurrence: its attendee list and name badges, as PDF through the billing documents'
 * setup (pdfkit with DejaVu Sans embedded, so names such as Zoë Łukasiewicz print and copy right).
 */
import { q, type Tx } from '@guildhall/db';
import { attendeeStatusName, EVENT_ATTENDEE_STATUSES as S } from '@guildhall/shared';
import { notFound } from '../../platform/errors.ts';
import { billingDocument, INK, MUTED, pageFooters, RULE } from '../billing/billing.module.ts';
import { one, rows } from './events.repo.ts';

interface Sheet {
  association: string;
  event: string;
  startsAt: string;
  timezone: string;
  attendees: {
    name: string;
    email: string | null;
    type: string | null;
    status: number;
    checkedIn: boolean;
  }[];
}

/** The attendees holding a seat (registered, awaiting payment, attended, no-show), by name. */
async function sheetOf(tx: Tx, tenantId: string, eventDetailId: number, tz: string): Promise<Sheet> {
  const head = await one<{ association: string; event: string; starts_at: string; timezone: string | null }>(
    tx,
    q`select t.name as association, e.name as event, d.starts_at::text as starts_at, e.timezone_id as timezone
      from event_details d join events e on e.tenant_id = d.tenant_id and e.event_id = d.event_id
      join tenants t on t.id = d.tenant_id
      where d.tenant_id = ${tenantId} and d.event_detail_id = ${eventDetailId} and not d.is_deleted and not e.is_deleted`,
  );
  if (!head) throw notFound();
  const list = await rows<{
    attendee_name: string;
    attendee_email: string | null;
    type: string | null;
    status: unknown;
    checked_in: boolean;
  }>(
    tx,
    q`select a.attendee_name, a.attendee_email, r.name as type, a.event_attendee_status_id as status,
        a.checked_in_at is not null as checked_in
      from event_attendees a
      left join event_registration_types r on r.tenant_id = a.tenant_id and r.registration_type_id = a.registration_type_id
      where a.tenant_id = ${tenantId} and a.event_detail_id = ${eventDetailId} and not a.is_deleted
        and a.event_attendee_status_id in (${S.Registered}, ${S.PendingPayment}, ${S.Attended}, ${S.NoShow})
      order by lower(a.attendee_name), a.attendee_id`,
  );
  return {
    association: head.association,
    event: head.event,
    startsAt: head.starts_at,
    timezone: head.timezone ?? tz,
    attendees: list.map((a) => ({
      name: a.attendee_name,
      email: a.attendee_email,
      type: a.type,
      status: Number(a.status),
      checkedIn: a.checked_in,
    })),
  };
}

function when(sheet: Sheet): string {
  const d = new Date(sheet.startsAt.replace(' ', 'T').replace(/\+00$/, 'Z'));
  if (Number.isNaN(d.getTime())) return sheet.startsAt;
  return d.toLocaleString('en-US', {
    timeZone: sheet.timezone,
    dateStyle: 'full',
    timeStyle: 'short',
  });
}

/** The attendee list of an occurrence: a table of name, email, registration type, status, and a box to tick. */
export async function attendeeListPdf(tx: Tx, tenantId: string, eventDetailId: number, tz: string) {
  const sheet = await sheetOf(tx, tenantId, eventDetailId, tz);
  const { doc, done } = await billingDocument({
    Title: `Attendees: ${sheet.event}`,
    Author: sheet.association,
    Subject: `Attendee list of ${sheet.event}`,
  });
  const left = doc.page.margins.left;
  const width = doc.page.width - left - doc.page.margins.right;
  doc.font('Bold').fontSize(16).fillColor(INK).text(sheet.event, left, 50, { width });
  doc
    .font('Body')
    .fontSize(10)
    .fillColor(MUTED)
    .text(`${when(sheet)} · ${sheet.association}`, { width });
  doc.text(`${sheet.attendees.length} attendee${sheet.attendees.length === 1 ? '' : 's'}`, { width });
  const cols = [
    { title: '', w: 18 },
    { title: 'Name', w: 160 },
    { title: 'Email', w: 150 },
    { title: 'Type', w: 100 },
    { title: 'Status', w: width - 18 - 160 - 150 - 100 },
  ];
  let y = doc.y + 12;
  const row = (cells: string[], bold: boolean) => {
    if (y > doc.page.height - doc.page.margins.bottom - 20) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    let x = left;
    doc
      .font(bold ? 'Bold' : 'Body')
      .fontSize(9)
      .fillColor(INK);
    cells.forEach((c, i) => {
      const w = cols[i]?.w ?? 50;
      doc.text(c, x + 2, y, { width: w - 4, lineBreak: false, ellipsis: true });
      x += w;
    });
    y += 16;
    doc
      .moveTo(left, y - 3)
      .lineTo(left + width, y - 3)
      .strokeColor(RULE)
      .lineWidth(0.5)
      .stroke();
  };
  row(
    cols.map((c) => c.title),
    true,
  );
  for (const a of sheet.attendees)
    row([a.checkedIn ? '☑' : '☐', a.name, a.email ?? '', a.type ?? '', attendeeStatusName(a.status)], false);
  pageFooters(doc, (p, n) => `${sheet.event} · attendees · page ${p} of ${n}`);
  doc.end();
  return { bytes: await done, name: sheet.event };
}

/** Name badges of an occurrence's attendees: eight to a Letter page (two across, four down), to cut out. */
export async function badgesPdf(tx: Tx, tenantId: string, eventDetailId: number, tz: string) {
  const sheet = await sheetOf(tx, tenantId, eventDetailId, tz);
  const { doc, done } = await billingDocument({
    Title: `Badges: ${sheet.event}`,
    Author: sheet.association,
    Subject: `Name badges of ${sheet.event}`,
  });
  const left = doc.page.margins.left;
  const top = doc.page.margins.top;
  const w = (doc.page.width - left - doc.page.margins.right) / 2;
  const h = (doc.page.height - top - doc.page.margins.bottom) / 4;
  sheet.attendees.forEach((a, i) => {
    const slot = i % 8;
    if (i > 0 && slot === 0) doc.addPage();
    const x = left + (slot % 2) * w;
    const y = top + Math.floor(slot / 2) * h;
    doc
      .rect(x + 4, y + 4, w - 8, h - 8)
      .strokeColor(RULE)
      .lineWidth(0.75)
      .dash(3, { space: 3 })
      .stroke();
    doc.undash();
    doc
      .font('Body')
      .fontSize(9)
      .fillColor(MUTED)
      .text(sheet.association, x + 16, y + 18, { width: w - 32, align: 'center', lineBreak: false });
    doc
      .font('Bold')
      .fontSize(20)
      .fillColor(INK)
      .text(a.name, x + 16, y + h / 2 - 24, { width: w - 32, align: 'center', height: 52, ellipsis: true });
    doc
      .font('Body')
      .fontSize(10)
      .fillColor(MUTED)
      .text([a.type, sheet.event].filter(Boolean).join(' · '), x + 16, y + h - 40, {
        width: w - 32,
        align: 'center',
        lineBreak: false,
        ellipsis: true,
      });
  });
  if (sheet.attendees.length === 0)
    doc
      .font('Body')
      .fontSize(12)
      .fillColor(MUTED)
      .text(`Nobody holds a seat at ${sheet.event} yet.`, left, top);
  doc.end();
  return { bytes: await done, name: sheet.event };
}
