import { type ValidationResult, validationResult } from '../messages.rules.ts';

const LOCAL_CHARS = "A-Za-z0-9!#$%&'*+/=?^_`{|}~-";
const LABEL = '[A-Za-z0-9](?:[A-Za-z0-9-]{0,61}[A-Za-z0-9])?';
const TLD = '(?:[A-Za-z]{2,63}|xn--[A-Za-z0-9-]{1,59})';

/**
 * The email pattern: a dot-atom name, an @, and a domain of at least two labels ending in an alphabetic (or
 * punycode) top-level domain. Used by entry detection and by the validator.
 */
export const EMAIL_PATTERN = new RegExp(
  `^[${LOCAL_CHARS}]+(?:\\.[${LOCAL_CHARS}]+)*@(?:${LABEL}\\.)+${TLD}$`,
);

/** True when the text has the shape of an email address (no checks on disposable domains). */
export function isEmailSyntax(value: string): boolean {
  const trimmed = value.trim();
  return trimmed.length <= 254 && EMAIL_PATTERN.test(trimmed);
}

/**
 * Throwaway-mailbox services refused by the validator. Kept short on purpose: the common services members
 * actually paste; subdomains of these are refused too.
 */
export const DISPOSABLE_EMAIL_DOMAINS: readonly string[] = [
  '10minutemail.com',
  'discard.email',
  'dispostable.com',
  'fakeinbox.com',
  'getnada.com',
  'guerrillamail.com',
  'guerrillamail.net',
  'mailinator.com',
  'maildrop.cc',
  'mailnesia.com',
  'mintemail.com',
  'mohmal.com',
  'sharklasers.com',
  'spamgourmet.com',
  'temp-mail.org',
  'tempmail.com',
  'tempmailo.com',
  'throwawaymail.com',
  'trashmail.com',
  'yopmail.com',
];

/** The disposable service a domain belongs to, or null. */
export function disposableDomainOf(domain: string): string | null {
  const lower = domain.toLowerCase();
  return DISPOSABLE_EMAIL_DOMAINS.find((listed) => lower === listed || lower.endsWith(`.${listed}`)) ?? null;
}

const EXAMPLE = 'like jane@example.org';

function badCharacters(text: string, allowed: RegExp): string {
  const bad = [...new Set([...text].filter((character) => !allowed.test(character)))];
  return bad.map((character) => `"${character}"`).join(' ');
}

function localPartErrors(local: string): string[] {
  if (local === '') return [`Add the name before the @, ${EXAMPLE}.`];
  const errors: string[] = [];
  if (local.length > 64) errors.push('The part before the @ can be at most 64 characters long.');
  if (local.startsWith('.') || local.endsWith('.') || local.includes('..')) {
    errors.push('The part before the @ cannot start or end with a dot, or have two dots in a row.');
  }
  const bad = badCharacters(local, new RegExp(`[.${LOCAL_CHARS}]`));
  if (bad) errors.push(`The part before the @ contains characters that are not allowed: ${bad}.`);
  return errors;
}

function domainErrors(domain: string): string[] {
  if (domain === '') return [`Add the domain after the @, ${EXAMPLE}.`];
  if (/^\[.*\]$/.test(domain) || /^\d{1,3}(\.\d{1,3}){3}$/.test(domain)) {
    return ['Use an address at a named domain, not at an IP address.'];
  }
  const bad = badCharacters(domain, /[A-Za-z0-9.-]/);
  if (bad) return [`The domain after the @ contains characters that are not allowed: ${bad}.`];
  const labels = domain.split('.');
  if (labels.length < 2) {
    return [`The domain "${domain}" is incomplete: it needs a dot and an ending, ${EXAMPLE}.`];
  }
  if (labels.some((label) => label === '')) {
    return [`The domain "${domain}" cannot start or end with a dot, or have two dots in a row.`];
  }
  const errors: string[] = [];
  if (labels.some((label) => label.length > 63)) {
    errors.push('Each part of the domain between dots can be at most 63 characters long.');
  }
  if (labels.some((label) => label.startsWith('-') || label.endsWith('-'))) {
    errors.push('Parts of the domain cannot start or end with a hyphen.');
  }
  const tld = labels[labels.length - 1] ?? '';
  if (!new RegExp(`^${TLD}$`).test(tld)) {
    errors.push(`".${tld}" is not a valid domain ending; it should be letters, like .org or .com.`);
  }
  return errors;
}

/**
 * Validates an email address for POST /api/utils/email/validate (spec 000 section 7). Checks the syntax, that
 * the domain looks real (a dot, labels, an alphabetic ending), and that it is not a disposable mailbox. The
 * messages are written for the person typing the address.
 */
export function validateEmailAddress(input: string | null | undefined): ValidationResult {
  const email = (input ?? '').trim();
  if (email === '') return validationResult(['Enter an email address.']);
  if (/\s/.test(email)) return validationResult(['An email address cannot contain spaces.']);
  if (email.length > 254) return validationResult(['An email address can be at most 254 characters long.']);
  const at = email.split('@');
  if (at.length === 1) {
    return validationResult([`An email address needs an @ between the name and the domain, ${EXAMPLE}.`]);
  }
  if (at.length > 2) return validationResult(['An email address can contain only one @.']);
  const [local = '', domain = ''] = at;
  const errors = [...localPartErrors(local), ...domainErrors(domain)];
  if (errors.length > 0) return validationResult(errors);
  const disposable = disposableDomainOf(domain);
  if (disposable) {
    return validationResult([
      `Addresses at ${disposable} are temporary and stop working; use an address you will keep.`,
    ]);
  }
  /* v8 ignore next 3 -- every shape the pattern refuses has been named above; this is a safety net */
  if (!EMAIL_PATTERN.test(email)) {
    return validationResult([`This is not a valid email address; check it, ${EXAMPLE}.`]);
  }
  return validationResult([]);
}
