/**
 * The help panel's texts (GET /api/help/{state name}): the state name of every screen, and the text a new
 * association starts with, which its staff then edit under Setup > Help texts. The screens of the generic layer are
 * named after their resource: `Contacts.List`, `Contacts.Record`, `Contacts.New`.
 */
import type { ResourceDeclaration } from '../platform/resource.ts';

export type GenericScreenKind = 'List' | 'Record' | 'New' | 'Preview';

/** The generic route handles that stand for "this resource's list, record, new record or preview". */
export const GENERIC_SCREEN_STATES: Readonly<Record<string, GenericScreenKind>> = {
  'Screens.List': 'List',
  'Screens.Record': 'Record',
  'Screens.New': 'New',
  'Screens.Preview': 'Preview',
};

/** The help state name of a resource's screen: its name in PascalCase, then the kind ("Contacts.List"). */
export function resourceStateName(
  resource: Pick<ResourceDeclaration, 'name'>,
  kind: GenericScreenKind,
): string {
  return `${resource.name.charAt(0).toUpperCase()}${resource.name.slice(1)}.${kind}`;
}

export interface HelpTextSeed {
  stateName: string;
  title: string;
  content: string;
}

/** Screens with a route of their own, by state name. */
const SCREENS: Readonly<Record<string, { title: string; content: string }>> = {
  Home: {
    title: 'Welcome to the back office',
    content:
      "This is where your association is run. The navigation on the left leads to contacts, users, reports and the setup pages; the search box at the top (press /) finds a contact, an event or a file from anywhere. The figures below are your association's own and update as you work.",
  },
  Dashboard: {
    title: 'Dashboard',
    content:
      'Your widgets: counts and short lists from across the association. Open the list behind a widget to see its records.',
  },
  'Users.List': {
    title: 'Users',
    content:
      'Everyone who can sign in to your association: staff in the back office and members in the member area. Open a user to change their role, link them to their contact record, reset their sign-in or, as an administrator, see the product as they do (impersonate).',
  },
  'Users.Detail': {
    title: 'A user',
    content:
      'A person who signs in. Their role decides what they may see and do. Link the user to their contact record so that a member sees and edits their own profile in the member area; unlink it if the wrong contact was chosen. Password resets are sent by email: nobody, staff included, ever reads a reset link.',
  },
  'Contacts.Import': {
    title: 'Import contacts',
    content:
      'Bring contacts in from a spreadsheet saved as CSV. Upload the file, match its columns to contact fields, and look at the dry run: every row that would be refused is listed with its row number and the reason. Commit the valid rows; the refused ones can be downloaded as a CSV, corrected and imported again.',
  },
  'Memberships.Join': {
    title: 'Join a member',
    content:
      'Sign a contact up for a membership in three steps. Choose the member, the membership type, its level and chapter; then how often the dues are billed: every fee is priced again as you change the frequency, with the bills of the term and what the first invoice will ask. A late join in a calendar term is prorated, and one close to the end of the term runs through the next term instead. The new membership is pending until its first invoice is paid or you approve it.',
  },
  'Billing.RecordPayment': {
    title: 'Record a payment',
    content:
      "Record money received by check, cash or bank transfer. Choose who paid, the amount and how; the contact's open invoices are listed, and Apply oldest first spreads the payment over them from the oldest due date, or type what goes to each. What is not applied stays a credit on the contact's account, to apply later. Cash and checks wait in undeposited funds until you make a deposit.",
  },
  'Billing.MakeDeposit': {
    title: 'Make a deposit',
    content:
      'The cash and checks received and not yet taken to the bank. Select the ones on the deposit slip, give the slip its reference, and make the deposit: the money moves from undeposited funds to the bank. A deposited payment is no longer edited; a refund or a bounced check then comes out of the bank.',
  },
  'Billing.Reports': {
    title: 'Billing reports',
    content:
      'Receivables aging shows what is owed on open invoices by how late it is on the day you choose (today unless you enter another): current (not yet due), 1-30, 31-60, 61-90 and over 90 days past the due date, in total and for the contacts who owe most; a contact opens on their Purchases tab. Revenue by account and month reads the ledger: what was invoiced to each revenue account, less what was voided, month by month. Payments by method and deposits by month are among the reports of the report builder.',
  },
  'Member.Invoices': {
    title: 'Your invoices',
    content:
      'Every invoice the association sent you, what each still owes and when it is due, with your payments and the credits on your account. Open an invoice to see its lines, download it as a PDF, or pay what it owes by card when the association takes cards: a declined card says why and nothing is charged.',
  },
  'Member.Invoice': {
    title: 'Invoice',
    content:
      'One of your invoices: its lines, totals, the payments and credits applied and the balance due. Download PDF gives you the invoice as sent. Pay by card charges the balance due once, however many times the button is pressed; your card details go to the card processor, never to the association.',
  },
  'Member.Membership': {
    title: 'Your membership',
    content:
      'Your membership with the association: its status, the term it covers, its fees and what you owe now. Turn autopay on to have renewals charged to your card on file; a failed charge is tried again a few days later.',
  },
  'Tasks.My': {
    title: 'My tasks',
    content:
      'The tasks assigned to you, soonest due first: overdue ones in red, those due today in orange. A task that waits on others says which. Open a task to tick its checklist, comment (write @username to mail a colleague) or change its status; choose "All" to see the tasks you finished too. You also get a reminder mail each morning for your overdue tasks and those due that day.',
  },
  'Tasks.FromTemplate': {
    title: 'New project from a template',
    content:
      "Choose a template, name the project and give its due date: every task of the template is created due its number of days before or after that date, at its time of day in your association's timezone, and assigned to the owner. Templates are kept under Setup, Project templates.",
  },
  'Setup.Settings': {
    title: 'Settings',
    content:
      "Your association's settings: its name, the time zone every date and time is shown in, how many rows a list shows, how long drafts are kept and notifications stay on screen, and the prefix added to websites typed without one.",
  },
  'Setup.CustomFields': {
    title: 'Custom fields',
    content:
      "Fields of your own on contacts (and other records that take them). Each has a type, a page (forms show one page at a time) and an order on it, and says who sees it: staff only, members on their own record, or members who may also change it. Dropdowns, multiple choices and yes/no fields have choices: add, rename, hide, reorder or delete them; a dropdown with fill-in keeps a built-in Other for answers typed in. A choice can send the form to a later page. Changing a field's type first shows how many stored values would be kept, converted or removed, with examples, and changes nothing until you apply it.",
  },
  'Setup.TermsOfUse': {
    title: 'Terms of use',
    content:
      'The terms staff and members accept before they use the product. Publishing a new version asks everyone of that kind to accept it at their next sign-in; someone who declines is signed out. Earlier versions and who accepted them stay on file.',
  },
  'Setup.Status': {
    title: 'Status messages',
    content:
      'A banner shown to every user of your association, for planned maintenance or news. Users acknowledge it once they have opened it; a new message shows again.',
  },
  'Mail.Outbox': {
    title: 'Mail outbox',
    content:
      'Every email the product sent or will send for your association, newest first, with its delivery state. Open a message to read it as its recipient did. Links that grant access (password resets) are never shown here.',
  },
  'Mail.Message': {
    title: 'A message',
    content:
      'One email as it was sent: recipient, subject, body and delivery attempts. Secrets in it are hidden.',
  },
  'Communications.Mailings': {
    title: 'Mailings',
    content:
      'Messages sent to many contacts at once, newest first, with how their delivery went. Open one to see its delivery log recipient by recipient, or start a new one.',
  },
  'Communications.Mailing': {
    title: 'A mailing',
    content:
      'Write the message (start from a template if you like; merge fields greet each recipient by name), choose who receives it (a filter of the contacts list, applied when the send starts), preview it as any contact and send yourself a test, then send it now or schedule it. Addresses that unsubscribed or bounced are skipped and logged as suppressed. Every message carries an unsubscribe link.',
  },
  'Audit.Log': {
    title: 'Audit log',
    content:
      'Every change to a record: who made it, on whose behalf when someone was impersonating, when, and what changed, field by field. Entries are never edited or deleted.',
  },
  'Dev.QueryTool': {
    title: 'Query tool',
    content:
      "Named queries over your association's records. Type three letters or more in the filter box to narrow the list, choose a query, fill in its parameters, then Run to see the results here a page at a time, or Download CSV for every row (it opens in a spreadsheet). Queries only read, and only your association's records; every run is in the audit log with its parameters. Administrators write their own under Our queries.",
  },
  'Account.TimeZone': {
    title: 'Your time zone',
    content:
      "Times are shown in the association's time zone unless you choose your own here: every list, record, calendar and the audit log then show times in yours, and say which zone they are in.",
  },
  'Account.ChangePassword': {
    title: 'Change your password',
    content:
      'Type your current password, then the new one twice. Use at least 12 characters; a short sentence is easier to remember than symbols. Changing it signs you out everywhere else.',
  },
  'Reports.Catalogue': {
    title: 'Reports',
    content:
      'The reports of your association. Star a report to keep it at the top of the list. Open one to run it; any report can be downloaded as a CSV that opens safely in a spreadsheet.',
  },
  'Reports.View': {
    title: 'A report',
    content:
      "The report's rows, page by page. Click a column heading to sort by it, and download the whole report as a CSV with the button above.",
  },
  'Screens.Menu': {
    title: 'Menu',
    content: 'The pages grouped under this menu. Choose one to open it beside the menu.',
  },
  'Screens.External': {
    title: 'External page',
    content:
      'A page outside Guildhall that your association links to. It opens in a new tab; nothing of your session is shared with it.',
  },
  'Member.Home': {
    title: 'Welcome',
    content:
      'Your member area: open the member directory to find other members, and your profile to keep your own details up to date.',
  },
  'Member.Profile': {
    title: 'Your profile',
    content:
      'Your details as the association holds them. Change what is out of date and save. Whether you appear in the member directory is your choice: tick or clear "Listed in the member directory".',
  },
  'Directory.List': {
    title: 'Member directory',
    content:
      'The members who chose to be listed. Search by name or city; open a member to see the details they publish.',
  },
  'DirectoryContactDetail.General': {
    title: 'A member',
    content: 'What this member publishes in the directory. Only what they chose to share is shown.',
  },
  'Events.Calendar': {
    title: 'Events calendar',
    content:
      'Every occurrence of your events on a month, week, day or agenda calendar, repeating events included, shown in your own timezone. Drafts show too; members see only published events. Use Today, This Month and the other shortcuts to jump; click an occurrence to open its event.',
  },
  'Events.CheckIn': {
    title: 'Check-in',
    content:
      'The door of one occurrence, made for a phone. Type or scan the code printed on the confirmation, or find a person by name or email, then press Check in. A check-in made by mistake can be undone.',
  },
  'EventsDetail.General': {
    title: 'An event',
    content:
      'One event: its details, occurrences, registration types with their fees, and attendees with the waitlist. A repeating event has one occurrence per date; move or cancel one occurrence without changing the rest.',
  },
  'Events.Member': {
    title: 'Events',
    content:
      'What the association has planned, on a calendar in your own timezone. Open an event to register yourself and any guests; your registrations, their check-in codes and cancel are under My registrations.',
  },
  'EventDetail.General': {
    title: 'An event',
    content:
      'Choose the date and, if offered, the registration type, add any guests and register. When the event is full you join the waitlist: if a seat frees you are offered it by email and hold it for 48 hours.',
  },
};

