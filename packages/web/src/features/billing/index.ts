import {
  IconBuildingBank,
  IconCash,
  IconCashRegister,
  IconCreditCard,
  IconFileInvoice,
  IconReceiptTax,
  IconReportMoney,
} from '@tabler/icons-react';
import { lazy } from 'react';
import { page, screen } from '../../platform/modules/routing.tsx';
import type { WebModule } from '../../platform/modules/web-module.ts';

const member = () => import('./member-invoices-page.tsx');
const widget = (name: 'OpenReceivables' | 'OverdueInvoices' | 'RevenueThisMonth') =>
  lazy(() => import('./billing-widgets.tsx').then((m) => ({ default: m[name] })));

/**
 * Billing: invoices, payments, credits and deposits on the generic screens, the billing setup menu (ledger
 * accounts, tax sets), the contact record's Purchases tab with the account balance, and the member area's
 * invoices (a PDF of each, paying an open one by card).
 */
export const billingModule: WebModule = {
  name: 'billing',
  memberShortcuts: [
    {
      to: '/m/invoices',
      title: 'Your invoices',
      description: 'What you owe, your invoices as PDF, your payments and credits; pay an invoice by card.',
      action: 'View your invoices',
      icon: IconFileInvoice,
      order: 30,
      Summary: lazy(() => import('./member-summary.tsx')),
    },
  ],
  backOffice: [
    page(
      'billing/payments/record',
      { stateName: 'Billing.RecordPayment', title: 'Record a payment' },
      screen(
        () => import('./record-payment-page.tsx'),
        (m) => m.RecordPaymentPage,
      ),
    ),
    page(
      'billing/deposits/make',
      { stateName: 'Billing.MakeDeposit', title: 'Make a deposit' },
      screen(
        () => import('./make-deposit-page.tsx'),
        (m) => m.MakeDepositPage,
      ),
    ),
    page(
      'billing/reports',
      { stateName: 'Billing.Reports', title: 'Billing reports' },
      screen(
        () => import('./billing-reports-page.tsx'),
        (m) => m.BillingReportsPage,
      ),
    ),
    page(
      'billing/settings/gateway',
      { stateName: 'Billing.GatewaySettings', title: 'Card payments' },
      screen(
        () => import('./gateway-settings-page.tsx'),
        (m) => m.GatewaySettingsPage,
      ),
    ),
  ],
  memberArea: [
    page(
      'invoices',
      { stateName: 'Member.Invoices', title: 'Your invoices' },
      screen(member, (m) => m.MemberInvoicesPage),
    ),
    page(
      'invoices/:id',
      { stateName: 'Member.Invoice', title: 'Invoice' },
      screen(member, (m) => m.MemberInvoicePage),
    ),
  ],
  nav: [
    {
      section: 'people',
      to: '/micronet/list/billing/invoices',
      label: 'Invoices',
      icon: IconFileInvoice,
      permission: 'backoffice',
      description: 'Every invoice: open, overdue, paid, void; what each contact owes.',
    },
    {
      section: 'people',
      to: '/micronet/list/billing/payments',
      label: 'Payments',
      icon: IconCash,
      permission: 'backoffice',
      description: 'Payments received by cash, check, transfer and card; refunds and bounced checks.',
    },
    {
      section: 'people',
      to: '/a/billing/payments/record',
      label: 'Record a payment',
      icon: IconCashRegister,
      permission: 'backoffice',
      description: 'A check, cash or a transfer received, applied to open invoices.',
    },
    {
      section: 'people',
      to: '/micronet/list/billing/deposits',
      label: 'Deposits',
      icon: IconBuildingBank,
      permission: 'backoffice',
      description: 'Bank deposits of cash and checks, with their slips.',
    },
    {
      section: 'people',
      to: '/a/billing/deposits/make',
      label: 'Make a deposit',
      icon: IconBuildingBank,
      permission: 'backoffice',
      description: 'Take the cash and checks received to the bank together.',
    },
    {
      section: 'people',
      to: '/a/billing/reports',
      label: 'Billing reports',
      icon: IconReportMoney,
      permission: 'backoffice',
      description: 'Receivables aging (current to over 90 days) and revenue by account and month.',
    },
    {
      section: 'setup',
      to: '/micronet/menu/billing-setup',
      label: 'Billing setup',
      icon: IconReceiptTax,
      permission: 'backoffice',
      description: 'Revenue and other ledger accounts, tax sets.',
    },
    {
      section: 'setup',
      to: '/a/billing/settings/gateway',
      label: 'Card payments',
      icon: IconCreditCard,
      permission: 'settings.manage',
      description: 'How members pay by card: no card payments, the test gateway, or Stripe and its keys.',
    },
  ],
  recordTabs: {
    contacts: [
      { key: 'purchases', title: 'Purchases', Panel: lazy(() => import('./contact-account-tab.tsx')) },
    ],
    invoices: [{ key: 'invoice', title: 'Invoice', Panel: lazy(() => import('./invoice-document-tab.tsx')) }],
  },
  listActions: {
    invoices: { permission: 'backoffice', Action: lazy(() => import('./invoice-import-dialog.tsx')) },
  },
  recordActions: {
    invoices: lazy(() => import('./invoice-record-actions.tsx')),
    payments: lazy(() => import('./payment-record-actions.tsx')),
    deposits: lazy(() => import('./deposit-record-actions.tsx')),
  },
  dashboardWidgets: [
    {
      key: 'billing.openReceivables',
      title: 'Open receivables',
      permission: 'backoffice',
      size: { w: 2, h: 3 },
      Component: widget('OpenReceivables'),
    },
    {
      key: 'billing.overdue',
      title: 'Overdue invoices',
      permission: 'backoffice',
      size: { w: 2, h: 3 },
      Component: widget('OverdueInvoices'),
    },
    {
      key: 'billing.revenueThisMonth',
      title: 'Revenue this month',
      permission: 'backoffice',
      size: { w: 2, h: 3 },
      Component: widget('RevenueThisMonth'),
    },
  ],
};
