import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { validateEmailAddress } from '../platform/fields/email.rules.ts';
import { validateRefund } from './refund.rules.ts';
import {
  emailValidateBody,
  emailValidateResponse,
  parseNameParams,
  parseNameResponse,
  refundValidateBody,
  refundValidateResponse,
} from './utils.schema.ts';

describe('request and answer schemas of the utils endpoints (spec 000 §7)', () => {
  it('emailValidateBody: "body emailAddress"', () => {
    expect(emailValidateBody.parse({ emailAddress: 'jane@example.org' })).toEqual({
      emailAddress: 'jane@example.org',
    });
    expect(emailValidateBody.safeParse({}).success).toBe(false);
    expect(emailValidateBody.safeParse({ emailAddress: 5 }).success).toBe(false);
    expect(emailValidateBody.safeParse({ emailAddress: 'a@b.co', extra: 1 }).success).toBe(false);
    expect(emailValidateBody.safeParse({ emailAddress: 'a'.repeat(321) }).success).toBe(false);
    const answer = { Data: validateEmailAddress('jane@example') };
    expect(emailValidateResponse.parse(answer)).toEqual(answer);
  });

  it('refundValidateBody: the refund model', () => {
    expect(
      refundValidateBody.parse({ PaymentId: 3, Amount: 12.5, Reason: 'Duplicate charge' }),
    ).toMatchObject({
      PaymentId: 3,
      Amount: 12.5,
    });
    expect(refundValidateBody.parse({ PaymentId: 3, Amount: ' 12.50 ' }).Amount).toBe('12.50');
    for (const bad of [
      {},
      { PaymentId: 0, Amount: 1 },
      { PaymentId: 1.5, Amount: 1 },
      { PaymentId: 1, Amount: Number.POSITIVE_INFINITY },
      { PaymentId: 1, Amount: true },
      { PaymentId: 1, Amount: 1, Unknown: 1 },
      { PaymentId: 1, Amount: 1, Reason: 'x'.repeat(1001) },
    ]) {
      expect(refundValidateBody.safeParse(bad).success).toBe(false);
    }
    const result = validateRefund({ PaymentId: 3, Amount: 5 }, { PaidAmount: 10 });
    const answer = { Data: { Valid: result.Valid }, ErrorMessages: result.ErrorMessages };
    expect(refundValidateResponse.parse(answer)).toEqual(answer);
  });

  it('parse-name parameters and answer', () => {
    expect(parseNameParams.parse({ name: 'Jane Doe' })).toEqual({ name: 'Jane Doe' });
    expect(parseNameParams.safeParse({ name: 'x'.repeat(201) }).success).toBe(false);
    const answer = { Data: { Name: { FirstName: 'Jane', LastName: 'Doe' } } };
    expect(parseNameResponse.parse(answer)).toEqual(answer);
  });

  it('property: any JSON body either parses into a refund model the validator can judge, or is refused', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (body) => {
        const parsed = refundValidateBody.safeParse(body);
        if (parsed.success) {
          const result = validateRefund(parsed.data, { PaidAmount: 100 });
          expect(result.Valid).toBe(result.ErrorMessages.length === 0);
        }
      }),
    );
  });
});