/** Texts for the lists and records of the resources staff use every day. */
const RESOURCE_TEXTS: Readonly<Record<string, Partial<Record<GenericScreenKind, string>>>> = {
  events: {
    List: 'Your events, newest first: conferences, chapter meetings, webinars. Filter by status, category or repeating; open the calendar for a month at a glance. Open an event for its occurrences, registration types and attendees.',
    Record:
      'One event: when and where, who may see it, registration and refund rules, and its tabs: occurrences (each date of a repeating event), registration types with member and non-member fees, and attendees with the waitlist.',
    New: 'A new event. Give it a name, a start and an end; choose how it repeats (a chapter meeting every second Tuesday) and its timezone. It stays a draft, unseen by members, until you publish it.',
  },
  eventDetails: {
    List: 'Each date of the event. A repeating event gets its dates from its rule; a date moved or cancelled by hand stays as it is when the rule changes.',
    Record: 'One occurrence: move it, give it its own venue or capacity, or cancel it.',
    New: 'An extra date of the event, beside those of its repeat rule.',
  },
  eventRegistrationTypes: {
    List: 'How people register and what they pay: member and non-member prices, an early-bird discount until a date, and seats of its own if it has a limit.',
    Record: 'One registration type and its fees.',
    New: 'A registration type: a name (Full conference, One day, Student), its prices and any early-bird discount.',
  },
  eventAttendees: {
    List: 'Everyone registered, waitlisted or cancelled for the event. Only status 4 (registered) counts toward the registered attendees.',
    Record: 'One attendee: their status, check-in and registration type.',
  },
  eventCategories: {
    List: 'Categories group events (conference, chapter meeting, webinar) and colour them on the calendar.',
    Record: 'One category and its calendar colour.',
    New: 'A category: a name and, if you like, a colour such as #1c7ed6.',
  },
  contacts: {
    List: 'Everyone your association deals with: members, prospects, donors, organisations. Search by name, email, phone or account number (one or two letters find the words that begin with them, three or more find them anywhere); filter by status or type; click a column heading to sort. Download the list as a CSV with the export button.',
    Record:
      'One contact: their details, contact information, related contacts (an employee and their organisation) and, as they arrive, memberships, events and payments. Use Edit to change the details.',
    New: 'A new contact. Fill in a first and last name for a person, or the organisation name. Phone numbers keep their country code; you will be warned before saving a likely duplicate.',
  },
  contactEntries: {
    List: "A contact's email addresses, phone numbers and websites. The type is recognised from what you type.",
    Record: 'One email address, phone number or website of a contact.',
    New: 'Type an email address, a phone number (with its country code when it is not North American) or a website.',
  },
  contactLinks: {
    List: 'How this contact relates to others: an employee of an organisation, or its primary contact. Each link shows on both contacts.',
    Record: 'One link between two contacts.',
    New: 'Choose the other contact and how they are related. The link shows on both records.',
  },
  invoices: {
    List: 'Every invoice of the association with its status, due date and what is still owed. Choose a filter for open, partially paid, paid, void or written-off invoices, or filter on the due date to see what is overdue.',
    Record:
      'One invoice: who it bills, its lines, totals and what has been paid. A posted invoice is never edited: a credit note corrects it, a void cancels it once its payments are taken back.',
    Preview: 'An invoice at a glance: number, status, total and balance.',
  },
  payments: {
    List: 'Every payment received: cash, checks, bank transfers and cards, with what was applied to invoices and what was refunded.',
    Record:
      "One payment: who paid, how, and the invoices it paid. What is not applied stays a credit on the contact's account.",
    Preview: 'A payment at a glance: amount, method and status.',
  },
  credits: {
    List: "Credits on contacts' accounts: credit notes, prorated downgrades and cancelled registrations, with what has been applied.",
    Record: 'One credit: its reason, its amount and how much of it has been applied to invoices.',
    Preview: 'A credit at a glance: its reason, its amount and what is left to apply.',
  },
  deposits: {
    List: 'Bank deposits: the cash and checks taken to the bank together, each with its slip.',
    Record: 'One bank deposit: its date, its total and how many payments it holds.',
    Preview: 'A deposit at a glance: its date, its total and its slip reference.',
  },
  ledgerAccounts: {
    List: 'The accounts billing posts to: the bank, undeposited funds, receivables, customer credit, tax payable, and the revenue accounts you add for your fees and items.',
    Record:
      'A ledger account: its code, its name and its kind. The accounts billing uses for its own postings keep their role.',
    New: 'A new account, usually a revenue account for a kind of fee or item (for example 4100 Membership dues).',
  },
  taxSets: {
    List: 'The taxes the association charges: a rate, a flat amount per unit, or both. Items and fees name the tax set that applies to them.',
    Record: 'A tax set: its rate (a percentage of the taxable amount) and its flat amount per unit.',
    New: 'A new tax set, for example Sales tax 8.25%.',
  },
  memberships: {
    List: 'Every membership of the association with its status and the day its term ends. Choose a filter for active, pending, in grace, lapsed or dropped memberships, or filter on the day the term ends to see who is due to renew.',
    Record:
      'One membership: the member, what they hold, its status since when, its term and dues. Approve a pending membership, drop one with a reason, or reinstate a lapsed or dropped one with the buttons at the top; every change is kept in its history.',
    Preview: 'A membership at a glance: status, term and dues.',
  },
  membershipTypes: {
    List: 'The kinds of membership the association offers, with their terms: anniversary terms run a year from the joining day, calendar terms follow a fixed period.',
    Record:
      'A membership type: its term (anniversary or calendar, how long), how a late join in a calendar term is charged and the cut-off after which it starts in the next term, the grace period after the term ends, and how renewals are billed. Its levels, fees and bill frequencies are in the tabs.',
    New: 'A new membership type. Give it a name and its term; add its levels, fees and bill frequencies after saving.',
  },
  membershipLevels: {
    List: 'The levels of this membership type (for example Regular, Senior, Board).',
    Record:
      'A level: its order, how many secondary members an organisation may add, and the answers that choose it.',
    New: 'A new level of the membership type.',
  },
  chapters: {
    List: 'The local chapters a member may belong to.',
    Record: 'A chapter and the region it covers. Members choose a chapter when they join.',
    New: 'A new chapter: its name and the region it covers.',
  },
  membershipFees: {
    List: 'The fees of this membership type: dues, application fees, chapter fees. Rows with the same fee number price one fee per level or chapter.',
    Record:
      'A fee: its price per term and how it is billed (with each bill, once per term, once only, or a fixed amount on every bill), its revenue account and whether discounts apply.',
    New: 'A new fee of the membership type. Set a level or a chapter to price it for that level or chapter only.',
  },
  billFrequencyOptions: {
    List: 'How often members of this type may pay: annually, quarterly, monthly… with a price change for paying in installments.',
    Record:
      'A bill frequency: the percentage added to (or, negative, taken from) recurring fees, and how many bills a term has when it is not the term divided by the frequency.',
    New: 'A new bill frequency members of this type may choose.',
  },
  membershipFeeItems: {
    List: 'The fees of this membership as priced for its term: price per term, bills and the amount of each bill.',
  },
  membershipHistory: {
    List: 'Every change of status of this membership, with its day, its reason and who made it.',
  },
  savedQueries: {
    List: "Your association's own queries for the query tool, written in SQL by an administrator. They show in the query tool beside the ones that come with the product.",
    Record:
      'One query: one SELECT over gh_query.contacts, gh_query.contact_entries and gh_query.contact_links. Write a parameter as :name (cast it where needed, :since::date) and the tool asks for it. A query that changes data, calls a function outside the allowed ones or reads anything but those views is refused when you save it.',
    New: 'A new query: a title, a group to list it under, and one SELECT over the gh_query views. Parameters are written :name.',
  },
  projects: {
    List: 'The projects of your association: their status, owner, due date and progress (the share of their tasks done). Open a project to see its tasks as a list, a board or a calendar. To start from a template, use New project from a template on My tasks.',
    Record:
      "One project: its details, then its tasks as a list, a board (drag a card to another column to change its status; a task cannot start before the tasks it waits on are done) and a calendar of due dates, and the project's activity.",
    New: 'A new project: a name and a status are enough; add the owner, dates and related records as you know them.',
  },
  tasks: {
    List: 'Every task of your association. Filter by status, sort by due date, or open the calendar view to see due dates.',
    Record:
      'One task: its details, assignees, checklist, the tasks it waits on and its comments. A task that repeats is created again, one period later, when it is done.',
    New: "A new task: a title, and a due date and time in your association's timezone. You are its first assignee; add others on its Assignees tab.",
  },
  taskDependencies: {
    List: 'The tasks this task waits on: it cannot start (in progress or done) before they are done or cancelled.',
    New: 'Choose a task this one waits on. A dependency that would make a circle (A waits on B, which waits on A) is refused.',
  },
  taskComments: {
    List: 'What was said about the task, newest first.',
    New: 'Write a comment. Mention a colleague with @ and their username: they get the comment by mail.',
  },
  projectTemplates: {
    List: 'Projects you run again and again (the annual conference, the membership drive), with their tasks. Open one and use Create a project.',
    Record: "One template and its tasks, each due a number of days before or after the project's due date.",
  },
  projectTemplateTasks: {
    List: 'The tasks a project made from the template gets, by days from its due date: -120 is 120 days before.',
    New: "A task of the template: its title, its days from the project's due date (negative before), its time of day and, one per line, its checklist.",
  },
  users: {
    List: 'Everyone who can sign in, with their role and last sign-in.',
    Record: 'One user: role, email, and the contact record they are linked to.',
  },
  helpTexts: {
    List: "The help shown in the panel of each screen (the ? button at the top). Open a screen's text to change what your staff and members read there. A text named Contacts.Tooltip.City (a resource, Tooltip, a field) is the tooltip of that field on its form.",
    Record:
      'The help text of one screen. Write for someone using the screen for the first time: what it is for, and the one or two things people get wrong.',
    New: 'A help text for a screen: its state name (shown in Setup > Help texts) and the text.',
  },
  terms: {
    List: 'Every version of your terms of use, for staff and for members.',
    Record: 'One version of the terms of use.',
  },
  tenantSettings: {
    Record: "Your association's settings. Changes apply to every user at their next page.",
  },
  emailTemplates: {
    List: 'Messages and newsletters your association reuses: welcome letters, renewal reminders, receipts, the monthly newsletter. Duplicate one to start a new one from it; archive those you no longer use (they stay readable and can be restored).',
    Record:
      "One template: its name, what it is used for, the subject and the message. In the message, the { } button inserts a merge field (a chip that becomes each recipient's name, account number and so on when sent; a missing value shows the default you give it), the pen inserts one of your signatures, and the picture inserts an image.",
    New: 'A new template. Give it a name and a subject, then write the message; merge fields greet each recipient personally.',
  },
  samples: {
    List: 'Samples demonstrate every kind of field of the generic screens. They are for testing.',
    Record: 'A sample record with one field of every kind, to try each control.',
    New: 'A new sample record: fill in a name and a status, the rest as you like.',
  },
};

