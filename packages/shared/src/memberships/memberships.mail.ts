/**
 * The system messages of memberships (decision 0154): renewal reminders before and after the due day and the autopay
 * notices, reworded in Communications → System messages.
 */
import { defineSystemTemplate } from '../platform/system-templates.ts';

const member = {
  Name: 'Member.FirstName',
  Description: 'First name of the member (or the name)',
  Sample: 'Ada',
};
const membership = { Name: 'Membership.Name', Description: 'Name of the membership', Sample: 'Individual' };
const termEnd = {
  Name: 'Membership.TermEnd',
  Description: 'Last day of the current term',
  Sample: '2026-12-31',
};
const amount = { Name: 'Membership.Amount', Description: 'Amount of the renewal', Sample: '$120.00' };

export const renewalReminderMail = defineSystemTemplate({
  Key: 'memberships.renewalReminder',
  Title: 'Renewal reminder',
  Description: "Sent once before a membership's term ends, the membership type's days before.",
  Group: 'Memberships',
  Subject: 'Your {{Membership.Name}} membership ends on {{Membership.TermEnd}}',
  BodyHtml:
    '<p>Hello {{Member.FirstName}},</p><p>Your {{Membership.Name}} membership with {{Association.Name}} ends on {{Membership.TermEnd}}. {{Membership.HowToRenew}}</p><p>Thank you for being a member.</p>',
  Fields: [
    member,
    membership,
    termEnd,
    amount,
    {
      Name: 'Membership.HowToRenew',
      Description: 'How the renewal happens (autopay, or the invoice to pay in the member area)',
      Sample:
        'The renewal invoice of $120.00 for the next term will be in your member area; pay it there to stay a member without a gap.',
    },
  ],
});

export const renewalOverdueMail = defineSystemTemplate({
  Key: 'memberships.renewalOverdue',
  Title: 'Renewal overdue',
  Description: "Sent once when a renewal invoice is still open the membership type's days after it was due.",
  Group: 'Memberships',
  Subject: 'Your {{Membership.Name}} membership renewal is overdue',
  BodyHtml:
    '<p>Hello {{Member.FirstName}},</p><p>Your {{Membership.Name}} membership with {{Association.Name}} ended on {{Membership.TermEnd}} and its renewal invoice of {{Membership.Amount}} is still open. Pay it in your member area to keep your membership; unpaid, it lapses at the end of the grace period.</p><p>Thank you for being a member.</p>',
  Fields: [member, membership, termEnd, amount],
});

const termStart = {
  Name: 'Membership.TermStart',
  Description: 'First day of the term paid for',
  Sample: '2027-01-01',
};

export const autopayChargeMail = defineSystemTemplate({
  Key: 'memberships.autopayCharge',
  Title: 'Autopay charge notice',
  Description: 'Sent before each autopay charge of a renewal to the card on file.',
  Group: 'Memberships',
  Subject: 'Your card on file is charged {{Membership.Amount}} for your {{Membership.Name}} membership',
  BodyHtml:
    '<p>Hello {{Member.FirstName}},</p><p>Autopay is on: today your card on file is charged {{Membership.Amount}} for the {{Membership.Name}} membership term from {{Membership.TermStart}}{{Charge.Attempt}}. You can turn autopay off or change the card in your member area.</p>',
  Fields: [
    member,
    membership,
    amount,
    termStart,
    {
      Name: 'Charge.Attempt',
      Description: 'Which attempt this is, after the first',
      Sample: ' (attempt 2 of 3)',
    },
  ],
});

const failure = {
  Name: 'Charge.Failure',
  Description: "The card processor's reason",
  Sample: 'Your card was declined.',
};

