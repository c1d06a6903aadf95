/**
 * Mailings really delivered (decision 0152): a mailing is saved as a draft, previewed as a recipient, test-sent,
 * then sent now or at a given time. Sending is a job (`mailing-send`): it fixes the recipients when it starts (a
 * filter of the contacts list is evaluated then; suppressed addresses are logged as `suppressed` and never sent),
 * then delivers in batches through the platform mailer, throttled per association, one log row per recipient:
 * queued → claimed → sending (handed to the mail server) → sent, or deferred (a 4xx answer or no answer: tried again with backoff), failed (out of tries)
 * or bounced (a 5xx answer: the address is suppressed). Every message carries List-Unsubscribe with a one-click POST
 * (RFC 8058) and a VERP return path naming its recipient.
 */
import {
  type Database,
  mailingRecipients,
  mailings,
  mailSuppressions,
  q,
  rowsOf,
  runFragment,
  type Tx,
  tenants,
  withTenantTx,
} from '@guildhall/db';
import {
  type AudienceCount,
  type AudienceOptions,
  designSchema,
  listRequestSchema,
  type Mailing,
  type MailingAudience,
  type MailingInput,
  type MailingSummary,
  mailingAudienceSchema,
  nextRetryDelay,
  type RecipientLog,
} from '@guildhall/shared';
import { and, asc, desc, eq, inArray, sql } from 'drizzle-orm';
import type { AuthContext } from '../../platform/context.ts';
import { badRequest, HttpError, notFound } from '../../platform/errors.ts';
import { sanitizeRichText } from '../../platform/html.ts';
import type { ClaimedJob } from '../../platform/jobs.ts';
import type { DeliveryMessage, DeliveryResult } from '../../platform/mailer.ts';
import { planList } from '../../platform/resources/query.ts';
import type { Services } from '../../platform/services.ts';
import { renderDesign } from './design.ts';
import {
  type CompiledTemplate,
  compileTemplate,
  escapeHtml,
  type MergeValues,
  Parametrised,
} from './render.ts';
import { checkBody } from './templates.service.ts';

export const MAILING_JOB = 'mailing-send';
/** Recipients claimed at a time. */
export const MAILING_BATCH = 200;
/** Messages a second per association at most (MAIL_RATE_PER_TENANT). */
export const DEFAULT_MAIL_RATE = Number(process.env.MAIL_RATE_PER_TENANT ?? 500);
/** Messages of one mailing in flight at once (the mailer's pooled SMTP connections). */
export const MAILING_CONCURRENCY = 8;

const iso = (d: Date | null | undefined) => (d ? d.toISOString() : null);

async function countsOf(tx: Tx, tenantId: string, mailingId: number): Promise<Record<string, number>> {
  const rows = await tx
    .select({ status: mailingRecipients.status, n: sql<number>`count(*)::int` })
    .from(mailingRecipients)
    .where(and(eq(mailingRecipients.tenantId, tenantId), eq(mailingRecipients.mailingId, mailingId)))
    .groupBy(mailingRecipients.status);
  return Object.fromEntries(rows.map((r) => [r.status, Number(r.n)]));
}

function shape(row: typeof mailings.$inferSelect, counts: Record<string, number>): Mailing {
  return {
    MailingId: row.mailingId,
    Name: row.name,
    TemplateId: row.templateId,
    Subject: row.subject,
    BodyHtml: row.bodyHtml,
    DesignJson: row.designJson ? designSchema.parse(row.designJson) : null,
    Audience: mailingAudienceSchema.parse(row.audience),
    Status: row.status as Mailing['Status'],
    ScheduledAt: iso(row.scheduledAt),
    StartedAt: iso(row.startedAt),
    FinishedAt: iso(row.finishedAt),
    RecipientCount: row.recipientCount,
    Counts: counts,
    CreatedAt: row.createdAt.toISOString(),
  };
}

async function mailingRow(tx: Tx, tenantId: string, id: number) {
  const [row] = await tx
    .select()
    .from(mailings)
    .where(and(eq(mailings.tenantId, tenantId), eq(mailings.mailingId, id)));
  if (!row) throw notFound();
  return row;
}

export async function getMailing(tx: Tx, auth: AuthContext, id: number): Promise<Mailing> {
  const row = await mailingRow(tx, auth.tenantId, id);
  return shape(row, await countsOf(tx, auth.tenantId, id));
}