const KIND_WORDS: Record<GenericScreenKind, (title: string) => string> = {
  List: (t) =>
    `The ${t.toLowerCase()} of your association. Search with the box above the list (one or two letters find the words that begin with them, three or more find them anywhere), choose a filter, and click a column heading to sort.`,
  Record: (t) => `One of the ${t.toLowerCase()}. Change what you need and save; Cancel leaves it as it was.`,
  New: (t) => `A new record of the ${t.toLowerCase()}. Fields marked with a star are required.`,
  Preview: (t) => `A short view of one of the ${t.toLowerCase()}. Open it to see and change everything.`,
};

/** One of a list's title ("Bill frequencies" → "Bill frequency", "Addresses" → "Address", "Tax sets" → "Tax set"). */
export function singularTitle(title: string): string {
  if (/ies$/.test(title)) return title.replace(/ies$/, 'y');
  if (/(ss|sh|ch|x)es$/.test(title)) return title.replace(/es$/, '');
  if (/[^su]s$/.test(title) && !/is$/.test(title)) return title.replace(/s$/, '');
  return title;
}

const KIND_TITLES: Record<GenericScreenKind, (title: string) => string> = {
  List: (t) => t,
  Record: (t) => singularTitle(t),
  New: (t) => `New ${singularTitle(t).toLowerCase()}`,
  Preview: (t) => `${singularTitle(t)} preview`,
};