export const autopayFailedMail = defineSystemTemplate({
  Key: 'memberships.autopayFailed',
  Title: 'Autopay charge failed',
  Description: 'Sent when an autopay charge fails and will be tried again.',
  Group: 'Memberships',
  Subject: 'Your {{Membership.Name}} membership payment did not go through',
  BodyHtml:
    '<p>Hello {{Member.FirstName}},</p><p>The charge of {{Membership.Amount}} to your card on file for your {{Membership.Name}} membership failed ({{Charge.Failure}}). We will try again on {{Charge.NextAttempt}}; you can also pay the invoice or change the card in your member area.</p>',
  Fields: [
    member,
    membership,
    amount,
    failure,
    { Name: 'Charge.NextAttempt', Description: 'Day of the next attempt', Sample: '2027-01-04' },
  ],
});

export const autopayOffMail = defineSystemTemplate({
  Key: 'memberships.autopayOff',
  Title: 'Autopay turned off',
  Description: 'Sent when the last autopay attempt fails and autopay is turned off.',
  Group: 'Memberships',
  Subject: 'Autopay is off for your {{Membership.Name}} membership',
  BodyHtml:
    '<p>Hello {{Member.FirstName}},</p><p>The charge of {{Membership.Amount}} to your card on file for your {{Membership.Name}} membership failed ({{Charge.Failure}}). After {{Charge.Attempts}} failed charges autopay is now off: pay the renewal invoice in your member area to keep your membership.</p>',
  Fields: [
    member,
    membership,
    amount,
    failure,
    { Name: 'Charge.Attempts', Description: 'How many charges failed', Sample: '3' },
  ],
});

/** To staff: a member's autopay was turned off after its last failed charge (issue 16: "with staff told"). */
export const autopayOffStaffMail = defineSystemTemplate({
  Key: 'memberships.autopayOffStaff',
  Title: 'Autopay turned off (to staff)',
  Description:
    "Sent to the association's administrators when a member's autopay is turned off after its last failed charge.",
  Group: 'Memberships',
  Subject: 'Autopay is off for {{Member.Name}} ({{Membership.Name}})',
  BodyHtml:
    '<p>Hello {{Staff.Name}},</p><p>After {{Charge.Attempts}} failed charges of {{Membership.Amount}} to the card on file ({{Charge.Failure}}), autopay is now off for the {{Membership.Name}} membership of {{Member.Name}}. The renewal invoice for the term from {{Membership.TermStart}} is still open; the member was asked to pay it in the member area.</p><p><a href="{{Membership.Link}}">Open the membership</a></p>',
  Fields: [
    { Name: 'Staff.Name', Description: 'Name of the administrator mailed', Sample: 'Grace Hopper' },
    { Name: 'Member.Name', Description: 'Name of the member (or organisation)', Sample: 'Lovelace, Ada' },
    membership,
    amount,
    termStart,
    failure,
    { Name: 'Charge.Attempts', Description: 'How many charges failed', Sample: '3' },
    {
      Name: 'Membership.Link',
      Description: 'Address of the membership in the back office',
      Sample: 'https://example.org/micronet/list/memberships/memberships/42',
      Link: true,
    },
  ],
});

/**
 * A notice written before notices were system messages: its row holds a finished subject and text, sent in this
 * message (logged and bounced like every system message) rather than around it.
 */
export const membershipNoticeMail = defineSystemTemplate({
  Key: 'memberships.notice',
  Title: 'Membership notice (earlier wording)',
  Description:
    'A membership notice written in its final words before they could be reworded; sent as written.',
  Group: 'Memberships',
  Subject: '{{Notice.Subject}}',
  BodyHtml: '<p>{{Notice.Text}}</p>',
  Fields: [
    { Name: 'Notice.Subject', Description: "The notice's subject as written", Sample: 'Your membership' },
    {
      Name: 'Notice.Text',
      Description: "The notice's text as written",
      Sample: 'Hello Ada, your card on file is charged $120.00 today.',
    },
  ],
});

export const membershipMailTemplates = [
  renewalReminderMail,
  renewalOverdueMail,
  autopayChargeMail,
  autopayFailedMail,
  autopayOffMail,
  autopayOffStaffMail,
  membershipNoticeMail,
] as const;
