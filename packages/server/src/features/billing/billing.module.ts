/**
 * The billing feature (issue 15) and the engine other features bill through. Memberships and events never write
 * money tables: they call `billingApi` (in their own transaction) and subscribe to the events billing publishes
 * (`invoice.paid`, `invoice.voided`, `invoice.reopened`, `payment.failed`; payload schemas in
 * shared/src/billing/billing.events.ts), checking the invoice's `source.kind`.
 */
import type { Tx } from '@guildhall/db';
import { BILLING_EVENTS, invoiceMailTemplate, TENANT_PROVISIONED } from '@guildhall/shared';
import { defineFeature } from '../../platform/feature-module.ts';
import type { Services } from '../../platform/services.ts';
import { provisionDefaultBilling } from './billing.defaults.ts';
import { billingRoutes } from './billing.routes.ts';
import * as service from './billing.service.ts';
import { INVOICE_IMPORT_JOB, invoiceImportHandler } from './invoice-import.ts';

export type { InvoiceSource, InvoiceSummary, NewInvoice, NewInvoiceLine } from './billing.service.ts';
export { INVOICE_BATCH_MAX } from './billing.service.ts';
/** The PDF setup of billing documents (Letter, DejaVu Sans embedded, page footers) for other features' documents. */
export { billingDocument, INK, MUTED, pageFooters, RULE } from './invoice-pdf.ts';

export const billingApi: {
  createInvoice(
    tx: Tx,
    services: Services,
    tenantId: string,
    input: service.NewInvoice,
  ): Promise<service.InvoiceSummary>;
  /**
   * Many invoices in a few statements (at most `INVOICE_BATCH_MAX`): the same rules as `createInvoice`, one
   * summary per input in order; a used idempotency key answers its existing invoice.
   */
  createInvoices(
    tx: Tx,
    services: Services,
    tenantId: string,
    inputs: readonly service.NewInvoice[],
  ): Promise<service.InvoiceSummary[]>;
  voidInvoice(
    tx: Tx,
    services: Services,
    tenantId: string,
    invoiceId: number,
    reason: string,
  ): Promise<service.InvoiceSummary>;
  invoiceSummary(tx: Tx, tenantId: string, invoiceId: number): Promise<service.InvoiceSummary>;
  chargeSavedCard(
    tx: Tx,
    services: Services,
    tenantId: string,
    input: { invoiceId: number; idempotencyKey: string },
  ): Promise<{ ok: boolean; paymentId?: number; message?: string }>;
  issueCredit(
    tx: Tx,
    services: Services,
    tenantId: string,
    input: { contactId: number; amountCents: number; reason: string; source?: service.InvoiceSource },
  ): Promise<{ creditId: number }>;
  /** A credit for an invoice's contact, applied to that invoice as far as it owes (the rest stays credit). */
  creditNote(
    tx: Tx,
    services: Services,
    tenantId: string,
    invoiceId: number,
    input: { amountCents: number; reason: string },
  ): Promise<{ creditId: number; appliedCents: number }>;
} = {
  createInvoice: service.createInvoice,
  createInvoices: service.createInvoices,
  voidInvoice: service.voidInvoice,
  invoiceSummary: service.invoiceSummary,
  chargeSavedCard: (tx, services, tenantId, input) => service.chargeCard(tx, services, tenantId, input),
  issueCredit: (tx, services, tenantId, input) => service.issueCredit(tx, services, tenantId, input),
  creditNote: service.creditNote,
};

export const billingModule = defineFeature({
  name: 'billing',
  routes: billingRoutes,
  jobs: { [INVOICE_IMPORT_JOB]: invoiceImportHandler },
  mailTemplates: [invoiceMailTemplate],
  publishes: BILLING_EVENTS,
  subscribes: { [TENANT_PROVISIONED]: () => provisionDefaultBilling },
});