/** Every screen's help text a new association starts with: the fixed screens' and each resource's screens'. */
export function defaultHelpTexts(resources: readonly ResourceDeclaration[]): HelpTextSeed[] {
  const texts: HelpTextSeed[] = Object.entries(SCREENS).map(([stateName, t]) => ({ stateName, ...t }));
  for (const r of resources) {
    const kinds: GenericScreenKind[] = r.singleRecord
      ? ['Record']
      : ['List', 'Record', 'Preview', ...(r.capabilities.create ? (['New'] as const) : [])];
    for (const kind of kinds) {
      const stateName = resourceStateName(r, kind);
      // A screen of its own with the same name (Users.List) is the same screen: its text stands.
      if (texts.some((t) => t.stateName === stateName)) continue;
      texts.push({
        stateName,
        title: KIND_TITLES[kind](r.title),
        content: RESOURCE_TEXTS[r.name]?.[kind] ?? KIND_WORDS[kind](r.title),
      });
    }
  }
  return texts;
}

/** The state names of the screens with a route of their own (every one has a default text). */
export const FIXED_SCREEN_STATES: readonly string[] = Object.keys(SCREENS);

/**
 * The help text that holds a field's tooltip (spec 000 section 7: GET tooltips), edited under Setup > Help texts
 * like any screen's: "Contacts.Tooltip.City". Without one, the field's declared tooltip shows.
 */
