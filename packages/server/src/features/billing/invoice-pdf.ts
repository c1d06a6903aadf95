/**
 * An invoice as a PDF (issue 15, decision 0124): pdfkit with DejaVu Sans embedded (a subset of it, so names such
 * as Łukasz Żółć print and copy right; the standard PDF fonts garble them), the association's logo and address,
 * the bill-to block, the lines with their discounts and tax, the totals, the payments and credits applied, and the
 * balance due. The fonts are read once per process; a document costs only its own subset.
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { formatMoney, INVOICE_STATUS_LABELS, type InvoiceStatus } from '@guildhall/shared';
import type PDFKitDocument from 'pdfkit';

const require = createRequire(import.meta.url);
/**
 * pdfkit and its font engine are loaded with the first document, not at start: together they keep about 35 MiB
 * resident once loaded, and most servers print a PDF rarely (decision 0086).
 */
let pdfkit: typeof PDFKitDocument | undefined;
async function loadPdfKit(): Promise<typeof PDFKitDocument> {
  pdfkit ??= (await import('pdfkit')).default;
  return pdfkit;
}
/**
 * The fonts, read and parsed by fontkit once per process: pdfkit takes a parsed font as it takes the file, and each
 * document still embeds only its own subset. Parsing DejaVu Sans for every document cost most of a PDF's time.
 */
let fonts: { regular: Buffer; bold: Buffer } | null = null;
function fontsOnce() {
  if (!fonts) {
    /** pdfkit's own font engine (it ships no types): only `create` is used. */
    const fontkit = require('fontkit') as { create(data: Buffer): unknown };
    const parse = (file: string) =>
      decodeGlyphsOnce(
        fontkit.create(readFileSync(require.resolve(`dejavu-fonts-ttf/ttf/${file}`))) as ParsedFont,
      ) as unknown as Buffer;
    fonts = { regular: parse('DejaVuSans.ttf'), bold: parse('DejaVuSans-Bold.ttf') };
  }
  return fonts;
}

interface ParsedGlyph {
  _decode(): unknown;
}
interface ParsedFont {
  getGlyph(id: number, codePoints?: number[]): ParsedGlyph | null;
}
/**
 * Each document's subset reads its glyphs' outlines again (fontkit's subset decodes a glyph to learn whether it is
 * made of others): a fifth of a document's time. fontkit keeps one glyph object per glyph of a parsed font, and an
 * outline of a static TrueType font never changes, so each glyph decodes once per process here.
 */
function decodeGlyphsOnce(font: ParsedFont): ParsedFont {
  const getGlyph = font.getGlyph.bind(font);
  const done = new WeakSet<ParsedGlyph>();
  font.getGlyph = (id, codePoints) => {
    const glyph = getGlyph(id, codePoints);
    if (glyph && !done.has(glyph)) {
      done.add(glyph);
      const decode = glyph._decode.bind(glyph);
      let decoded: { value: unknown } | null = null;
      glyph._decode = () => {
        decoded ??= { value: decode() };
        return decoded.value;
      };
    }
    return glyph;
  };
  return font;
}

/**
 * The shaped words of each font, shared by every document: pdfkit shapes each word (fontkit's layout, with its
 * substitution and positioning tables) once per document and caches it on the document's font; most words of a
 * billing document ("Invoice", "Due date", the column titles, the association's name) are the same in every one,
 * and shaping them again was a third of a document's time. A shaped run depends only on the font and the text
 * and pdfkit only reads it, so one cache per font serves every document; it starts afresh every few hundred
 * documents so names and amounts seen once do not pile up.
 */
type LayoutCache = Record<string, unknown>;
const LAYOUT_CACHE_DOCUMENTS = 500;
let layouts: { body: LayoutCache; bold: LayoutCache; documents: number } | null = null;
function layoutCaches() {
  if (!layouts || layouts.documents >= LAYOUT_CACHE_DOCUMENTS)
    layouts = { body: Object.create(null), bold: Object.create(null), documents: 0 };
  layouts.documents += 1;
  return layouts;
}
/** Points the document's current font (pdfkit's EmbeddedFont) at the shared cache of its shaped words. */
function shareLayouts(doc: PDFKit.PDFDocument, cache: LayoutCache) {
  const font = (doc as unknown as { _font?: { layoutCache?: LayoutCache } })._font;
  if (font && 'layoutCache' in font) font.layoutCache = cache;
}

