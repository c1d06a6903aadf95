/** The system message of billing (decision 0154): an invoice mailed with its PDF, reworded in Communications. */
import { defineSystemTemplate } from '../platform/system-templates.ts';

export const invoiceMailTemplate = defineSystemTemplate({
  Key: 'billing.invoice',
  Title: 'Invoice',
  Description: 'An invoice mailed to its contact, with its PDF attached (Send on the invoice).',
  Group: 'Billing',
  Subject: 'Invoice {{Invoice.Number}} from {{Association.Name}}',
  BodyHtml:
    '<p>Dear {{Invoice.FirstName}},</p><p>Please find attached invoice {{Invoice.Number}} of {{Invoice.IssueDate}} for {{Invoice.Total}}. {{Invoice.Owed}}</p><p>{{Invoice.Note}}</p><p>With our thanks,<br>{{Association.Name}}</p>',
  Fields: [
    { Name: 'Invoice.FirstName', Description: 'First name of the contact billed', Sample: 'Ada' },
    { Name: 'Invoice.Number', Description: 'Number of the invoice', Sample: 'INV-000123' },
    { Name: 'Invoice.IssueDate', Description: 'Date the invoice was issued', Sample: 'November 26, 2026' },
    { Name: 'Invoice.Total', Description: 'Total of the invoice', Sample: '$120.00' },
    { Name: 'Invoice.Balance', Description: 'Balance still due', Sample: '$120.00' },
    {
      Name: 'Invoice.Owed',
      Description: 'What is owed (the balance and its due date, void, or paid in full)',
      Sample: 'The balance due is $120.00, by December 26, 2026.',
    },
    { Name: 'Invoice.Note', Description: 'The message staff add when sending', Sample: '' },
  ],
});
