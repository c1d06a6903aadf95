/**
 * The demo's communications: the templates a real association keeps (welcome, renewal reminder, event
 * confirmation, receipt, a newsletter), the demo staff member's signatures, and mailings: October's newsletter sent
 * to the active contacts (delivered, two bounced, one unsubscribed since) and a draft for the spring fair.
 */
import { randomBytes } from 'node:crypto';
import {
  contacts,
  type Db,
  emailTemplates,
  mailingRecipients,
  mailings,
  mailSuppressions,
  signatures,
  systemTemplates,
  withTenantTx,
} from '@guildhall/db';
import {
  DEFAULT_FOOTER_HTML,
  type Design,
  emptyDesign,
  eventConfirmationMail,
  mergeChipHtml,
  mergeFieldByName,
  withChips,
} from '@guildhall/shared';
import { and, asc, eq, isNotNull } from 'drizzle-orm';

function chip(name: string, params: Record<string, string> = {}): string {
  const field = mergeFieldByName(name);
  if (!field) throw new Error(`no merge field ${name}`);
  return mergeChipHtml(field, params);
}

const first = () => chip('Contact.FirstName', { Default: 'Friend' });
const association = () => chip('Association.Name');
const sender = () => chip('Sender.DisplayName', { Default: 'The team' });
const unsubscribe =
  '<p style="font-size:12px;color:#868e96">You receive this as a contact of our association. <a href="merge:Mailing.UnsubscribeUrl">Unsubscribe</a> or <a href="merge:Mailing.PreferencesUrl">choose what you receive</a>.</p>';

export const DEMO_TEMPLATES = [
  {
    name: 'Welcome letter',
    purpose: 'general',
    subject: 'Welcome to the association',
    bodyHtml: `<p>Dear ${first()},</p><p>Welcome to ${association()}! We are glad to count you among our members. Your account number is ${chip('Contact.AccountNumber', { Default: '' })}; keep it at hand when you call us.</p><p>In the coming weeks you will receive our newsletter with upcoming events and news from the board.</p><p>Kind regards,<br>${sender()}</p>${unsubscribe}`,
  },
  {
    name: 'Renewal reminder',
    purpose: 'renewal',
    subject: 'Your membership is up for renewal',
    bodyHtml: `<p>${chip('Contact.Salutation', { Style: 'informal', Default: 'Dear member' })},</p><p>Your membership of ${association()} is coming up for renewal. Renewing takes two minutes in the member area, and keeps your member rates for events.</p><p>Thank you for your support,<br>${sender()}</p>${unsubscribe}`,
  },
  {
    name: 'Event confirmation',
    purpose: 'eventConfirmation',
    subject: 'You are registered',
    bodyHtml: `<p>Dear ${first()},</p><p>Thank you for registering. We look forward to seeing you there. If you can no longer come, reply to this message so that someone on the waiting list can take your place.</p><p>${sender()}</p>`,
  },
  {
    name: 'Payment receipt',
    purpose: 'receipt',
    subject: 'Thank you for your payment',
    bodyHtml: `<p>Dear ${first()},</p><p>We received your payment, thank you. This message is your receipt; keep it for your records.</p><p>${association()}</p>`,
  },
  {
    name: 'Monthly newsletter',
    purpose: 'general',
    subject: 'News from the association',
    bodyHtml: `<h2>News from ${association()}</h2><p>Dear ${first()},</p><p>This month: the annual general meeting, two new working groups, and a call for volunteers for the spring fair.</p><h3>Annual general meeting</h3><p>Members vote on the new board and next year's budget. The agenda is in the member area.</p><h3>Volunteers wanted</h3><p>The spring fair needs twenty helpers for set-up and the welcome desk. Reply to this email to sign up.</p>${unsubscribe}`,
  },
] as const;

/** The designed newsletter of the demo (the email designer, decision 0153): its Html is rendered by the server. */
export function demoNewsletterDesign(): Design {
  return {
    ...emptyDesign(),
    Settings: {
      ...emptyDesign().Settings,
      Preheader: 'The spring fair, the general meeting and new members',
    },
    Blocks: [
      { Id: 'b1', Type: 'heading', Text: 'Spring newsletter', Level: 1, Align: 'center', Color: '#1864ab' },
      {
        Id: 'b2',
        Type: 'text',
        Html: `<p>Dear ${first()},</p><p>Spring is here, and so is a busy season at ${association()}: the fair, the annual general meeting and two new working groups.</p>`,
      },
      {
        Id: 'b3',
        Type: 'button',
        Label: 'See the programme',
        Href: 'https://demo-association.example.org/events',
        BackgroundColor: '#1c7ed6',
        Color: '#ffffff',
        Align: 'center',
      },
      { Id: 'b4', Type: 'divider', Color: '#dee2e6' },
      {
        Id: 'b5',
        Type: 'columns',
        Columns: [
          "<h3>Annual general meeting</h3><p>Members vote on the new board and next year's budget. The agenda is in the member area.</p>",
          '<h3>Volunteers wanted</h3><p>The spring fair needs twenty helpers for set-up and the welcome desk. Reply to sign up.</p>',
        ],
      },
      { Id: 'b6', Type: 'spacer', Height: 16 },
      { Id: 'b7', Type: 'footer', Html: DEFAULT_FOOTER_HTML },
    ],
  };
}

