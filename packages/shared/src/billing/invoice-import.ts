/**
 * "Create invoices from file" (issue 15): the columns a CSV file of invoice lines may fill, the mapping suggested
 * from its headers, and the rule that reads one row into an invoice line (or the reasons it is refused). Rows with
 * the same contact and the same Invoice reference make one invoice; a row without a reference is an invoice alone.
 */
import { z } from 'zod';
import { tryToCents } from '../platform/fields/money.ts';

export const INVOICE_IMPORT_FIELDS = [
  {
    Id: 'AccountNumber',
    Name: 'Account number',
    headers: ['account number', 'account', 'account no', 'member id'],
  },
  { Id: 'Email', Name: 'Email', headers: ['email', 'e-mail', 'email address'] },
  {
    Id: 'Reference',
    Name: 'Invoice reference',
    headers: ['invoice reference', 'reference', 'invoice', 'ref'],
  },
  {
    Id: 'Description',
    Name: 'Item / description',
    headers: ['description', 'item', 'item description', 'line'],
  },
  { Id: 'Quantity', Name: 'Quantity', headers: ['quantity', 'qty'] },
  { Id: 'UnitPrice', Name: 'Unit price', headers: ['unit price', 'price', 'amount', 'unit amount'] },
  {
    Id: 'RevenueAccount',
    Name: 'Revenue account',
    headers: ['revenue account', 'revenue', 'gl account', 'income account'],
  },
  { Id: 'IssueDate', Name: 'Invoice date', headers: ['invoice date', 'issue date', 'date'] },
  { Id: 'DueDate', Name: 'Due date', headers: ['due date', 'due'] },
  { Id: 'Memo', Name: 'Memo', headers: ['memo', 'note', 'notes'] },
] as const;
export type InvoiceImportField = (typeof INVOICE_IMPORT_FIELDS)[number]['Id'];
export const INVOICE_IMPORT_FIELD_IDS = INVOICE_IMPORT_FIELDS.map((f) => f.Id) as InvoiceImportField[];
export type InvoiceImportMapping = Partial<Record<InvoiceImportField, string>>;

const norm = (h: string) =>
  h
    .trim()
    .toLowerCase()
    .replace(/[_\s]+/g, ' ');

/** The column each field takes, by its header (each column used once). */
export function suggestInvoiceMapping(headers: readonly string[]): InvoiceImportMapping {
  const out: InvoiceImportMapping = {};
  const used = new Set<string>();
  for (const field of INVOICE_IMPORT_FIELDS) {
    const hit = headers.find((h) => !used.has(h) && (field.headers as readonly string[]).includes(norm(h)));
    if (hit) {
      out[field.Id] = hit;
      used.add(hit);
    }
  }
  return out;
}

/** A mapping must say who is billed (account number or email), what (description) and for how much (unit price). */
export function invoiceMappingProblems(mapping: InvoiceImportMapping): string[] {
  const problems: string[] = [];
  if (!mapping.AccountNumber && !mapping.Email) problems.push('Map the account number or the email column.');
  if (!mapping.Description) problems.push('Map the item / description column.');
  if (!mapping.UnitPrice) problems.push('Map the unit price column.');
  return problems;
}

export interface InvoiceImportLine {
  accountNumber: string | null;
  email: string | null;
  reference: string | null;
  description: string;
  quantity: number;
  unitPriceCents: number;
  revenueAccount: string | null;
  issueDate: string | null;
  dueDate: string | null;
  memo: string | null;
}