export function tooltipStateName(resource: Pick<ResourceDeclaration, 'name'>, field: string): string {
  return `${resource.name.charAt(0).toUpperCase()}${resource.name.slice(1)}.Tooltip.${field}`;
}

/** A help text's content as tooltip text: tags dropped, entities of the editor read, spaces collapsed. */
export function tooltipText(content: string): string {
  return content
    .replace(/<[^>]*>/g, ' ')
    .replaceAll('&nbsp;', ' ')
    .replaceAll('&lt;', '<')
    .replaceAll('&gt;', '>')
    .replaceAll('&quot;', '"')
    .replaceAll('&#39;', "'")
    .replaceAll('&amp;', '&')
    .replace(/\s+/g, ' ')
    .trim();
}

/** The tooltips of a resource's fields: the association's texts over the declared ones; fields without one are left out. */
export function resourceTooltips(
  resource: Pick<ResourceDeclaration, 'name' | 'fields'>,
  written: ReadonlyMap<string, string>,
): Record<string, string> {
  const tips: Record<string, string> = {};
  for (const [field, declared] of Object.entries(resource.fields)) {
    const own = written.get(tooltipStateName(resource, field));
    const text = own !== undefined ? tooltipText(own) : (declared.tooltip ?? '');
    if (text !== '') tips[field] = text;
  }
  return tips;
}