export interface InvoicePdfData {
  association: { name: string; address: string | null; email: string | null; logo: Buffer | null };
  currency: string;
  invoice: {
    number: string;
    status: InvoiceStatus;
    issueDate: string;
    dueDate: string;
    memo: string | null;
    voidReason: string | null;
    subtotalCents: number;
    discountCents: number;
    taxCents: number;
    totalCents: number;
    paidCents: number;
    writtenOffCents: number;
    balanceCents: number;
  };
  billTo: { name: string; accountNumber: string | null; addressLines: string[]; email: string | null };
  lines: {
    description: string;
    quantity: number;
    unitPriceCents: number;
    discountCents: number;
    taxCents: number;
    totalCents: number;
  }[];
  /** Payments and credits applied (not taken back), oldest first. */
  applications: { date: string; label: string; amountCents: number }[];
}

export const INK = '#1f2933';
export const MUTED = '#616e7c';
export const RULE = '#cbd2d9';
export const ACCENT = '#1c7ed6';

const DAY_FORMAT = new Intl.DateTimeFormat('en-US', {
  year: 'numeric',
  month: 'short',
  day: 'numeric',
  timeZone: 'UTC',
});

/** "2026-11-01" as "Nov 1, 2026" (a calendar day: no time zone moves it). */
export function formatDay(day: string): string {
  const [y, m, d] = day.split('-').map(Number);
  if (!y || !m || !d) return day;
  return DAY_FORMAT.format(new Date(Date.UTC(y, m - 1, d)));
}

/**
 * A billing document (an invoice, a deposit slip): Letter, DejaVu Sans as `Body` and `Bold`, pages buffered so a
 * footer can be written on each at the end. `done` resolves to the bytes once `doc.end()` is called.
 */
export async function billingDocument(info: { Title: string; Author: string; Subject: string }): Promise<{
  doc: PDFKit.PDFDocument;
  done: Promise<Buffer>;
}> {
  const PDFDocument = await loadPdfKit();
  const { regular, bold } = fontsOnce();
  const doc = new PDFDocument({
    size: 'LETTER',
    margins: { top: 50, bottom: 60, left: 50, right: 50 },
    info: { ...info, Creator: 'Guildhall' },
    bufferPages: true,
  });
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  doc.registerFont('Body', regular);
  doc.registerFont('Bold', bold);
  const layouts = layoutCaches();
  doc.font('Bold');
  shareLayouts(doc, layouts.bold);
  doc.font('Body');
  shareLayouts(doc, layouts.body);
  doc.fillColor(INK);
  return { doc, done };
}

/** Writes `text(page, pages)` centred at the foot of every buffered page. */
export function pageFooters(doc: PDFKit.PDFDocument, text: (page: number, pages: number) => string): void {
  const range = doc.bufferedPageRange();
  const left = doc.page.margins.left;
  const width = doc.page.width - doc.page.margins.left - doc.page.margins.right;
  for (let p = range.start; p < range.start + range.count; p++) {
    doc.switchToPage(p);
    // Below the bottom margin: lift it while the footer is written, or pdfkit starts a page for it.
    doc.page.margins.bottom = 0;
    doc
      .font('Body')
      .fontSize(8)
      .fillColor(MUTED)
      .text(text(p - range.start + 1, range.count), left, doc.page.height - 40, {
        width,
        align: 'center',
        lineBreak: false,
      });
  }
}

/**
 * The association's letterhead: its logo (or its name in large type) on the left, its name, postal address and
 * email on the right. Answers where the header ends.
 */
