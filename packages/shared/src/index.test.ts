import { describe, expect, it } from 'vitest';
import * as shared from './index.ts';

describe('the public surface of @guildhall/shared', () => {
  it.each([
    'toCents',
    'calculatePurchase',
    'changeBillFrequency',
    'priceMembership',
    'evaluateUnitFormulas',
    'detectEntryType',
    'parseFullName',
    'formatPhone',
    'normalizeWebsite',
    'checkUpload',
    'formatFileSize',
    'changeCustomFieldType',
    'registeredAttendeeCount',
    'parseVideo',
    'validateEmailAddress',
    'validateRefund',
    'parseDateInput',
    'resolveDateRange',
    'planNext',
    'fitFilterTags',
    'bitmaskToKeys',
  ])('exports %s', (name) => {
    expect(typeof (shared as Record<string, unknown>)[name]).toBe('function');
  });

  it('exports the request schemas of the utils endpoints', () => {
    expect(shared.emailValidateBody.safeParse({ emailAddress: 'a@b.co' }).success).toBe(true);
    expect(shared.refundValidateBody.safeParse({ PaymentId: 1, Amount: 1 }).success).toBe(true);
  });
});
