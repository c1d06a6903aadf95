/**
 * CSV import of contacts: which columns map to which contact fields, and what one row becomes. The same rules
 * answer the dry run and run the commit, so a dry run predicts the commit exactly.
 */

import { csvLine, UTF8_BOM } from '../platform/csv.rules.ts';
import { normalizeModel } from '../platform/resource-model.ts';
import { contactsResource } from './contacts.resource.ts';
import { CONTACT_STATUSES, CONTACT_TYPES, emailKey } from './contacts.rules.ts';
import { detectEntryType } from './entry.rules.ts';
import { parseFullName } from './name.rules.ts';

/** Contact fields a column can fill; `FullName` is split by the name rules, `ContactInfo` is detected by type. */
export const IMPORT_FIELDS = [
  { Id: 'FirstName', Name: 'First name', aliases: ['first', 'given name', 'forename'] },
  { Id: 'LastName', Name: 'Last name', aliases: ['last', 'surname', 'family name'] },
  { Id: 'FullName', Name: 'Full name', aliases: ['name', 'contact name', 'full name'] },
  { Id: 'OrganizationName', Name: 'Organization', aliases: ['organisation', 'company', 'employer'] },
  { Id: 'ContactType', Name: 'Contact type', aliases: ['type'] },
  { Id: 'Status', Name: 'Status', aliases: [] },
  { Id: 'AccountNumber', Name: 'Account number', aliases: ['account', 'account no', 'member number'] },
  { Id: 'Email', Name: 'Email', aliases: ['e-mail', 'email address', 'mail'] },
  { Id: 'Phone', Name: 'Phone', aliases: ['telephone', 'phone number', 'tel', 'mobile'] },
  { Id: 'Website', Name: 'Website', aliases: ['web', 'url', 'web site'] },
  { Id: 'ContactInfo', Name: 'Email, phone or website', aliases: ['contact info', 'contact'] },
  { Id: 'Address1', Name: 'Address 1', aliases: ['address', 'street', 'address line 1'] },
  { Id: 'Address2', Name: 'Address 2', aliases: ['address line 2'] },
  { Id: 'City', Name: 'City', aliases: ['town'] },
  { Id: 'StateProvince', Name: 'State or province', aliases: ['state', 'province', 'region'] },
  { Id: 'PostalCode', Name: 'Postal code', aliases: ['zip', 'zip code', 'postcode', 'postal'] },
  { Id: 'CountryCode', Name: 'Country code', aliases: ['country'] },
  { Id: 'Notes', Name: 'Notes', aliases: ['note', 'comments'] },
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number]['Id'];
export const IMPORT_FIELD_IDS: readonly ImportField[] = IMPORT_FIELDS.map((f) => f.Id);

/** A custom field of contacts a column can fill (decision 0111): `cf_<id>`, as lists name it. */
export type CustomImportField = `cf_${number}`;
export const CUSTOM_IMPORT_FIELD = /^cf_[1-9]\d{0,15}$/;

/** Field → column header. */
export type ImportMapping = Partial<Record<ImportField | CustomImportField, string>>;

const key = (s: string) =>
  s
    .trim()
    .toLowerCase()
    .replace(/[\s_.-]+/g, ' ');

/** The mapping a user starts from: each header matched to a field by its id, label or a common alias. */
export function suggestMapping(
  headers: readonly string[],
  /** The custom fields a column can fill: a header that is a field's name fills it. */
  custom: readonly { Id: string; Name: string }[] = [],
): ImportMapping {
  const mapping: ImportMapping = {};
  for (const field of [...IMPORT_FIELDS, ...custom.map((c) => ({ ...c, aliases: [] as string[] }))]) {
    const names = new Set([key(field.Id), key(field.Name), ...field.aliases.map(key)]);
    const header = headers.find(
      (h) => names.has(key(h)) || key(h).replace(/ /g, '') === field.Id.toLowerCase(),
    );
    if (header !== undefined && !Object.values(mapping).includes(header))
      mapping[field.Id as keyof ImportMapping] = header;
  }
  return mapping;
}

/** Columns a mapping names that the file does not have (a 400 before anything runs). */
export function unknownMappedColumns(mapping: ImportMapping, headers: readonly string[]): string[] {
  return Object.values(mapping).filter((h): h is string => h !== undefined && !headers.includes(h));
}

export type ImportRow =
  | { ok: true; model: Record<string, unknown>; email: string | null; accountNumber: string | null }
  | { ok: false; reasons: string[] };

/** How an import shows a row: its person's first and last name, else its full name, else its organisation. */
export function importRowName(row: Readonly<Record<string, string>>, mapping: ImportMapping): string {
  const value = (field: ImportField): string => {
    const header = mapping[field];
    return header === undefined ? '' : (row[header] ?? '').trim();
  };
  const person = [value('FirstName'), value('LastName')].filter((v) => v !== '').join(' ');
  return person || value('FullName') || value('OrganizationName');
}