export async function listMailings(tx: Tx, auth: AuthContext): Promise<MailingSummary[]> {
  const rows = await tx
    .select()
    .from(mailings)
    .where(eq(mailings.tenantId, auth.tenantId))
    .orderBy(desc(mailings.createdAt))
    .limit(200);
  const counts = rows.length
    ? await tx
        .select({
          id: mailingRecipients.mailingId,
          status: mailingRecipients.status,
          n: sql<number>`count(*)::int`,
        })
        .from(mailingRecipients)
        .where(
          and(
            eq(mailingRecipients.tenantId, auth.tenantId),
            inArray(
              mailingRecipients.mailingId,
              rows.map((r) => r.mailingId),
            ),
          ),
        )
        .groupBy(mailingRecipients.mailingId, mailingRecipients.status)
    : [];
  return rows.map((r) => {
    const {
      BodyHtml: _b,
      DesignJson: _d,
      Audience: _a,
      ...summary
    } = shape(
      r,
      Object.fromEntries(counts.filter((c) => c.id === r.mailingId).map((c) => [c.status, Number(c.n)])),
    );
    return summary;
  });
}

/** Rich text through the allow-list; a designed message rendered by the server from its design (decision 0153). */
async function checked(input: MailingInput): Promise<MailingInput> {
  const body = input.DesignJson
    ? await renderDesign(input.DesignJson, input.Subject)
    : sanitizeRichText(input.BodyHtml);
  checkBody(body);
  return { ...input, BodyHtml: body };
}

export async function createMailing(tx: Tx, auth: AuthContext, input: MailingInput): Promise<Mailing> {
  const m = await checked(input);
  const [row] = await tx
    .insert(mailings)
    .values({
      tenantId: auth.tenantId,
      name: m.Name,
      templateId: m.TemplateId ?? null,
      subject: m.Subject,
      bodyHtml: m.BodyHtml,
      designJson: m.DesignJson ?? null,
      audience: m.Audience,
      createdBy: auth.userId,
    })
    .returning();
  if (!row) throw new Error('mailing insert returned nothing');
  return shape(row, {});
}

export async function updateMailing(
  tx: Tx,
  auth: AuthContext,
  id: number,
  input: MailingInput,
): Promise<Mailing> {
  const row = await mailingRow(tx, auth.tenantId, id);
  if (row.status !== 'draft')
    throw new HttpError(409, 'This mailing is sent or scheduled; it can no longer change.');
  const m = await checked(input);
  await tx
    .update(mailings)
    .set({
      name: m.Name,
      templateId: m.TemplateId ?? null,
      subject: m.Subject,
      bodyHtml: m.BodyHtml,
      designJson: m.DesignJson ?? null,
      audience: m.Audience,
      updatedAt: new Date(),
    })
    .where(and(eq(mailings.tenantId, auth.tenantId), eq(mailings.mailingId, id)));
  return getMailing(tx, auth, id);
}

/** Sends now or schedules: the job runs at the time given (it fixes the recipients then). */
export async function sendMailing(
  tx: Tx,
  auth: AuthContext,
  services: Services,
  id: number,
  scheduledAt: Date | null,
): Promise<Mailing> {
  const row = await mailingRow(tx, auth.tenantId, id);
  if (row.status !== 'draft') throw new HttpError(409, 'This mailing is already sent or scheduled.');
  if (scheduledAt && scheduledAt.getTime() < Date.now() - 60_000)
    throw badRequest('Choose a time in the future.', { ScheduledAt: ['Choose a time in the future.'] });
  await tx
    .update(mailings)
    .set({ status: 'scheduled', scheduledAt: scheduledAt ?? new Date(), updatedAt: new Date() })
    .where(and(eq(mailings.tenantId, auth.tenantId), eq(mailings.mailingId, id)));
  await services.jobs.enqueue(tx, {
    tenantId: auth.tenantId,
    kind: MAILING_JOB,
    payload: { mailingId: id },
    userId: auth.userId,
    ...(scheduledAt ? { runAfter: scheduledAt } : {}),
  });
  return getMailing(tx, auth, id);
}

export async function cancelMailing(tx: Tx, auth: AuthContext, id: number): Promise<Mailing> {
  const row = await mailingRow(tx, auth.tenantId, id);
  if (row.status !== 'scheduled') throw new HttpError(409, 'Only a scheduled mailing can be cancelled.');
  await tx
    .update(mailings)
    .set({ status: 'draft', scheduledAt: null, updatedAt: new Date() })
    .where(and(eq(mailings.tenantId, auth.tenantId), eq(mailings.mailingId, id)));
  return getMailing(tx, auth, id);
}

