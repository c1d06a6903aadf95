/**
 * Countries as ISO 3166-1 alpha-2 codes ("GB"), the code a contact's country is stored as. A country is typed or
 * chosen by its code or its English name; anything else is refused with a message, never cut to two letters.
 * The list is the countries libphonenumber-js knows (every country with its own numbering), named by the
 * platform's Intl.DisplayNames.
 */
import { getCountries } from 'libphonenumber-js/min';

export const COUNTRY_MESSAGE = 'Enter a country by its two-letter code (US, GB) or its name.';

let names: Intl.DisplayNames | null = null;
/** The English name of a country code ("GB" -> "United Kingdom"), the code itself when unknown. */
export function countryName(code: string): string {
  names ??= new Intl.DisplayNames(['en'], { type: 'region', fallback: 'code' });
  try {
    return names.of(code) ?? code;
  } catch {
    return code;
  }
}

let options: { Id: string; Name: string }[] | null = null;
/** Every country as a select option, by name. */
export function countryOptions(): readonly { Id: string; Name: string }[] {
  options ??= getCountries()
    .map((code) => ({ Id: code as string, Name: countryName(code) }))
    .sort((a, b) => a.Name.localeCompare(b.Name));
  return options;
}

/** A country as typed: its code in any case, or its English name. Empty is null. */
export function parseCountry(
  input: unknown,
): { ok: true; value: string | null } | { ok: false; error: string } {
  if (input === null || input === undefined) return { ok: true, value: null };
  if (typeof input !== 'string') return { ok: false, error: COUNTRY_MESSAGE };
  const text = input.trim();
  if (text === '') return { ok: true, value: null };
  const upper = text.toUpperCase();
  const all = countryOptions();
  const byCode = all.find((o) => o.Id === upper);
  if (byCode) return { ok: true, value: byCode.Id };
  const byName = all.find((o) => o.Name.toUpperCase() === upper);
  return byName ? { ok: true, value: byName.Id } : { ok: false, error: COUNTRY_MESSAGE };
}