/** What the commit does with the rows the plan rejects. */
export const IMPORT_MODES = ['validRows', 'allOrNothing'] as const;
export type ImportMode = (typeof IMPORT_MODES)[number];

/**
 * The rejected rows as a CSV file the user can fix and import again: the file's own columns, then the row's line
 * in the original file and the reasons it was rejected. Starts with a byte order mark, so spreadsheets read UTF-8.
 */
export function rejectedRowsCsv(
  headers: readonly string[],
  rows: readonly { line: number; cells: Readonly<Record<string, string>>; reasons: readonly string[] }[],
): string {
  const lines = [csvLine([...headers, 'Row', 'Reasons'])];
  for (const r of rows)
    lines.push(csvLine([...headers.map((h) => r.cells[h] ?? ''), String(r.line), r.reasons.join(' ')]));
  return `${UTF8_BOM}${lines.join('\r\n')}\r\n`;
}

function optionId(options: readonly { Id: string; Name: string }[], text: string): string | null {
  const k = key(text);
  return options.find((o) => key(o.Id) === k || key(o.Name) === k)?.Id ?? null;
}

/**
 * One CSV row as a contact model, or the reasons it is rejected. Names: a full name is split into first and last;
 * the type defaults to organisation when there is an organisation and no person's name. A `ContactInfo` value
 * fills the email, phone or website its text is detected as. Every field then passes the contact rules (email
 * validation, phone digits, website prefix, lengths), as a save would.
 */
export function importRowOf(
  row: Readonly<Record<string, string>>,
  mapping: ImportMapping,
  options: { websitePrefix?: string } = {},
): ImportRow {
  const value = (field: ImportField): string => {
    const header = mapping[field];
    return header === undefined ? '' : (row[header] ?? '').trim();
  };
  const reasons: string[] = [];
  const model: Record<string, unknown> = {};
  for (const field of IMPORT_FIELD_IDS) {
    if (field === 'FullName' || field === 'ContactInfo' || field === 'ContactType' || field === 'Status')
      continue;
    const v = value(field);
    if (v !== '') model[field] = v;
  }
  const full = value('FullName');
  if (full !== '' && model.FirstName === undefined && model.LastName === undefined) {
    const parsed = parseFullName(full);
    if (parsed.FirstName) model.FirstName = parsed.FirstName;
    if (parsed.LastName) model.LastName = parsed.LastName;
    if (!parsed.FirstName && !parsed.LastName) reasons.push(`The name "${full}" could not be read.`);
  }
  const info = value('ContactInfo');
  if (info !== '') {
    const type = detectEntryType(info);
    const target =
      type === 'email' ? 'Email' : type === 'phone' ? 'Phone' : type === 'website' ? 'Website' : null;
    if (!target) reasons.push(`"${info}" is not an email address, a phone number or a website.`);
    else if (model[target] === undefined) model[target] = info;
  }
  const typeText = value('ContactType');
  const hasPerson = model.FirstName !== undefined || model.LastName !== undefined;
  let type: string | null = hasPerson || model.OrganizationName === undefined ? 'individual' : 'organization';
  if (typeText !== '') {
    type = optionId(CONTACT_TYPES, typeText);
    if (!type) reasons.push(`Contact type "${typeText}" is not one of individual, organization.`);
  }
  model.ContactType = type ?? 'individual';
  const statusText = value('Status');
  const status = statusText === '' ? 'active' : optionId(CONTACT_STATUSES, statusText);
  if (!status)
    reasons.push(
      `Status "${statusText}" is not one of ${CONTACT_STATUSES.map((s) => s.Name.toLowerCase()).join(', ')}.`,
    );
  model.Status = status ?? 'active';
  if (model.ContactType === 'organization' && model.OrganizationName === undefined)
    reasons.push('An organization needs its name.');
  if (model.ContactType === 'individual' && !hasPerson)
    reasons.push('A person needs a first or a last name.');
  const { model: normalized, errors } = normalizeModel(contactsResource, model, {
    ...(options.websitePrefix ? { websitePrefix: options.websitePrefix } : {}),
  });
  for (const [field, messages] of Object.entries(errors)) {
    const fields: Record<string, { label?: string } | undefined> = contactsResource.fields;
    const label = fields[field]?.label ?? field;
    for (const m of messages) reasons.push(`${label}: ${m}`);
  }
  if (reasons.length > 0) return { ok: false, reasons };
  // Only what the file gave: an update must not blank the fields the file does not carry.
  const given = Object.fromEntries(Object.entries(normalized).filter(([k]) => k in model));
  const account = typeof given.AccountNumber === 'string' ? given.AccountNumber : null;
  return { ok: true, model: given, email: emailKey(given.Email), accountNumber: account };
}