export async function recipientLog(
  tx: Tx,
  tenantId: string,
  where: { mailingId?: number; contactId?: number },
  skip = 0,
): Promise<RecipientLog[]> {
  const conditions = [eq(mailingRecipients.tenantId, tenantId)];
  if (where.mailingId !== undefined) conditions.push(eq(mailingRecipients.mailingId, where.mailingId));
  if (where.contactId !== undefined) conditions.push(eq(mailingRecipients.contactId, where.contactId));
  const rows = await tx
    .select({ r: mailingRecipients, subject: mailings.subject })
    .from(mailingRecipients)
    .leftJoin(
      mailings,
      and(
        eq(mailings.tenantId, mailingRecipients.tenantId),
        eq(mailings.mailingId, mailingRecipients.mailingId),
      ),
    )
    .where(and(...conditions))
    .orderBy(
      where.contactId !== undefined ? desc(mailingRecipients.createdAt) : asc(mailingRecipients.recipientId),
    )
    .limit(200)
    .offset(skip);
  return rows.map(({ r, subject }) => ({
    RecipientId: r.recipientId,
    MailingId: r.mailingId,
    ContactId: r.contactId,
    Email: r.email,
    Subject: r.subject ?? subject ?? '',
    Status: r.status as RecipientLog['Status'],
    Attempts: r.attempts,
    LastError: r.lastError,
    SentAt: iso(r.sentAt),
    UpdatedAt: r.updatedAt.toISOString(),
  }));
}

// ---------------------------------------------------------------------------------------------------------------
// Rendering one recipient's message

interface ContactValues {
  contact_id: number;
  first_name: string | null;
  last_name: string | null;
  organization_name: string | null;
  display_name: string | null;
  email: string | null;
  account_number: string | null;
  city: string | null;
  created_at: string | Date | null;
}

export interface MailContext {
  publicUrl: string;
  association: string;
  website: string | null;
  sender: { name: string; email: string } | null;
  timeZone: string;
}

export function addressesOf(ctx: MailContext, tenantId: string, token: string) {
  return {
    unsubscribe: `${ctx.publicUrl}/api/communication/unsubscribe/${tenantId}/${token}`,
    preferences: `${ctx.publicUrl}/email/preferences/${tenantId}/${token}`,
  };
}

function formatDate(value: string | Date | null, style: string, timeZone: string): string {
  if (!value) return '';
  const d = value instanceof Date ? value : new Date(value);
  return new Intl.DateTimeFormat('en-US', {
    timeZone,
    ...(style === 'short' ? { year: 'numeric', month: '2-digit', day: '2-digit' } : { dateStyle: 'long' }),
  }).format(d);
}

export function valuesOf(
  ctx: MailContext,
  c: ContactValues | null,
  addresses: { unsubscribe: string; preferences: string } | null,
): MergeValues {
  const first = c?.first_name ?? '';
  const last = c?.last_name ?? '';
  return {
    'Contact.FirstName': first,
    'Contact.LastName': last,
    'Contact.DisplayName': c?.display_name ?? c?.organization_name ?? '',
    'Contact.Salutation': new Parametrised((p) =>
      p.Style === 'formal'
        ? last
          ? `Dear ${first ? `${first} ` : ''}${last}`
          : ''
        : first
          ? `Dear ${first}`
          : '',
    ),
    'Contact.Email': c?.email ?? '',
    'Contact.AccountNumber': c?.account_number ?? '',
    'Contact.City': c?.city ?? '',
    'Contact.MemberSince': new Parametrised((p) =>
      formatDate(c?.created_at ?? null, p.Format ?? 'long', ctx.timeZone),
    ),
    'Association.Name': ctx.association,
    'Association.Website': ctx.website ?? '',
    'Sender.DisplayName': ctx.sender?.name ?? '',
    'Sender.Email': ctx.sender?.email ?? '',
    'Mailing.UnsubscribeUrl': addresses?.unsubscribe ?? `${ctx.publicUrl}/`,
    'Mailing.PreferencesUrl': addresses?.preferences ?? `${ctx.publicUrl}/`,
    'Mailing.Date': formatDate(new Date(), 'long', ctx.timeZone),
  };
}

/** The whole email: the rendered body in a responsive frame (images at full width below 520 px). */
export function emailDocument(body: string, footer: string): string {
  return `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1"><style>img{max-width:100%;height:auto}@media only screen and (max-width:520px){img{width:100%!important}}</style></head><body style="margin:0;padding:16px;font-family:Arial,Helvetica,sans-serif;font-size:15px;line-height:1.5;color:#212529">${body}${footer}</body></html>`;
}

/** A designed message is a whole document already: the compliance footer goes in only when it has no unsubscribe link. */
function designedDocument(html: string, footer: string): string {
  if (!footer) return html;
  const at = html.lastIndexOf('</body>');
  const block = `<div style="padding:0 16px 16px;text-align:center">${footer}</div>`;
  return at < 0 ? html + block : html.slice(0, at) + block + html.slice(at);
}

/** Plain text beside the HTML (some clients and filters read only that). */
export function textOf(html: string): string {
  return html
    .replace(/<head[\s\S]*?<\/head>/gi, '')
    .replace(/<style[\s\S]*?<\/style>/gi, '')
    .replace(/<a\b[^>]*href="([^"]*)"[^>]*>([\s\S]*?)<\/a>/gi, '$2 ($1)')
    .replace(/<(br|\/p|\/h\d|\/li|\/tr)\b[^>]*>/gi, '\n')
    .replace(/<[^>]*>/g, '')
    .replace(/&nbsp;/g, ' ')
    .replace(/&lt;/g, '<')
    .replace(/&gt;/g, '>')
    .replace(/&quot;/g, '"')
    .replace(/&#39;/g, "'")
    .replace(/&amp;/g, '&')
    .replace(/\n{3,}/g, '\n\n')
    .trim();
}

