/** The prefix a website gets when the tenant has not configured another. */
export const DEFAULT_WEBSITE_PREFIX = 'http://';

const SCHEME = /^(?:https?|ftps?):\/\//i;

/** True when the value already starts with an http, https, ftp or ftps scheme. */
export function hasWebsiteScheme(value: string): boolean {
  return SCHEME.test(value.trim());
}

/**
 * "Website fields get an http prefix (or the configured prefix) when no http, https, ftp or ftps scheme is
 * present." (spec 000 section 5). Empty stays empty; a leading `//` is not doubled. Applying it twice changes
 * nothing.
 */
export function normalizeWebsite(
  value: string | null | undefined,
  prefix: string = DEFAULT_WEBSITE_PREFIX,
): string {
  const trimmed = (value ?? '').trim();
  if (trimmed === '' || SCHEME.test(trimmed)) return trimmed;
  const chosen = prefix.trim() === '' ? DEFAULT_WEBSITE_PREFIX : prefix.trim();
  return `${chosen}${trimmed.replace(/^\/+/, '')}`;
}

/** A web address with or without a scheme: labels, an alphabetic ending, an optional port and path. */
export const WEBSITE_PATTERN =
  /^(?:(?:https?|ftps?):\/\/)?(?:[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z]{2,63}(?::\d{1,5})?(?:[/?#]\S*)?$/i;

export const WEBSITE_MESSAGE = 'Enter a web address such as www.example.org.';

/** A website as typed, prefixed (normalizeWebsite) and checked: a host name with a dot, no spaces. Empty is null. */
export function parseWebsite(
  value: string | null | undefined,
  prefix: string = DEFAULT_WEBSITE_PREFIX,
): { ok: true; value: string | null } | { ok: false; error: string } {
  const url = normalizeWebsite(value, prefix);
  if (url === '') return { ok: true, value: null };
  return WEBSITE_PATTERN.test(url) ? { ok: true, value: url } : { ok: false, error: WEBSITE_MESSAGE };
}
