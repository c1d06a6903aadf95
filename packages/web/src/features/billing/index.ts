import { IconBuildingBank, IconCash, IconFileInvoice, IconReceiptTax } from '@tabler/icons-react';
import { lazy } from 'react';
import type { WebModule } from '../../platform/modules/web-module.ts';

/**
 * Billing: invoices, payments, credits and deposits on the generic screens, the billing setup menu (ledger
 * accounts, tax sets), and the contact record's Purchases tab with the account balance.
 */
export const billingModule: WebModule = {
  name: 'billing',
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
      to: '/micronet/list/billing/deposits',
      label: 'Deposits',
      icon: IconBuildingBank,
      permission: 'backoffice',
      description: 'Bank deposits of cash and checks, with their slips.',
    },
    {
      section: 'setup',
      to: '/micronet/menu/billing-setup',
      label: 'Billing setup',
      icon: IconReceiptTax,
      permission: 'backoffice',
      description: 'Revenue and other ledger accounts, tax sets.',
    },
  ],
  recordTabs: {
    contacts: [
      { key: 'purchases', title: 'Purchases', Panel: lazy(() => import('./contact-account-tab.tsx')) },
    ],
    invoices: [{ key: 'invoice', title: 'Invoice', Panel: lazy(() => import('./invoice-document-tab.tsx')) }],
  },
  recordActions: {
    invoices: lazy(() => import('./invoice-record-actions.tsx')),
  },
};