export function renderMessage(
  compiled: { body: CompiledTemplate; subject: CompiledTemplate },
  ctx: MailContext,
  values: MergeValues,
  addresses: { unsubscribe: string; preferences: string } | null,
): { subject: string; html: string; text: string } {
  const footer = addresses
    ? `<p style="margin-top:24px;font-size:12px;color:#868e96">${escapeHtml(ctx.association)} · <a href="${escapeHtml(addresses.unsubscribe)}" style="color:#868e96">Unsubscribe</a> · <a href="${escapeHtml(addresses.preferences)}" style="color:#868e96">Email preferences</a></p>`
    : '';
  const body = compiled.body.render(values).replace(/(\ssrc=")\/api\//g, `$1${ctx.publicUrl}/api/`);
  const html = /^\s*<!doctype html/i.test(body)
    ? designedDocument(body, addresses && !body.includes(addresses.unsubscribe) ? footer : '')
    : emailDocument(body, footer);
  const subject = textOf(compiled.subject.render(values)).replace(/\s+/g, ' ');
  return { subject, html, text: textOf(html) };
}

export function compileMailing(subject: string, bodyHtml: string) {
  return { body: compileTemplate(bodyHtml), subject: compileTemplate(escapeHtml(subject)) };
}

const CONTACT_COLUMNS = sql`contact_id, first_name, last_name, organization_name, display_name, email, account_number, city, created_at`;

export async function contactValues(
  tx: Tx,
  tenantId: string,
  ids: number[],
): Promise<Map<number, ContactValues>> {
  if (ids.length === 0) return new Map();
  const rows = rowsOf<ContactValues>(
    await tx.execute(
      sql`select ${CONTACT_COLUMNS} from contacts where tenant_id = ${tenantId} and contact_id = any(${`{${ids.join(',')}}`}::bigint[])`,
    ),
  );
  return new Map(rows.map((r) => [Number(r.contact_id), r]));
}

export async function mailContext(
  tx: Tx,
  tenantId: string,
  publicUrl: string,
  sender: MailContext['sender'],
): Promise<MailContext> {
  const [t] = await tx.select().from(tenants).where(eq(tenants.id, tenantId));
  const settings = (t?.settings ?? {}) as { defaultTimezone?: string; website?: string };
  return {
    publicUrl: publicUrl.replace(/\/$/, ''),
    association: t?.name ?? '',
    website: settings.website ?? null,
    sender,
    timeZone: settings.defaultTimezone ?? 'America/Chicago',
  };
}

/** A mailing as one recipient (or an example recipient) would receive it. */
export async function previewMailing(
  tx: Tx,
  auth: AuthContext,
  publicUrl: string,
  id: number,
  contactId: number | null,
): Promise<{ Subject: string; Html: string; Email: string | null }> {
  const row = await mailingRow(tx, auth.tenantId, id);
  const ctx = await mailContext(tx, auth.tenantId, publicUrl, null);
  const contact = contactId
    ? ((await contactValues(tx, auth.tenantId, [contactId])).get(contactId) ?? null)
    : null;
  if (contactId && !contact) throw notFound();
  const out = renderMessage(compileMailing(row.subject, row.bodyHtml), ctx, valuesOf(ctx, contact, null), {
    unsubscribe: `${ctx.publicUrl}/#unsubscribe`,
    preferences: `${ctx.publicUrl}/#preferences`,
  });
  return { Subject: out.subject, Html: out.html, Email: contact?.email ?? null };
}

// ---------------------------------------------------------------------------------------------------------------
// Audience: fixed when the send starts

const randomToken = () => q`replace(gen_random_uuid()::text, '-', '')`;

const ids = (values: readonly number[]) => `{${values.join(',')}}`;

/** The audience's people as `(contact_id, email)` rows of the association, before addresses are deduplicated. */
function audienceSource(services: Services, tenantId: string, audience: MailingAudience) {
  const contactsWhere = (where: ReturnType<typeof q>) =>
    q`select c.contact_id, c.email from contacts c where c.tenant_id = ${tenantId} and not c.is_deleted and ${where}`;
  switch (audience.Kind) {
    case 'contacts':
      return contactsWhere(q`c.contact_id = any(${ids(audience.ContactIds)}::bigint[])`);
    case 'filter': {
      const bound = services.resources.find((r) => r.resource.name === 'contacts');
      if (!bound) throw new Error('the contacts resource is missing');
      const request = listRequestSchema.parse({
        Id: audience.FilterId,
        ...(audience.Criteria ? { Criteria: audience.Criteria } : {}),
      });
      const plan = planList(bound, request, undefined, audience.SearchText || undefined);
      const keys = q`select ${bound.sqlKey} from ${bound.sqlSource} where ${bound.sqlTenant} = ${tenantId}${plan.where ? q` and ${plan.where}` : q``}`;
      return contactsWhere(q`c.contact_id in (${keys})`);
    }
    case 'membership': {
      // The memberships chosen: their members, and the people an organisation's membership covers when asked.
      const chosen = q`from memberships m where m.tenant_id = ${tenantId} and not m.is_deleted
        and m.status = any(${`{${audience.Statuses.join(',')}}`}::text[])${
          audience.MembershipTypeIds.length
            ? q` and m.membership_type_id = any(${ids(audience.MembershipTypeIds)}::bigint[])`
            : q``
        }${
          audience.MembershipLevelIds.length
            ? q` and m.membership_level_id = any(${ids(audience.MembershipLevelIds)}::bigint[])`
            : q``
        }`;
      const members = audience.IncludeSecondaryMembers
        ? q`select m.contact_id ${chosen} union select mm.contact_id from membership_members mm
            where mm.tenant_id = ${tenantId} and mm.membership_id in (select m.membership_id ${chosen})`
        : q`select m.contact_id ${chosen}`;
      return contactsWhere(q`c.contact_id in (${members})`);
    }
    case 'event':
      // Attendees with a contact are reached at the contact's address (or the one they registered with);
      // guests named only by an address, at that address.
      return q`select a.contact_id, coalesce(nullif(c.email, ''), a.attendee_email) as email
        from event_attendees a
        left join contacts c on c.tenant_id = a.tenant_id and c.contact_id = a.contact_id and not c.is_deleted
        where a.tenant_id = ${tenantId} and a.event_id = ${audience.EventId} and not a.is_deleted
          and a.event_attendee_status_id = any(${ids(audience.AttendeeStatusIds)}::int[])
          and (a.contact_id is null or c.contact_id is not null)`;
  }
}

async function materialize(
  tx: Tx,
  services: Services,
  tenantId: string,
  mailingId: number,
  audience: MailingAudience,
): Promise<number> {
  const source = audienceSource(services, tenantId, audience);
  const statement = q`insert into mailing_recipients (tenant_id, mailing_id, contact_id, email, status, token)
    select distinct on (lower(x.email)) ${tenantId}::uuid, ${mailingId}::bigint, x.contact_id, lower(x.email),
      case when s.email is null then 'queued' else 'suppressed' end, ${randomToken()}
    from (${source}) x
    left join mail_suppressions s on s.tenant_id = ${tenantId} and s.email = lower(x.email)
    where x.email is not null and x.email <> ''
    order by lower(x.email), x.contact_id nulls last
    on conflict (tenant_id, mailing_id, email) do nothing`;
  await runFragment(tx, statement);
  const [n] = rowsOf<{ n: number }>(
    await tx.execute(
      sql`select count(*)::int as n from mailing_recipients where tenant_id = ${tenantId} and mailing_id = ${mailingId}`,
    ),
  );
  return Number(n?.n ?? 0);
}

/**
 * How many people the audience reaches now, counted as the send counts them: distinct addresses, those on the
 * suppression list apart, and the people it names who have no address.
 */
export async function audienceCount(
  tx: Tx,
  services: Services,
  tenantId: string,
  audience: MailingAudience,
): Promise<AudienceCount> {
  const source = audienceSource(services, tenantId, audience);
  const [r] = await runFragment<{ recipients: number; suppressed: number; without_address: number }>(
    tx,
    q`select
        count(distinct lower(x.email)) filter (where coalesce(x.email, '') <> '' and s.email is null)::int as recipients,
        count(distinct lower(x.email)) filter (where coalesce(x.email, '') <> '' and s.email is not null)::int as suppressed,
        count(distinct x.contact_id) filter (where coalesce(x.email, '') = '')::int as without_address
      from (${source}) x
      left join mail_suppressions s on s.tenant_id = ${tenantId} and s.email = lower(x.email)`,
  );
  return {
    Recipients: Number(r?.recipients ?? 0),
    Suppressed: Number(r?.suppressed ?? 0),
    WithoutAddress: Number(r?.without_address ?? 0),
  };
}

/** The membership types (with their levels) and the events a mailing's audience can be chosen from. */
export async function audienceOptions(tx: Tx, tenantId: string): Promise<AudienceOptions> {
  const types = rowsOf<{ id: number; name: string }>(
    await tx.execute(sql`select membership_type_id as id, name from membership_types
      where tenant_id = ${tenantId} and not is_deleted order by name limit 500`),
  );
  const levels = rowsOf<{ id: number; type_id: number; name: string }>(
    await tx.execute(sql`select membership_level_id as id, membership_type_id as type_id, name from membership_levels
      where tenant_id = ${tenantId} and not is_deleted order by sort_order nulls last, name limit 2000`),
  );
  // The most recent and coming events first.
  const events = rowsOf<{ id: number; name: string; starts_at: string | Date }>(
    await tx.execute(sql`select event_id as id, name, starts_at from events
      where tenant_id = ${tenantId} and not is_deleted order by starts_at desc limit 300`),
  );
  return {
    MembershipTypes: types.map((t) => ({
      Id: Number(t.id),
      Name: t.name,
      Levels: levels
        .filter((l) => Number(l.type_id) === Number(t.id))
        .map((l) => ({ Id: Number(l.id), Name: l.name })),
    })),
    Events: events.map((e) => ({
      Id: Number(e.id),
      Name: e.name,
      StartsAt: new Date(e.starts_at).toISOString(),
    })),
  };
}

// ---------------------------------------------------------------------------------------------------------------
// The delivery job

/** A per-association pace: at most `rate` messages a second, spread evenly. */
function pacer(rate: number) {
  const gap = rate > 0 ? 1000 / rate : 0;
  let next = Date.now();
  return async () => {
    if (gap === 0) return;
    const now = Date.now();
    next = Math.max(next + gap, now);
    const wait = next - gap - now;
    if (wait > 1) await new Promise((r) => setTimeout(r, wait));
  };
}

export function returnPathOf(mailFrom: string, tenantId: string, token: string): string {
  const address = /<([^>]+)>/.exec(mailFrom)?.[1] ?? mailFrom;
  const domain = address.split('@')[1] ?? 'localhost';
  return `bounces+${tenantId}.${token}@${domain}`;
}

interface RecipientRow {
  recipient_id: number;
  contact_id: number | null;
  email: string;
  token: string;
  attempts: number;
}

/** Recipients a stopped run handed to the mail server before it could write what the server answered. */
export const INTERRUPTED =
  'The server stopped while this message was being handed to the mail server; it is not sent again, so that no one receives it twice.';

interface Outcome {
  status: 'sent' | 'deferred' | 'failed' | 'bounced';
  error: string | null;
  next: Date | null;
}

function outcomeOf(result: DeliveryResult, attempts: number): Outcome {
  if (result.ok) return { status: 'sent', error: null, next: null };
  if (result.permanent) return { status: 'bounced', error: result.message, next: null };
  const delay = nextRetryDelay(attempts);
  return {
    status: delay === null ? 'failed' : 'deferred',
    error: result.message,
    next: delay === null ? null : new Date(Date.now() + delay),
  };
}

interface Answer extends Outcome {
  id: number;
  email: string;
}

/**
 * One transaction of the delivery: writes the answers the mail server gave (a hard bounce also suppresses the
 * address) and marks the recipients about to be handed over as `sending`; answers the ids so marked (a recipient
 * another run took in between is not).
 */
async function recordAndHandOver(
  db: Database['db'],
  tenantId: string,
  answers: readonly Answer[],
  next: readonly number[],
): Promise<Set<number>> {
  if (answers.length === 0 && next.length === 0) return new Set();
  return withTenantTx(db, { tenantId }, async (tx) => {
    if (answers.length > 0) {
      await tx.execute(sql`update mailing_recipients r set status = o.status, last_error = o.error,
          next_attempt_at = o.next, updated_at = now(),
          sent_at = case when o.status = 'sent' then now() else r.sent_at end
        from jsonb_to_recordset(${JSON.stringify(answers)}::jsonb) as o(id bigint, status text, error text, next timestamptz)
        where r.tenant_id = ${tenantId} and r.recipient_id = o.id`);
      const bounced = answers.filter((x) => x.status === 'bounced');
      if (bounced.length > 0)
        await tx
          .insert(mailSuppressions)
          .values(bounced.map((x) => ({ tenantId, email: x.email, reason: 'bounced', detail: x.error })))
          .onConflictDoNothing();
    }
    if (next.length === 0) return new Set<number>();
    const marked = rowsOf<{ recipient_id: number | string }>(
      await tx.execute(sql`update mailing_recipients set status = 'sending', updated_at = now()
        where tenant_id = ${tenantId} and recipient_id = any(${`{${next.join(',')}}`}::bigint[]) and status = 'claimed'
        returning recipient_id`),
    );
    return new Set(marked.map((m) => Number(m.recipient_id)));
  });
}

/**
 * The `mailing-send` job. Delivery is at most once per recipient (decision 0152, revised): a batch is claimed
 * (`claimed`) and rendered from the template compiled once, then handed to the mail server wave by wave, as many at
 * once as the mailer's pooled connections: one transaction writes the previous wave's answers and marks this wave
 * `sending` before it is handed over. A run that stopped (a crash, a kill) leaves `claimed` rows, never handed to
 * the mail server, which the next run queues again, and at most one wave of `sending` rows (the messages in
 * flight), which it records as `unknown` and does not send again. A server shutting down (`job.stopping`) ends the
 * run between waves with every answer written and queues the rest for its next start: nobody twice, nobody skipped.
 */
export function mailingHandler(
  services: Services,
  options: { rate?: number; batch?: number; concurrency?: number } = {},
) {
  const rate = options.rate ?? DEFAULT_MAIL_RATE;
  const batch = options.batch ?? MAILING_BATCH;
  // As many messages in flight as the mailer's pooled SMTP connections: one handed over is one being transmitted.
  const concurrency = Math.max(1, options.concurrency ?? MAILING_CONCURRENCY);
  return async (database: Database, job: ClaimedJob) => {
    const tenantId = job.tenantId;
    const mailingId = Number((job.payload as { mailingId: number }).mailingId);
    const db = database.db;
    // 1. Fix the audience when the send starts (a scheduled send evaluates its filter now).
    const state = await withTenantTx(db, { tenantId }, async (tx) => {
      const [row] = await tx
        .select()
        .from(mailings)
        .where(and(eq(mailings.tenantId, tenantId), eq(mailings.mailingId, mailingId)))
        .for('update');
      if (!row || row.status === 'draft' || row.status === 'cancelled' || row.status === 'sent') return null;
      if (row.status === 'scheduled') {
        const count = await materialize(
          tx,
          services,
          tenantId,
          mailingId,
          mailingAudienceSchema.parse(row.audience),
        );
        await tx
          .update(mailings)
          .set({ status: 'sending', startedAt: new Date(), recipientCount: count, updatedAt: new Date() })
          .where(and(eq(mailings.tenantId, tenantId), eq(mailings.mailingId, mailingId)));
      }
      // What a stopped run left: claimed but never handed to the mail server goes again; handed over but not
      // answered (in flight when it stopped) is recorded as unknown and never sent twice.
      await tx.execute(sql`update mailing_recipients set status = 'queued', updated_at = now()
        where tenant_id = ${tenantId} and mailing_id = ${mailingId} and status = 'claimed'`);
      await tx.execute(sql`update mailing_recipients set status = 'unknown', last_error = ${INTERRUPTED}, updated_at = now()
        where tenant_id = ${tenantId} and mailing_id = ${mailingId} and status = 'sending'`);
      const sender = row.createdBy
        ? (rowsOf<{ name: string; email: string }>(
            await tx.execute(sql`select display_name as name, email from users where id = ${row.createdBy}`),
          )[0] ?? null)
        : null;
      return { row, ctx: await mailContext(tx, tenantId, services.config.publicUrl, sender) };
    });
    if (!state) return;
    const compiled = compileMailing(state.row.subject, state.row.bodyHtml);
    const pace = pacer(rate);
    const messageOf = (r: RecipientRow, contacts: Map<number, ContactValues>): DeliveryMessage => {
      const addresses = addressesOf(state.ctx, tenantId, r.token);
      const contact = r.contact_id ? (contacts.get(Number(r.contact_id)) ?? null) : null;
      const out = renderMessage(compiled, state.ctx, valuesOf(state.ctx, contact, addresses), addresses);
      return {
        to: r.email,
        subject: out.subject,
        html: out.html,
        text: out.text,
        headers: {
          'List-Unsubscribe': `<${addresses.unsubscribe}>`,
          'List-Unsubscribe-Post': 'List-Unsubscribe=One-Click',
          'X-Guildhall-Mailing': `${mailingId}`,
        },
        returnPath: returnPathOf(services.config.mailFrom, tenantId, r.token),
      };
    };
    // The answers of the wave handed over last, written with the next wave's hand-over (one transaction a wave).
    let answered: Answer[] = [];
    for (;;) {
      // A stopping server ends here, between waves: what is left is queued again for the next start.
      if (job.stopping?.aborted) {
        await recordAndHandOver(db, tenantId, answered, []);
        await withTenantTx(db, { tenantId }, (tx) =>
          services.jobs.enqueue(tx, {
            tenantId,
            kind: MAILING_JOB,
            payload: { mailingId },
            userId: job.userId,
          }),
        );
        return;
      }
      // 2. Claim a batch: queued, or deferred whose next try is due.
      const claimed = await withTenantTx(db, { tenantId }, async (tx) => {
        const rows = rowsOf<RecipientRow>(
          await tx.execute(sql`update mailing_recipients r set status = 'claimed', attempts = r.attempts + 1, updated_at = now()
            where r.tenant_id = ${tenantId} and r.recipient_id in (
              select recipient_id from mailing_recipients
              where tenant_id = ${tenantId} and mailing_id = ${mailingId}
                and (status = 'queued' or (status = 'deferred' and next_attempt_at <= now()))
              order by recipient_id limit ${batch} for update skip locked)
            returning r.recipient_id, r.contact_id, r.email, r.token, r.attempts`),
        );
        rows.sort((x, y) => Number(x.recipient_id) - Number(y.recipient_id));
        const values = await contactValues(
          tx,
          tenantId,
          rows.flatMap((r) => (r.contact_id ? [Number(r.contact_id)] : [])),
        );
        return { rows, values };
      });
      if (claimed.rows.length === 0) break;
      // 3. Wave by wave, as many as the mailer's pooled connections: the last wave's answers and this wave's
      // hand-over are committed together before it is handed to the mail server, so a restart never sends it again.
      for (let at = 0; at < claimed.rows.length; at += concurrency) {
        if (job.stopping?.aborted) break;
        const wave = claimed.rows.slice(at, at + concurrency);
        const messages = wave.map((r) => messageOf(r, claimed.values));
        const handed = await recordAndHandOver(
          db,
          tenantId,
          answered,
          wave.map((r) => Number(r.recipient_id)),
        );
        answered = [];
        const results = await Promise.all(
          wave.map(async (r, i) => {
            if (!handed.has(Number(r.recipient_id))) return null;
            await pace();
            const result = await services.mailer.deliver(tenantId, messages[i] as DeliveryMessage);
            return { r, outcome: outcomeOf(result, r.attempts) };
          }),
        );
        for (const x of results)
          if (x) answered.push({ id: Number(x.r.recipient_id), email: x.r.email, ...x.outcome });
      }
      // 4. The batch's last answers (a hard bounce suppresses the address).
      await recordAndHandOver(db, tenantId, answered, []);
      answered = [];
    }
    // 5. Done, or come back when the next deferred recipient is due.
    await withTenantTx(db, { tenantId }, async (tx) => {
      const [due] = rowsOf<{ at: string | null }>(
        await tx.execute(sql`select min(next_attempt_at) as at from mailing_recipients
          where tenant_id = ${tenantId} and mailing_id = ${mailingId} and status = 'deferred'`),
      );
      if (due?.at) {
        await services.jobs.enqueue(tx, {
          tenantId,
          kind: MAILING_JOB,
          payload: { mailingId },
          userId: job.userId,
          runAfter: new Date(due.at),
        });
      } else {
        await tx
          .update(mailings)
          .set({ status: 'sent', finishedAt: new Date(), updatedAt: new Date() })
          .where(and(eq(mailings.tenantId, tenantId), eq(mailings.mailingId, mailingId)));
      }
    });
  };
}

// ---------------------------------------------------------------------------------------------------------------
// Unsubscribe and preferences (public, by the recipient's token)

const TOKEN = /^[0-9a-f]{32}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

async function recipientByToken(tx: Tx, tenantId: string, token: string) {
  const [r] = await tx
    .select()
    .from(mailingRecipients)
    .where(and(eq(mailingRecipients.tenantId, tenantId), eq(mailingRecipients.token, token)));
  return r ?? null;
}

export async function preferences(database: Database, tenantId: string, token: string) {
  if (!UUID.test(tenantId) || !TOKEN.test(token)) return null;
  return withTenantTx(database.db, { tenantId }, async (tx) => {
    const r = await recipientByToken(tx, tenantId, token);
    if (!r) return null;
    const [t] = await tx.select({ name: tenants.name }).from(tenants).where(eq(tenants.id, tenantId));
    const [s] = await tx
      .select()
      .from(mailSuppressions)
      .where(and(eq(mailSuppressions.tenantId, tenantId), eq(mailSuppressions.email, r.email)));
    return { Email: r.email, Association: t?.name ?? '', Subscribed: !s };
  });
}

/** Unsubscribes (one click, or the preferences page) or subscribes again; the suppression list keeps the choice. */
export async function setSubscribed(
  database: Database,
  tenantId: string,
  token: string,
  subscribed: boolean,
): Promise<boolean> {
  if (!UUID.test(tenantId) || !TOKEN.test(token)) return false;
  return withTenantTx(database.db, { tenantId }, async (tx) => {
    const r = await recipientByToken(tx, tenantId, token);
    if (!r) return false;
    if (subscribed)
      await tx
        .delete(mailSuppressions)
        .where(
          and(
            eq(mailSuppressions.tenantId, tenantId),
            eq(mailSuppressions.email, r.email),
            eq(mailSuppressions.reason, 'unsubscribed'),
          ),
        );
    else
      await tx
        .insert(mailSuppressions)
        .values({
          tenantId,
          email: r.email,
          reason: 'unsubscribed',
          detail: `mailing ${r.mailingId ?? ''}`.trim(),
        })
        .onConflictDoNothing();
    return true;
  });
}