export async function seedDemoCommunications(db: Db, tenantId: string, staffUserId: number): Promise<void> {
  await withTenantTx(db, { tenantId }, async (tx) => {
    await tx.insert(emailTemplates).values(
      DEMO_TEMPLATES.map((t) => ({
        tenantId,
        name: t.name,
        kind: 'template',
        purpose: t.purpose,
        subject: t.subject,
        bodyHtml: t.bodyHtml,
      })),
    );
    await tx.insert(emailTemplates).values({
      tenantId,
      name: 'Spring newsletter (designed)',
      kind: 'newsletter',
      purpose: 'general',
      subject: 'Spring at the association',
      bodyHtml: null,
      designJson: demoNewsletterDesign(),
    });
    await tx.insert(emailTemplates).values({
      tenantId,
      name: 'Spring fair flyer (old)',
      kind: 'template',
      purpose: 'general',
      subject: 'Spring fair: last call',
      bodyHtml: `<p>Dear ${first()},</p><p>The spring fair is this Saturday!</p>`,
      isArchived: true,
    });
    await tx.insert(signatures).values([
      {
        tenantId,
        userId: staffUserId,
        name: 'Full',
        signatureHtml: `<p>Dana Staff<br>Membership secretary, ${association()}<br><a href="mailto:demo.staff@demo-association.example.org">demo.staff@demo-association.example.org</a> · +1 312 555 0142</p>`,
        isDefault: true,
      },
      { tenantId, userId: staffUserId, name: 'Short', signatureHtml: '<p>Dana</p>', isDefault: false },
    ]);
    // The association's own wording of the event confirmation (Communications → System messages).
    await tx.insert(systemTemplates).values({
      tenantId,
      templateKey: eventConfirmationMail.Key,
      subject: 'See you at {{Event.Name}}!',
      bodyHtml: withChips(
        '<p>Hello {{Attendee.Name}},</p><p>Thank you for registering for <strong>{{Event.Name}}</strong>, starting {{Event.StartsAt}}. Your check-in code is <strong>{{Attendee.CheckInCode}}</strong>: show it at the door and we will have your badge ready.</p><p>Parking is free for members behind the hall. Questions? Just reply to this message.</p><p>See you there,<br>The {{Association.Name}} team</p>',
        eventConfirmationMail,
      ),
      updatedBy: staffUserId,
    });

    await seedDemoMailings(tx, tenantId, staffUserId);
  });
}

const DAY = 24 * 3600 * 1000;

async function seedDemoMailings(
  tx: Parameters<Parameters<typeof withTenantTx>[2]>[0],
  tenantId: string,
  staffUserId: number,
): Promise<void> {
  const readers = await tx
    .select({ id: contacts.contactId, email: contacts.email })
    .from(contacts)
    .where(
      and(
        eq(contacts.tenantId, tenantId),
        eq(contacts.status, 'active'),
        eq(contacts.isDeleted, false),
        isNotNull(contacts.email),
      ),
    )
    .orderBy(asc(contacts.contactId))
    .limit(60);
  const sentAt = new Date(Date.now() - 26 * DAY);
  const [october] = await tx
    .insert(mailings)
    .values({
      tenantId,
      name: 'October newsletter',
      subject: 'News from the association: October',
      bodyHtml: DEMO_TEMPLATES[4].bodyHtml,
      audience: { Kind: 'contacts', ContactIds: readers.map((r) => r.id) },
      status: 'sent',
      scheduledAt: sentAt,
      startedAt: sentAt,
      finishedAt: new Date(sentAt.getTime() + 4 * 60_000),
      createdBy: staffUserId,
      recipientCount: readers.length,
      createdAt: new Date(sentAt.getTime() - 2 * DAY),
      updatedAt: sentAt,
    })
    .returning({ id: mailings.mailingId });
  const bounced = new Set([readers[7]?.email, readers[31]?.email]);
  await tx.insert(mailingRecipients).values(
    readers.map((r) => {
      const hard = bounced.has(r.email);
      return {
        tenantId,
        mailingId: october?.id ?? null,
        contactId: r.id,
        email: (r.email as string).toLowerCase(),
        status: hard ? 'bounced' : 'sent',
        attempts: 1,
        lastError: hard ? '550 5.1.1 The email account that you tried to reach does not exist' : null,
        token: randomBytes(16).toString('hex'),
        sentAt: hard ? null : new Date(sentAt.getTime() + 60_000),
        createdAt: sentAt,
        updatedAt: sentAt,
      };
    }),
  );
  const unsubscribed = readers[12]?.email;
  await tx.insert(mailSuppressions).values([
    ...[...bounced]
      .filter((e): e is string => typeof e === 'string')
      .map((email) => ({
        tenantId,
        email: email.toLowerCase(),
        reason: 'bounced',
        detail: '550 5.1.1 The email account that you tried to reach does not exist',
      })),
    ...(unsubscribed
      ? [{ tenantId, email: unsubscribed.toLowerCase(), reason: 'unsubscribed', detail: null }]
      : []),
  ]);
  await tx.insert(mailings).values({
    tenantId,
    name: 'Spring fair: volunteers wanted',
    subject: 'Can you help at the spring fair?',
    bodyHtml: `<p>Dear ${first()},</p><p>The spring fair needs twenty helpers for set-up and the welcome desk on Saturday morning. Reply to this message to sign up; coffee and lunch are on us.</p><p>Thank you,<br>${sender()}</p>${unsubscribe}`,
    audience: { Kind: 'filter', FilterId: 0 },
    status: 'draft',
    createdBy: staffUserId,
  });
}
