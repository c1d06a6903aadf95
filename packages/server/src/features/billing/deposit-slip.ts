/**
 * A bank deposit's printable slip (issue 15): the association's letterhead, the deposit's date, bank account and
 * slip reference, every check (with its number and who paid) and the cash, the count and total of each, and the
 * deposit's total, with a line for who took it to the bank. Drawn with the invoice's pdfkit setup (DejaVu Sans
 * embedded, the same letterhead and page footers, decision 0124).
 */
import { formatMoney } from '@guildhall/shared';
import {
  ACCENT,
  associationHeader,
  billingDocument,
  formatDay,
  INK,
  type InvoicePdfData,
  MUTED,
  pageFooters,
  RULE,
} from './invoice-pdf.ts';

export interface DepositSlipData {
  association: InvoicePdfData['association'];
  currency: string;
  deposit: {
    depositId: number;
    depositDate: string;
    reference: string | null;
    bankAccount: string;
    status: string;
    totalCents: number;
  };
  payments: {
    paymentId: number;
    paidOn: string;
    payer: string;
    method: string;
    checkNumber: string | null;
    amountCents: number;
  }[];
}

export async function renderDepositSlip(data: DepositSlipData): Promise<Buffer> {
  const money = (cents: number) => formatMoney(cents, { currency: data.currency });
  const d = data.deposit;
  const { doc, done } = await billingDocument({
    Title: `Deposit slip ${d.depositId}`,
    Author: data.association.name,
    Subject: `Bank deposit of ${formatDay(d.depositDate)}`,
  });
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;
  let y = associationHeader(doc, data.association) + 24;
  doc.font('Bold').fontSize(22).fillColor(ACCENT).text('DEPOSIT SLIP', left, y);
  if (d.status === 'reversed')
    doc
      .font('Bold')
      .fontSize(16)
      .fillColor('#c92a2a')
      .text('REVERSED', left, y + 4, { width, align: 'right' });
  y += 36;
  const checks = data.payments
    .filter((p) => p.method === 'check')
    .sort((a, b) => (a.checkNumber ?? '').localeCompare(b.checkNumber ?? '', 'en', { numeric: true }));
  const cash = data.payments.filter((p) => p.method !== 'check');
  const sum = (ps: typeof data.payments) => ps.reduce((s, p) => s + p.amountCents, 0);
  const facts: [string, string][] = [
    ['Deposit', String(d.depositId)],
    ['Date', formatDay(d.depositDate)],
    ['Bank account', d.bankAccount],
    ['Slip reference', d.reference ?? '—'],
  ];
  facts.forEach(([k, v], n) => {
    doc
      .font('Body')
      .fontSize(9)
      .fillColor(MUTED)
      .text(k, left, y + n * 14, { width: 100 });
    doc
      .font('Bold')
      .fillColor(INK)
      .text(v, left + 100, y + n * 14, { width: width / 2 - 100 });
  });
  const summary: [string, string][] = [
    [`Checks (${checks.length})`, money(sum(checks))],
    [`Cash (${cash.length})`, money(sum(cash))],
    ['Total deposit', money(d.totalCents)],
  ];
  summary.forEach(([k, v], n) => {
    const strong = n === summary.length - 1;
    doc
      .font(strong ? 'Bold' : 'Body')
      .fontSize(strong ? 11 : 9.5)
      .fillColor(INK);
    doc.text(k, right - 230, y + n * 16, { width: 130 });
    doc.text(v, right - 100, y + n * 16, { width: 100, align: 'right' });
  });
  y += Math.max(facts.length * 14, summary.length * 16) + 24;

  const cols = [
    { title: 'Received', x: left, w: 80, align: 'left' as const },
    { title: 'From', x: left + 80, w: width - 330, align: 'left' as const },
    { title: 'Method', x: right - 250, w: 70, align: 'left' as const },
    { title: 'Check no.', x: right - 180, w: 90, align: 'left' as const },
    { title: 'Amount', x: right - 90, w: 90, align: 'right' as const },
  ];
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  const tableHeader = () => {
    doc.rect(left, y, width, 20).fill('#f1f3f5');
    doc.font('Bold').fontSize(8.5).fillColor(MUTED);
    for (const c of cols) doc.text(c.title.toUpperCase(), c.x + 4, y + 6, { width: c.w - 8, align: c.align });
    y += 24;
  };
  tableHeader();
  // Checks first (by number), then cash, as a bank teller counts them.
  for (const p of [...checks, ...cash]) {
    if (y + 20 > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
      tableHeader();
    }
    doc.font('Body').fontSize(9.5).fillColor(INK);
    const cells = [
      formatDay(p.paidOn),
      p.payer || '—',
      p.method === 'check' ? 'Check' : 'Cash',
      p.checkNumber ?? '',
      money(p.amountCents),
    ];
    cols.forEach((c, n) => {
      doc.text(cells[n] ?? '', c.x + 4, y, {
        width: c.w - 8,
        align: c.align,
        lineBreak: false,
        ellipsis: true,
      });
    });
    y += 18;
    doc
      .moveTo(left, y - 4)
      .lineTo(right, y - 4)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  }
  if (y + 90 > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  y += 10;
  doc.font('Bold').fontSize(11).fillColor(INK);
  doc.text('Total deposit', right - 230, y, { width: 130 });
  doc.text(money(d.totalCents), right - 100, y, { width: 100, align: 'right' });
  y += 50;
  doc
    .moveTo(left, y)
    .lineTo(left + 220, y)
    .lineWidth(0.7)
    .strokeColor(INK)
    .stroke();
  doc
    .moveTo(left + 280, y)
    .lineTo(left + 420, y)
    .stroke();
  doc.font('Body').fontSize(8.5).fillColor(MUTED);
  doc.text('Deposited by', left, y + 4, { width: 220 });
  doc.text('Date', left + 280, y + 4, { width: 140 });

  pageFooters(
    doc,
    (page, pages) => `${data.association.name} · Deposit ${d.depositId} · Page ${page} of ${pages}`,
  );
  doc.end();
  return done;
}
