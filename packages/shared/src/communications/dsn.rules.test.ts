import { describe, expect, it } from 'vitest';
import { classifyRecipient, dsnAddress, parseDeliveryStatus, recipientTokenIn } from './dsn.rules.ts';

const T = '0b7a5e0c-2f7d-4c1e-9d3a-6a1f2b3c4d5e';
const K = 'a'.repeat(32);

describe('delivery status notifications', () => {
  it('reads the per-message and per-recipient groups, unfolding continued lines', () => {
    const s = parseDeliveryStatus(
      'Reporting-MTA: dns; mx.example.org\r\n\r\nFinal-Recipient: rfc822; A@Example.org\r\nAction: failed\r\nStatus: 5.1.1\r\nDiagnostic-Code: smtp; 550 5.1.1 user\r\n    unknown\r\n\r\nFinal-Recipient: rfc822; b@example.org\r\nAction: delivered\r\nStatus: 2.0.0\r\n',
    );
    expect(s.message).toEqual({ 'reporting-mta': 'dns; mx.example.org' });
    expect(s.recipients).toHaveLength(2);
    expect(s.recipients[0]?.['diagnostic-code']).toBe('smtp; 550 5.1.1 user unknown');
    // Without the per-message group, the first group is a recipient's.
    expect(parseDeliveryStatus('Action: failed\nStatus: 5.0.0\n').recipients).toHaveLength(1);
  });

  it('classifies: failed 5.x.x hard; failed 4.x.x and delayed soft; delivered, relayed, expanded none', () => {
    expect(classifyRecipient({ action: 'failed', status: '5.1.1' }).kind).toBe('hard');
    expect(classifyRecipient({ action: 'Failed', status: '5.0.0 (permanent failure)' }).status).toBe('5.0.0');
    expect(classifyRecipient({ action: 'failed', status: '4.2.2' }).kind).toBe('soft');
    expect(classifyRecipient({ action: 'delayed', status: '4.4.1' }).kind).toBe('soft');
    for (const action of ['delivered', 'relayed', 'expanded'])
      expect(classifyRecipient({ action, status: '2.0.0' }).kind).toBeNull();
    // No status: the diagnostic code's reply decides; a failure with neither is final.
    expect(classifyRecipient({ action: 'failed', 'diagnostic-code': 'smtp; 452 try later' })).toMatchObject({
      kind: 'soft',
      status: '4.0.0',
    });
    expect(classifyRecipient({ action: 'failed' }).kind).toBe('hard');
    expect(classifyRecipient({ 'final-recipient': 'rfc822; <Bo@X.org>', action: 'failed' }).email).toBe(
      'bo@x.org',
    );
  });

  it('finds the recipient in a VERP address or a List-Unsubscribe address, nothing in other text', () => {
    expect(recipientTokenIn(`To: bounces+${T}.${K}@guildhall.test`)).toEqual({ tenantId: T, token: K });
    expect(recipientTokenIn(`<https://x.test/api/communication/unsubscribe/${T}/${K}>`)).toEqual({
      tenantId: T,
      token: K,
    });
    expect(recipientTokenIn(`bounces+${T}.${'a'.repeat(31)}@x`)).toBeNull();
    expect(recipientTokenIn('postmaster@example.org')).toBeNull();
    expect(dsnAddress('rfc822;not an address')).toBeNull();
  });
});