export function associationHeader(
  doc: PDFKit.PDFDocument,
  association: InvoicePdfData['association'],
): number {
  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;
  let logo = association.logo;
  // Header: the logo (or the association's name in large type) on the left, the association's address on the right.
  let headerBottom = 50;
  if (logo) {
    try {
      doc.image(logo, left, 45, { fit: [170, 64] });
      headerBottom = 45 + 64;
    } catch {
      logo = null;
    }
  }
  if (!logo) {
    doc
      .font('Bold')
      .fontSize(18)
      .text(association.name, left, 50, { width: width / 2 });
    headerBottom = doc.y;
  }
  const addressLines = [
    association.name,
    ...(association.address ?? '')
      .split(/\r?\n/)
      .map((s) => s.trim())
      .filter(Boolean),
    ...(association.email ? [association.email] : []),
  ];
  doc.fontSize(9);
  addressLines.forEach((line, n) => {
    doc.font(n === 0 ? 'Bold' : 'Body').fillColor(n === 0 ? INK : MUTED);
    doc.text(line, left + width / 2, 50 + n * 12, { width: width / 2, align: 'right' });
  });
  headerBottom = Math.max(headerBottom, 50 + addressLines.length * 12);

  return headerBottom;
}

/** Renders the invoice; answers the PDF's bytes. */
export async function renderInvoicePdf(data: InvoicePdfData): Promise<Buffer> {
  const money = (cents: number) => formatMoney(cents, { currency: data.currency });
  const { doc, done } = await billingDocument({
    Title: `Invoice ${data.invoice.number}`,
    Author: data.association.name,
    Subject: `Invoice ${data.invoice.number} for ${data.billTo.name}`,
  });

  const left = doc.page.margins.left;
  const right = doc.page.width - doc.page.margins.right;
  const width = right - left;
  const i = data.invoice;

  const headerBottom = associationHeader(doc, data.association);

  // Title and the invoice's facts.
  let y = headerBottom + 24;
  doc.font('Bold').fontSize(22).fillColor(ACCENT).text('INVOICE', left, y);
  const stamp =
    i.status === 'paid' || i.status === 'void' || i.status === 'written_off'
      ? INVOICE_STATUS_LABELS[i.status].toUpperCase()
      : null;
  if (stamp)
    doc
      .font('Bold')
      .fontSize(16)
      .fillColor(i.status === 'paid' ? '#2b8a3e' : '#c92a2a')
      .text(stamp, left, y + 4, { width, align: 'right' });
  y += 36;
  const facts: [string, string][] = [
    ['Invoice number', i.number],
    ['Invoice date', formatDay(i.issueDate)],
    ['Due date', formatDay(i.dueDate)],
    ['Status', INVOICE_STATUS_LABELS[i.status]],
  ];
  if (data.billTo.accountNumber) facts.push(['Account', data.billTo.accountNumber]);
  const factsX = left + width / 2 + 40;
  facts.forEach(([k, v], n) => {
    doc
      .font('Body')
      .fontSize(9)
      .fillColor(MUTED)
      .text(k, factsX, y + n * 14, { width: 90 });
    doc
      .font('Bold')
      .fillColor(INK)
      .text(v, factsX + 90, y + n * 14, { width: right - factsX - 90, align: 'right' });
  });
  doc.font('Bold').fontSize(9).fillColor(MUTED).text('BILL TO', left, y);
  doc
    .font('Bold')
    .fontSize(11)
    .fillColor(INK)
    .text(data.billTo.name, left, y + 14, { width: width / 2 });
  doc.font('Body').fontSize(9).fillColor(INK);
  for (const line of [...data.billTo.addressLines, ...(data.billTo.email ? [data.billTo.email] : [])])
    doc.text(line, { width: width / 2 });
  y = Math.max(doc.y, y + facts.length * 14) + 24;

  // Lines.
  const descriptionWidth = width - 330;
  const cols = [
    { title: 'Description', x: left, w: descriptionWidth, align: 'left' as const },
    { title: 'Qty', x: right - 330, w: 40, align: 'right' as const },
    { title: 'Unit price', x: right - 285, w: 70, align: 'right' as const },
    { title: 'Discount', x: right - 210, w: 65, align: 'right' as const },
    { title: 'Tax', x: right - 140, w: 60, align: 'right' as const },
    { title: 'Amount', x: right - 75, w: 75, align: 'right' as const },
  ];
  const tableHeader = () => {
    doc.rect(left, y, width, 20).fill('#f1f3f5');
    doc.font('Bold').fontSize(8.5).fillColor(MUTED);
    for (const c of cols) doc.text(c.title.toUpperCase(), c.x + 4, y + 6, { width: c.w - 8, align: c.align });
    y += 24;
  };
  const bottom = () => doc.page.height - doc.page.margins.bottom;
  tableHeader();
  doc.font('Body').fontSize(9.5).fillColor(INK);
  for (const line of data.lines) {
    const h = Math.max(14, doc.heightOfString(line.description, { width: descriptionWidth - 8 }));
    if (y + h + 6 > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
      tableHeader();
      doc.font('Body').fontSize(9.5).fillColor(INK);
    }
    const cells = [
      line.description,
      String(line.quantity),
      money(line.unitPriceCents),
      line.discountCents ? `−${money(line.discountCents)}` : '',
      line.taxCents ? money(line.taxCents) : '',
      money(line.totalCents),
    ];
    cols.forEach((c, n) => {
      doc.text(cells[n] ?? '', c.x + 4, y, { width: c.w - 8, align: c.align });
    });
    y += h + 6;
    doc
      .moveTo(left, y - 3)
      .lineTo(right, y - 3)
      .lineWidth(0.5)
      .strokeColor(RULE)
      .stroke();
  }

  // Totals.
  const totals: [string, string, boolean][] = [['Subtotal', money(i.subtotalCents), false]];
  if (i.discountCents) totals.push(['Discounts', `−${money(i.discountCents)}`, false]);
  totals.push(['Tax', money(i.taxCents), false]);
  totals.push(['Total', money(i.totalCents), true]);
  if (i.paidCents) totals.push(['Paid and credited', `−${money(i.paidCents)}`, false]);
  if (i.writtenOffCents) totals.push(['Written off', `−${money(i.writtenOffCents)}`, false]);
  totals.push(['Balance due', money(i.balanceCents), true]);
  if (y + totals.length * 18 + 20 > bottom()) {
    doc.addPage();
    y = doc.page.margins.top;
  }
  y += 8;
  const tx = right - 230;
  for (const [label, value, strong] of totals) {
    doc
      .font(strong ? 'Bold' : 'Body')
      .fontSize(strong ? 11 : 9.5)
      .fillColor(INK);
    doc.text(label, tx, y, { width: 130 });
    doc.text(value, tx + 130, y, { width: 100, align: 'right' });
    y += strong ? 20 : 16;
  }

  // Payments and credits applied.
  if (data.applications.length > 0) {
    y += 10;
    if (y + 40 > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc.font('Bold').fontSize(10).fillColor(INK).text('Payments and credits', left, y);
    y += 16;
    doc.font('Body').fontSize(9);
    for (const a of data.applications) {
      if (y + 14 > bottom()) {
        doc.addPage();
        y = doc.page.margins.top;
      }
      doc.fillColor(MUTED).text(formatDay(a.date), left, y, { width: 90 });
      doc.fillColor(INK).text(a.label, left + 90, y, { width: width - 200 });
      doc.text(money(a.amountCents), right - 110, y, { width: 110, align: 'right' });
      y += 14;
    }
  }

  const notes = [
    ...(i.voidReason ? [`Void: ${i.voidReason}`] : []),
    ...(i.memo ? [i.memo] : []),
    ...(i.balanceCents > 0 && i.status !== 'void'
      ? [`Please pay ${money(i.balanceCents)} by ${formatDay(i.dueDate)}, quoting invoice ${i.number}.`]
      : []),
  ];
  if (notes.length > 0) {
    y += 16;
    if (y + 40 > bottom()) {
      doc.addPage();
      y = doc.page.margins.top;
    }
    doc.font('Body').fontSize(9).fillColor(INK);
    doc.text(notes.join('\n'), left, y, { width });
  }

  pageFooters(
    doc,
    (page, pages) => `${data.association.name} · Invoice ${i.number} · Page ${page} of ${pages}`,
  );
  doc.end();
  return done;
}
