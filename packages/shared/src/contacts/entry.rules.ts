import { isEmailSyntax } from '../platform/fields/email.rules.ts';
import { WEBSITE_PATTERN } from '../platform/fields/website.rules.ts';

/** What a contact-info entry holds (spec 000 section 3: "phone, email or site value"). */
export const CONTACT_ENTRY_TYPES = ['email', 'phone', 'website', 'unknown'] as const;
export type ContactEntryType = (typeof CONTACT_ENTRY_TYPES)[number];

/** "Phone-like entry length limit 25." (spec 001 section 9) */
export const PHONE_ENTRY_MAX_LENGTH = 25;

/** An optional plus and country code, then digits; spaces, dots, dashes and brackets may separate them. */
export const PHONE_ENTRY_PATTERN = /^\+?[\d\s().-]*\d[\d\s().-]*(?:\s*(?:e?xt?\.?|extension|#)\s*\d{1,6})?$/i;

/**
 * "Entry type detection: email if it matches the email pattern; phone if it starts with an optional plus
 * country code and digits and is at most 25 characters; website if it matches a URL pattern." (spec 001
 * section 5). Checked in that order; anything else is unknown.
 */
export function detectEntryType(value: string | null | undefined): ContactEntryType {
  const text = (value ?? '').trim();
  if (text === '') return 'unknown';
  if (isEmailSyntax(text)) return 'email';
  if (text.length <= PHONE_ENTRY_MAX_LENGTH && PHONE_ENTRY_PATTERN.test(text)) return 'phone';
  if (WEBSITE_PATTERN.test(text)) return 'website';
  return 'unknown';
}
