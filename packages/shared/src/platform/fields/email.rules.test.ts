import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  DISPOSABLE_EMAIL_DOMAINS,
  disposableDomainOf,
  isEmailSyntax,
  validateEmailAddress,
} from './email.rules.ts';

describe('email validation for POST /api/utils/email/validate (spec 000 §7: "answer Data.Valid, Data.ErrorMessages")', () => {
  it.each([
    ['jane@example.org'],
    ['Jane.Doe+dues@chapter.example.org'],
    ["o'brien@example.ie"],
    ['  padded@example.com  '],
    ['a@b.co'],
    ['x@xn--80ak6aa92e.com'],
    ['user@sub.domain.xn--p1ai'],
  ])('accepts %j', (email) => {
    expect(validateEmailAddress(email)).toEqual({ Valid: true, ErrorMessages: [] });
  });

  it.each([
    ['', 'Enter an email address.'],
    [null, 'Enter an email address.'],
    ['jane doe@example.org', 'An email address cannot contain spaces.'],
    [`${'a'.repeat(250)}@example.org`, 'An email address can be at most 254 characters long.'],
    [
      'jane.example.org',
      'An email address needs an @ between the name and the domain, like jane@example.org.',
    ],
    ['jane@@example.org', 'An email address can contain only one @.'],
    ['@example.org', 'Add the name before the @, like jane@example.org.'],
    ['jane@', 'Add the domain after the @, like jane@example.org.'],
    [`${'a'.repeat(65)}@example.org`, 'The part before the @ can be at most 64 characters long.'],
    ['.jane@example.org', 'The part before the @ cannot start or end with a dot, or have two dots in a row.'],
    [
      'ja..ne@example.org',
      'The part before the @ cannot start or end with a dot, or have two dots in a row.',
    ],
    ['ja(ne)@example.org', 'The part before the @ contains characters that are not allowed: "(" ")".'],
    ['jane@[192.168.0.1]', 'Use an address at a named domain, not at an IP address.'],
    ['jane@192.168.0.1', 'Use an address at a named domain, not at an IP address.'],
    ['jane@exam_ple.org', 'The domain after the @ contains characters that are not allowed: "_".'],
    [
      'jane@localhost',
      'The domain "localhost" is incomplete: it needs a dot and an ending, like jane@example.org.',
    ],
    [
      'jane@example..org',
      'The domain "example..org" cannot start or end with a dot, or have two dots in a row.',
    ],
    [
      'jane@example.org.',
      'The domain "example.org." cannot start or end with a dot, or have two dots in a row.',
    ],
    ['jane@-example.org', 'Parts of the domain cannot start or end with a hyphen.'],
    ['jane@example.c', '".c" is not a valid domain ending; it should be letters, like .org or .com.'],
    ['jane@example.123', '".123" is not a valid domain ending; it should be letters, like .org or .com.'],
    [`jane@${'a'.repeat(64)}.org`, 'Each part of the domain between dots can be at most 63 characters long.'],
    [
      'jane@mailinator.com',
      'Addresses at mailinator.com are temporary and stop working; use an address you will keep.',
    ],
    [
      'jane@eu.YopMail.com',
      'Addresses at yopmail.com are temporary and stop working; use an address you will keep.',
    ],
  ])('refuses %j with a message a person understands', (email, message) => {
    const result = validateEmailAddress(email);
    expect(result.Valid).toBe(false);
    expect(result.ErrorMessages).toContain(message);
  });

  it('reports problems on both sides of the @ together', () => {
    expect(validateEmailAddress('.jane@example.c').ErrorMessages).toHaveLength(2);
  });

  it('knows its disposable list', () => {
    expect(DISPOSABLE_EMAIL_DOMAINS.length).toBeGreaterThanOrEqual(10);
    expect(disposableDomainOf('notmailinator.com')).toBeNull();
    expect(disposableDomainOf('x.mailinator.com')).toBe('mailinator.com');
  });

  it('property: whatever the text, the answer is consistent', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.emailAddress()), (email) => {
        const result = validateEmailAddress(email);
        expect(result.Valid).toBe(result.ErrorMessages.length === 0);
        if (result.Valid) expect(isEmailSyntax(email)).toBe(true);
      }),
    );
  });
});
