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
