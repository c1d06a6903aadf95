/**
 * Phone numbers (decision 0090). The specification's rule holds for North American numbers: "Phone inputs keep
 * digits only, at most 10, displayed as (xxx) xxx-xxxx" (spec 000 section 5, "Phone: 10 digits" section 9).
 * Numbers elsewhere keep their own format: typed with a + and their country code, checked against that country's
 * lengths by libphonenumber-js, stored as E.164 ("+442079460958") and shown in international format
 * ("+44 20 7946 0958"). An extension is kept on either ("x89" stored, "ext. 89" shown). Input is never silently
 * cut or emptied: what cannot be a phone number is refused with a message.
 */
import { AsYouType, parsePhoneNumberFromString } from 'libphonenumber-js/min';

/** "Phone: 10 digits." (spec 000 section 9): a North American number without its country code. */
export const PHONE_MAX_DIGITS = 10;

/** The digits of the input, at most 10 (the specification's rule for North American numbers). */
export function phoneDigits(input: string | null | undefined): string {
  return (input ?? '').replace(/\D/g, '').slice(0, PHONE_MAX_DIGITS);
}

/** An extension at the end: "x89", "ext 89", "ext. 89", "extension 89", "#89". */
const EXTENSION = /\s*(?:,|;)?\s*(?:e?xt?\.?|extension|#)\s*(\d{1,6})\s*$/i;
/** What a phone number may hold besides its extension. */
const PHONE_CHARACTERS = /^\+?[\d\s().\-/]*$/;

export type PhoneCheck = { ok: true; value: string | null } | { ok: false; error: string };

export const PHONE_MESSAGES = {
  characters: 'A phone number holds digits, spaces, ( ) - . and an extension (x89) only.',
  northAmerican:
    'A phone number has 10 digits, or starts with + and its country code (+44 20 7946 0958) outside North America.',
  international: 'This is not a valid phone number for its country code.',
} as const;

function splitExtension(text: string): { number: string; extension: string | null } {
  const m = EXTENSION.exec(text);
  return m
    ? { number: text.slice(0, m.index).trim(), extension: m[1] ?? null }
    : { number: text, extension: null };
}

/**
 * A phone number as typed, checked and made canonical: "5551234567" for a North American number (a leading 1 or
 * +1 dropped), "+442079460958" for another country's, each with " x89" when it has an extension. Empty is null.
 */
export function parsePhone(input: string | null | undefined): PhoneCheck {
  const text = (input ?? '').trim();
  if (text === '') return { ok: true, value: null };
  const { number, extension } = splitExtension(text);
  if (!PHONE_CHARACTERS.test(number)) return { ok: false, error: PHONE_MESSAGES.characters };
  const ext = extension ? ` x${extension}` : '';
  const digits = number.replace(/\D/g, '');
  const international = number.startsWith('+') || number.startsWith('00');
  if (!international || (number.startsWith('+1') && digits.length === 11)) {
    const national = digits.length === 11 && digits.startsWith('1') ? digits.slice(1) : digits;
    return national.length === PHONE_MAX_DIGITS
      ? { ok: true, value: `${national}${ext}` }
      : { ok: false, error: PHONE_MESSAGES.northAmerican };
  }
  const parsed = parsePhoneNumberFromString(number.startsWith('00') ? `+${digits.slice(2)}` : `+${digits}`);
  if (!parsed?.isValid()) return { ok: false, error: PHONE_MESSAGES.international };
  if (parsed.countryCallingCode === '1') return { ok: true, value: `${String(parsed.nationalNumber)}${ext}` };
  return { ok: true, value: `${parsed.number}${ext}` };
}

/**
 * A phone number as shown: a stored North American number as (xxx) xxx-xxxx, another country's in its international
 * format, each with "ext. 89". While typing, partial input is formatted the same way (`5551` -> `(555) 1`,
 * `+4420` -> `+44 20`); what is not a phone number is shown as typed, never emptied. Formatting twice changes nothing.
 */
export function formatPhone(input: string | null | undefined): string {
  const text = (input ?? '').trim();
  if (text === '') return '';
  const { number, extension } = splitExtension(text);
  const ext = extension ? ` ext. ${extension}` : '';
  const digits = number.replace(/\D/g, '');
  if (!PHONE_CHARACTERS.test(number) || digits === '') return text;
  if (number.startsWith('+')) {
    const parsed = parsePhoneNumberFromString(`+${digits}`);
    if (parsed?.isValid() && parsed.countryCallingCode !== '1')
      return `${parsed.formatInternational()}${ext}`;
    if (!parsed || parsed.countryCallingCode !== '1') return `${new AsYouType().input(`+${digits}`)}${ext}`;
    return `${formatNorthAmerican(String(parsed.nationalNumber))}${ext}`;
  }
  // Digits beyond ten are not cut: they are shown as typed so the person sees what is wrong.
  if (digits.length > PHONE_MAX_DIGITS) return text;
  return `${formatNorthAmerican(digits)}${ext}`;
}

/** "(555) 123-4567", partial input formatted as typed: `5` -> `(5`, `5551` -> `(555) 1`. */
function formatNorthAmerican(digits: string): string {
  if (digits.length === 0) return '';
  const area = digits.slice(0, 3);
  if (digits.length <= 3) return `(${area}`;
  const exchange = digits.slice(3, 6);
  if (digits.length <= 6) return `(${area}) ${exchange}`;
  return `(${area}) ${exchange}-${digits.slice(6)}`;
}

/** True when the input is a whole phone number (ten digits, or a valid international number). */
export function isCompletePhone(input: string | null | undefined): boolean {
  const r = parsePhone(input);
  return r.ok && r.value !== null;
}