const ISO_DATE = /^\d{4}-\d{2}-\d{2}$/;
function validDate(text: string): boolean {
  if (!ISO_DATE.test(text)) return false;
  const d = new Date(`${text}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().slice(0, 10) === text;
}

/** One row of the file as an invoice line, or every reason it cannot be one. */
export function invoiceImportRowOf(
  row: Record<string, string>,
  mapping: InvoiceImportMapping,
): { ok: true; line: InvoiceImportLine } | { ok: false; reasons: string[] } {
  const cell = (f: InvoiceImportField) => {
    const header = mapping[f];
    const v = header === undefined ? '' : (row[header] ?? '').trim();
    return v === '' ? null : v;
  };
  const reasons: string[] = [];
  const accountNumber = cell('AccountNumber');
  const email = cell('Email')?.toLowerCase() ?? null;
  if (!accountNumber && !email) reasons.push('Give the contact’s account number or email.');
  if (email && !/^[^\s@]+@[^\s@]+\.[^\s@]+$/.test(email)) reasons.push(`"${email}" is not an email address.`);
  const description = cell('Description') ?? '';
  if (!description) reasons.push('Enter a description.');
  else if (description.length > 500) reasons.push('The description is longer than 500 characters.');
  const qtyText = cell('Quantity') ?? '1';
  const quantity = /^\d+$/.test(qtyText) ? Number(qtyText) : Number.NaN;
  if (!Number.isSafeInteger(quantity) || quantity < 1 || quantity > 1_000_000)
    reasons.push('The quantity must be a whole number of at least 1.');
  const priceText = (cell('UnitPrice') ?? '').replace(/^[$€£]/, '').replace(/,/g, '');
  const unitPriceCents = /^\d+(\.\d{1,2})?$/.test(priceText) ? tryToCents(priceText) : null;
  if (priceText === '') reasons.push('Enter the unit price.');
  else if (unitPriceCents === null || unitPriceCents > 100_000_000_00)
    reasons.push(`"${cell('UnitPrice')}" is not a price (zero or more, at most two decimals).`);
  const issueDate = cell('IssueDate');
  const dueDate = cell('DueDate');
  if (issueDate && !validDate(issueDate)) reasons.push('Enter the invoice date as YYYY-MM-DD.');
  if (dueDate && !validDate(dueDate)) reasons.push('Enter the due date as YYYY-MM-DD.');
  if (issueDate && dueDate && validDate(issueDate) && validDate(dueDate) && dueDate < issueDate)
    reasons.push('The due date cannot be before the invoice date.');
  if (reasons.length > 0) return { ok: false, reasons };
  return {
    ok: true,
    line: {
      accountNumber,
      email,
      reference: cell('Reference'),
      description,
      quantity,
      unitPriceCents: unitPriceCents ?? 0,
      revenueAccount: cell('RevenueAccount'),
      issueDate,
      dueDate,
      memo: cell('Memo'),
    },
  };
}

const mappingShape = Object.fromEntries(
  INVOICE_IMPORT_FIELD_IDS.map((f) => [f, z.string().max(200).optional()]),
) as Record<InvoiceImportField, z.ZodOptional<z.ZodString>>;
export const invoiceImportMappingSchema = z.object(mappingShape).strict();

export const invoiceImportUploadSchema = z.object({
  ImportId: z.uuid(),
  FileName: z.string(),
  Columns: z.array(z.string()),
  Rows: z.number().int(),
  Sample: z.array(z.record(z.string(), z.string())),
  Fields: z.array(z.object({ Id: z.string(), Name: z.string() })),
  Mapping: z.record(z.string(), z.string()),
});

export const invoiceImportDryRunSchema = z.object({
  ImportId: z.uuid(),
  Rows: z.number().int(),
  Invoices: z.number().int(),
  TotalCents: z.number().int(),
  Rejected: z.number().int(),
  /** The invoices that would be created (the first 200). */
  Planned: z.array(
    z.object({
      Rows: z.array(z.number().int()),
      ContactId: z.number().int(),
      ContactName: z.string(),
      Lines: z.number().int(),
      TotalCents: z.number().int(),
      DueDate: z.string().nullable(),
    }),
  ),
  /** The rows refused, with their line in the file and why (the first 500). */
  RejectedRows: z.array(z.object({ Row: z.number().int(), Reasons: z.array(z.string()) })),
  Truncated: z.boolean(),
});

export const invoiceImportStatusSchema = z.object({
  ImportId: z.uuid(),
  FileName: z.string(),
  Status: z.string(),
  Total: z.number().int(),
  Processed: z.number().int(),
  Created: z.number().int(),
  Rejected: z.number().int(),
  RejectedRows: z.array(z.object({ Row: z.number().int(), Reasons: z.array(z.string()) })),
  Error: z.string().nullable(),
});
export type InvoiceImportStatus = z.infer<typeof invoiceImportStatusSchema>;
export type InvoiceImportDryRun = z.infer<typeof invoiceImportDryRunSchema>;
