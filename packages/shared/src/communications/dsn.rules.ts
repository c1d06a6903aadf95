/**
 * Delivery status notifications (RFC 3464): the fields of a `message/delivery-status` part, what each recipient's
 * report means for the address (a hard bounce suppresses it, a soft one is counted), and the VERP return path that
 * names the mailing recipient a DSN is about (`bounces+{tenant}.{token}@domain`, decision 0152).
 */

/** One group of fields (the per-message group, or one per-recipient group); names lower-case. */
export type DsnFields = Record<string, string>;

export interface DeliveryStatus {
  message: DsnFields;
  recipients: DsnFields[];
}

/**
 * The fields of a delivery-status body: groups separated by blank lines, the first about the message, each next one
 * about a recipient. Folded lines (a continuation starts with white space) are unfolded; comments stay in values.
 */
export function parseDeliveryStatus(body: string): DeliveryStatus {
  const groups: DsnFields[] = [];
  let current: DsnFields | null = null;
  let lastName: string | null = null;
  for (const line of body.replace(/\r\n?/g, '\n').split('\n')) {
    if (line.trim() === '') {
      if (current && Object.keys(current).length > 0) groups.push(current);
      current = null;
      lastName = null;
      continue;
    }
    if (/^[ \t]/.test(line) && current && lastName) {
      current[lastName] = `${current[lastName] ?? ''} ${line.trim()}`;
      continue;
    }
    const colon = line.indexOf(':');
    if (colon <= 0) continue;
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    current ??= {};
    current[name] = value;
    lastName = name;
  }
  if (current && Object.keys(current).length > 0) groups.push(current);
  // A body without the per-message group (some MTAs) starts with a recipient's group.
  const first = groups[0];
  if (first && ('final-recipient' in first || 'action' in first)) return { message: {}, recipients: groups };
  return { message: first ?? {}, recipients: groups.slice(1) };
}

/** `rfc822; Ada@Example.org` → `ada@example.org` (the address type dropped, angle brackets too). */
export function dsnAddress(value: string | undefined): string | null {
  if (!value) return null;
  const raw = value.includes(';') ? value.slice(value.indexOf(';') + 1) : value;
  const address = raw.trim().replace(/^<|>$/g, '').trim().toLowerCase();
  return /^[^\s@]+@[^\s@]+$/.test(address) ? address : null;
}

export type BounceKind = 'hard' | 'soft';

export interface RecipientReport {
  /** The address the report is about (Final-Recipient; Original-Recipient when the final one is missing). */
  email: string | null;
  action: string;
  /** The enhanced status code (RFC 3463) `class.subject.detail`, or the one read from the diagnostic code. */
  status: string | null;
  diagnostic: string | null;
  /** Hard: the address is suppressed; soft: counted; null: not a failure (delivered, relayed, expanded). */
  kind: BounceKind | null;
}

const STATUS = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

/**
 * What one recipient's report means: `failed` with a 5.x.x status is a hard bounce (the address does not take
 * mail), `failed` with 4.x.x (the MTA gave up on a temporary failure) and `delayed` are soft; `delivered`,
 * `relayed` and `expanded` are not failures. Without a Status field, the diagnostic code's reply (`smtp; 550 …`)
 * decides; a `failed` with neither is hard (RFC 3464 requires the status; a failure is final).
 */
export function classifyRecipient(fields: DsnFields): RecipientReport {
  const action = (fields.action ?? '').trim().toLowerCase().split(/[\s(]/)[0] ?? '';
  const diagnostic = fields['diagnostic-code']?.trim() || null;
  let status = STATUS.exec(fields.status ?? '')?.[0] ?? null;
  if (!status && diagnostic) {
    status = STATUS.exec(diagnostic)?.[0] ?? null;
    if (!status) {
      const reply = /(?:^|;|\s)([245])\d\d(?:\s|-|$)/.exec(diagnostic)?.[1];
      if (reply) status = `${reply}.0.0`;
    }
  }
  const email = dsnAddress(fields['final-recipient']) ?? dsnAddress(fields['original-recipient']);
  let kind: BounceKind | null = null;
  if (action === 'delayed') kind = 'soft';
  else if (action === 'failed') kind = status?.startsWith('4') ? 'soft' : 'hard';
  else if (!action && status) kind = status.startsWith('5') ? 'hard' : status.startsWith('4') ? 'soft' : null;
  return { email, action, status, diagnostic, kind };
}

/** The VERP return path of one mailing recipient. */
export function verpAddress(tenantId: string, token: string, domain: string): string {
  return `bounces+${tenantId}.${token}@${domain}`;
}

const VERP = /\bbounces\+([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\.([0-9a-f]{32})@/i;
const UNSUBSCRIBE =
  /\/unsubscribe\/([0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12})\/([0-9a-f]{32})\b/i;

/** The recipient a text names: a VERP address first, else the List-Unsubscribe address of the returned message. */
export function recipientTokenIn(text: string): { tenantId: string; token: string } | null {
  const m = VERP.exec(text) ?? UNSUBSCRIBE.exec(text);
  if (!m?.[1] || !m[2]) return null;
  return { tenantId: m[1].toLowerCase(), token: m[2].toLowerCase() };
}
