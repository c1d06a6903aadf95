/**
 * Billing's routes (back office): invoices, payments and their applications, refunds, bounced checks, credits and
 * credit notes, deposits, a contact's account and the trial balance. Thin: each runs one service call in the
 * caller's tenant transaction (scoped).
 */

import { withTenantTx } from '@guildhall/db';
import {
  agingReportSchema,
  applyCreditSchema,
  applyPaymentSchema,
  billingDashboardSchema,
  chargeResultSchema,
  contactAccountSchema,
  creditNoteSchema,
  depositResultSchema,
  gatewaySettingsAnswerSchema,
  gatewaySettingsSchema,
  invoiceDetailSchema,
  invoiceMailTemplate,
  invoiceSummarySchema,
  memberAccountSchema,
  memberPayFinishSchema,
  memberPaySchema,
  newCreditSchema,
  newDepositSchema,
  newInvoiceSchema,
  newPaymentSchema,
  paymentRecordSchema,
  reasonSchema,
  refundInputSchema,
  revenueQuerySchema,
  revenueReportSchema,
  sendInvoiceAnswerSchema,
  sendInvoiceSchema,
  trialBalanceSchema,
  undepositedPaymentSchema,
} from '@guildhall/shared';
import type { FastifyReply } from 'fastify';
import type { FastifyPluginAsyncZod, ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ownContactIdIfAny, scope } from '../../platform/context.ts';
import { HttpError } from '../../platform/errors.ts';
import { communicationsApi } from '../communications/communications.module.ts';
import * as repo from './billing.repo.ts';
import * as reports from './billing.reports.ts';
import * as service from './billing.service.ts';
import { invoiceImportRoutes } from './invoice-import.routes.ts';
import { trialBalance } from './ledger.ts';

const id = z.coerce.number().int().positive().max(Number.MAX_SAFE_INTEGER);
const idParams = z.object({ id });
const staff = { permission: 'backoffice', scoped: true } as const;
const tags = ['billing'];
const ok = z.object({ ok: z.literal(true) });
const member = { permission: 'member-area', scoped: true, ownRows: true } as const;

/** Answers a PDF as a download (`?open=true`: shown in the browser's viewer instead). */
function sendPdf(reply: FastifyReply, pdf: { fileName: string; bytes: Buffer }, open: boolean) {
  const ascii = pdf.fileName.replace(/[^\w.-]/g, '_');
  reply
    .header('Content-Type', 'application/pdf')
    .header(
      'Content-Disposition',
      `${open ? 'inline' : 'attachment'}; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(pdf.fileName)}`,
    )
    .header('File-Name', ascii)
    .header('Access-Control-Expose-Headers', 'File-Name, Content-Disposition')
    .header('X-Content-Type-Options', 'nosniff');
  return pdf.bytes;
}
const isoDay = z.string().regex(/^\d{4}-\d{2}-\d{2}$/, 'Enter the date as YYYY-MM-DD.');
const pdfQuery = z.object({ open: z.enum(['true', 'false']).optional() });

export const billingRoutes: FastifyPluginAsyncZod = async (app) => {
  const services = () => app.services;
  await app.register(invoiceImportRoutes);

  app.post('/api/billing/invoices/issue', {
    config: staff,
    schema: {
      tags,
      summary: 'Issue an invoice (numbered, posted to the ledger)',
      body: newInvoiceSchema,
      response: { 200: invoiceSummarySchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.createInvoice(tx, services(), auth.tenantId, req.body);
    },
  });

  app.get('/api/billing/invoices/:id', {
    config: staff,
    schema: {
      tags,
      summary: 'An invoice with its lines and applications',
      params: idParams,
      response: { 200: invoiceDetailSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return repo.invoiceDetail(tx, auth.tenantId, req.params.id);
    },
  });

  app.get('/api/billing/invoices/:id/pdf', {
    config: staff,
    schema: {
      tags,
      summary:
        "The invoice as a PDF (the association's logo and address, lines, totals, payments, balance due)",
      params: idParams,
      querystring: pdfQuery,
      produces: ['application/pdf'],
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      const pdf = await service.invoicePdf(tx, services(), auth.tenantId, req.params.id);
      return sendPdf(reply, pdf, req.query.open === 'true');
    },
  });

  app.get('/api/billing/member/account', {
    config: member,
    schema: {
      tags,
      summary:
        "The member's own account: invoices with their balances, payments and credits, the currency and the card gateway",
      response: { 200: memberAccountSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const contactId = await ownContactIdIfAny(req);
      const ctx = await service.contextOf(tx, auth.tenantId);
      const extra = { currency: ctx.currency, cardGateway: service.cardGatewayInfo(ctx) };
      if (contactId === null)
        return {
          contactId: 0,
          openBalanceCents: 0,
          availableCreditCents: 0,
          accountBalanceCents: 0,
          overdueCount: 0,
          invoices: [],
          payments: [],
          credits: [],
          ...extra,
        };
      return { ...(await repo.contactAccount(tx, auth.tenantId, contactId, service.todayIn(ctx))), ...extra };
    },
  });

  app.get('/api/billing/member/invoices/:id', {
    config: member,
    schema: {
      tags,
      summary: "One of the member's own invoices with its lines and payments",
      params: idParams,
      response: { 200: invoiceDetailSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const invoiceId = await service.memberInvoiceId(
        tx,
        auth.tenantId,
        await ownContactIdIfAny(req),
        req.params.id,
      );
      return repo.invoiceDetail(tx, auth.tenantId, invoiceId);
    },
  });

  app.post('/api/billing/member/invoices/:id/pay', {
    config: member,
    schema: {
      tags,
      summary:
        "Pay one of the member's own open invoices by card (the gateway's payment method reference, never a card number)",
      params: idParams,
      body: memberPaySchema,
      response: { 200: chargeResultSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const invoiceId = await service.memberInvoiceId(
        tx,
        auth.tenantId,
        await ownContactIdIfAny(req),
        req.params.id,
      );
      const ctx = await service.contextOf(tx, auth.tenantId);
      if (!service.cardGatewayInfo(ctx))
        throw new HttpError(409, 'Card payments are not set up for this association.');
      return service.chargeCard(tx, services(), auth.tenantId, {
        invoiceId,
        methodRef: req.body.methodRef,
        idempotencyKey: `member:${auth.userId}:${req.body.idempotencyKey}`,
        canAuthenticate: true,
      });
    },
  });

  app.post('/api/billing/member/invoices/:id/pay/finish', {
    config: member,
    schema: {
      tags,
      summary:
        "Finish a card payment of the member's own invoice after they confirmed it with their bank (3-D Secure), from its state at the gateway",
      params: idParams,
      body: memberPayFinishSchema,
      response: { 200: chargeResultSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const invoiceId = await service.memberInvoiceId(
        tx,
        auth.tenantId,
        await ownContactIdIfAny(req),
        req.params.id,
      );
      return service.finishCardPayment(tx, services(), auth.tenantId, {
        invoiceId,
        paymentRef: req.body.paymentRef,
        idempotencyKey: `member:${auth.userId}:${req.body.idempotencyKey}`,
      });
    },
  });

  app.get('/api/billing/settings/gateway', {
    config: staff,
    schema: {
      tags,
      summary: 'The card gateway (keys are never read back)',
      response: { 200: gatewaySettingsAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.gatewaySettings(tx, auth.tenantId);
    },
  });

  app.put('/api/billing/settings/gateway', {
    config: { permission: 'settings.manage', scoped: true },
    schema: {
      tags,
      summary: 'Set the card gateway: none, the offline test gateway, or Stripe with its keys',
      body: gatewaySettingsSchema,
      response: { 200: gatewaySettingsAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.setGatewaySettings(tx, auth.tenantId, req.body);
    },
  });

  // Stripe's webhooks: the raw body is what the signature signs, so this route reads it as text.
  await app.register(async (raw) => {
    raw.addContentTypeParser(
      'application/json',
      { parseAs: 'string', bodyLimit: 512 * 1024 },
      (_req, body, done) => done(null, String(body)),
    );
    raw.withTypeProvider<ZodTypeProvider>().post('/api/billing/webhooks/stripe/:tenantId', {
      config: { permission: 'public' },
      schema: {
        tags,
        summary: "Stripe's webhook of one association (signature checked; each event handled once)",
        params: z.object({ tenantId: z.uuid() }),
        headers: z.object({ 'stripe-signature': z.string().max(2000).optional() }),
        response: {
          200: z.object({ received: z.literal(true), duplicate: z.boolean(), handled: z.string() }),
        },
      },
      handler: async (req) => {
        const signature = req.headers['stripe-signature'];
        if (!signature) throw new HttpError(400, 'The webhook has no Stripe-Signature header.');
        const tenantId = req.params.tenantId;
        return withTenantTx(app.database.db, { tenantId }, (tx) =>
          service.stripeWebhook(tx, services(), tenantId, String(req.body ?? ''), signature),
        );
      },
    });
  });

  app.get('/api/billing/member/invoices/:id/pdf', {
    config: member,
    schema: {
      tags,
      summary: "One of the member's own invoices as a PDF",
      params: idParams,
      querystring: pdfQuery,
      produces: ['application/pdf'],
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      const invoiceId = await service.memberInvoiceId(
        tx,
        auth.tenantId,
        await ownContactIdIfAny(req),
        req.params.id,
      );
      const pdf = await service.invoicePdf(tx, services(), auth.tenantId, invoiceId);
      return sendPdf(reply, pdf, req.query.open === 'true');
    },
  });

  app.post('/api/billing/invoices/:id/send', {
    config: staff,
    schema: {
      tags,
      summary: "Mail the invoice with its PDF attached (to the contact's address unless another is given)",
      params: idParams,
      body: sendInvoiceSchema,
      response: { 200: sendInvoiceAnswerSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const mail = await service.invoiceMail(tx, services(), auth.tenantId, req.params.id, req.body);
      const tenantId = auth.tenantId;
      app.background.run('invoice mail', () =>
        communicationsApi.sendSystemMail(app.services, tenantId, invoiceMailTemplate, {
          to: mail.to,
          values: mail.values,
          ...(mail.attachments ? { attachments: mail.attachments } : {}),
        }),
      );
      return { to: mail.to, subject: mail.subject };
    },
  });

  app.post('/api/billing/invoices/:id/void', {
    config: staff,
    schema: {
      tags,
      summary: 'Void an invoice (its posting is reversed)',
      params: idParams,
      body: reasonSchema,
      response: { 200: invoiceSummarySchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.voidInvoice(tx, services(), auth.tenantId, req.params.id, req.body.reason);
    },
  });

  app.post('/api/billing/invoices/:id/write-off', {
    config: staff,
    schema: {
      tags,
      summary: 'Write off what an invoice still owes',
      params: idParams,
      body: reasonSchema,
      response: { 200: invoiceSummarySchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.writeOffInvoice(tx, services(), auth.tenantId, req.params.id, req.body.reason);
    },
  });

  app.post('/api/billing/invoices/:id/credit-note', {
    config: staff,
    schema: {
      tags,
      summary: 'A credit note for an invoice: a credit applied to it as far as it owes',
      params: idParams,
      body: creditNoteSchema,
      response: { 200: z.object({ creditId: z.number(), appliedCents: z.number() }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.creditNote(tx, services(), auth.tenantId, req.params.id, req.body);
    },
  });

  app.post('/api/billing/payments/record', {
    config: staff,
    schema: {
      tags,
      summary: 'Record a payment and apply it to invoices',
      body: newPaymentSchema,
      response: { 200: paymentRecordSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.recordPayment(tx, services(), auth.tenantId, req.body);
    },
  });

  app.get('/api/billing/payments/:id', {
    config: staff,
    schema: {
      tags,
      summary: 'A payment with its applications and refunds',
      params: idParams,
      response: { 200: paymentRecordSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.paymentRecord(tx, auth.tenantId, req.params.id);
    },
  });

  app.post('/api/billing/payments/:id/apply', {
    config: staff,
    schema: {
      tags,
      summary: 'Apply what is left of a payment to invoices',
      params: idParams,
      body: applyPaymentSchema,
      response: { 200: paymentRecordSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      for (const a of req.body.applications) {
        await service.applyToInvoice(
          tx,
          services(),
          auth.tenantId,
          { paymentId: req.params.id },
          a.invoiceId,
          a.amountCents,
        );
      }
      return service.paymentRecord(tx, auth.tenantId, req.params.id);
    },
  });

  app.post('/api/billing/payments/:id/refund', {
    config: staff,
    schema: {
      tags,
      summary: 'Refund part or all of a payment',
      params: idParams,
      body: refundInputSchema,
      response: { 200: paymentRecordSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.refundPayment(tx, services(), auth.tenantId, req.params.id, req.body);
    },
  });

  app.post('/api/billing/payments/:id/bounce', {
    config: staff,
    schema: {
      tags,
      summary: 'A check came back unpaid: reverse it and reopen its invoices',
      params: idParams,
      response: { 200: paymentRecordSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.bouncePayment(tx, services(), auth.tenantId, req.params.id);
    },
  });

  app.post('/api/billing/applications/:id/unapply', {
    config: staff,
    schema: {
      tags,
      summary: 'Take back an application of a payment or credit',
      params: idParams,
      response: { 200: ok },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      await service.unapply(tx, services(), auth.tenantId, req.params.id);
      return { ok: true as const };
    },
  });

  app.post('/api/billing/credits/issue', {
    config: staff,
    schema: {
      tags,
      summary: "A credit on a contact's account",
      body: newCreditSchema,
      response: { 200: z.object({ creditId: z.number() }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.issueCredit(tx, services(), auth.tenantId, req.body);
    },
  });

  app.post('/api/billing/credits/:id/apply', {
    config: staff,
    schema: {
      tags,
      summary: 'Apply a credit to an invoice',
      params: idParams,
      body: applyCreditSchema,
      response: { 200: z.object({ applicationId: z.number() }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const applicationId = await service.applyToInvoice(
        tx,
        services(),
        auth.tenantId,
        { creditId: req.params.id },
        req.body.invoiceId,
        req.body.amountCents,
      );
      return { applicationId };
    },
  });

  app.get('/api/billing/deposits/undeposited', {
    config: staff,
    schema: {
      tags,
      summary: 'Cash and checks not yet deposited',
      response: { 200: z.object({ Data: z.array(undepositedPaymentSchema) }) },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return { Data: await repo.undepositedPayments(tx, auth.tenantId) };
    },
  });

  app.post('/api/billing/deposits/make', {
    config: staff,
    schema: {
      tags,
      summary: 'Deposit the selected payments in the bank',
      body: newDepositSchema,
      response: { 200: depositResultSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return service.makeDeposit(tx, services(), auth.tenantId, req.body);
    },
  });

  app.get('/api/billing/deposits/:id/slip', {
    config: staff,
    schema: {
      tags,
      summary: "A deposit's printable slip as a PDF (its checks and cash, their counts and totals)",
      params: idParams,
      querystring: pdfQuery,
      produces: ['application/pdf'],
    },
    handler: async (req, reply) => {
      const { tx, auth } = scope(req);
      const pdf = await service.depositSlipPdf(tx, services(), auth.tenantId, req.params.id);
      return sendPdf(reply, pdf, req.query.open === 'true');
    },
  });

  app.post('/api/billing/deposits/:id/reverse', {
    config: staff,
    schema: {
      tags,
      summary: 'Reverse a deposit: its payments are undeposited again',
      params: idParams,
      response: { 200: ok },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      await service.reverseDeposit(tx, services(), auth.tenantId, req.params.id);
      return { ok: true as const };
    },
  });

  app.get('/api/billing/contacts/:id/account', {
    config: staff,
    schema: {
      tags,
      summary: "A contact's account: invoices, payments, credits and balance",
      params: idParams,
      response: { 200: contactAccountSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const ctx = await service.contextOf(tx, auth.tenantId);
      return repo.contactAccount(tx, auth.tenantId, req.params.id, service.todayIn(ctx));
    },
  });

  app.get('/api/billing/reports/aging', {
    config: staff,
    schema: {
      tags,
      summary:
        'Accounts receivable aging: what is owed by days past due (current, 1-30, 31-60, 61-90, over 90)',
      querystring: z.object({ asOf: isoDay.optional() }),
      response: { 200: agingReportSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const ctx = await service.contextOf(tx, auth.tenantId);
      return reports.agingReport(tx, auth.tenantId, ctx, req.query.asOf ?? service.todayIn(ctx));
    },
  });

  app.get('/api/billing/reports/revenue', {
    config: staff,
    schema: {
      tags,
      summary: 'Revenue by account and month, from the ledger (the last 12 months unless a period is given)',
      querystring: revenueQuerySchema,
      response: { 200: revenueReportSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const ctx = await service.contextOf(tx, auth.tenantId);
      return reports.revenueReport(tx, auth.tenantId, ctx, req.query);
    },
  });

  app.get('/api/billing/dashboard', {
    config: staff,
    schema: {
      tags,
      summary: 'Billing figures of the dashboard: open receivables, overdue invoices, revenue this month',
      response: { 200: billingDashboardSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      const ctx = await service.contextOf(tx, auth.tenantId);
      return reports.billingDashboard(tx, auth.tenantId, ctx);
    },
  });

  app.get('/api/billing/ledger/trial-balance', {
    config: staff,
    schema: {
      tags,
      summary: 'Debits and credits per account (they always balance)',
      response: { 200: trialBalanceSchema },
    },
    handler: async (req) => {
      const { tx, auth } = scope(req);
      return trialBalance(tx, auth.tenantId);
    },
  });
};
