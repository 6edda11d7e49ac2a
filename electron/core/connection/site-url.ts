import { AppFailure } from '../result.ts';

/**
 * Normalises what a technician typed as a site address: adds `https://` when no scheme is given, accepts
 * only http and https, and drops a trailing `/api/2.0` or slash (the client adds the API path itself).
 */
export function normalizeSiteUrl(input: string): string {
  const trimmed = input.trim();
  if (trimmed === '') throw new AppFailure('invalid_input', 'Enter the address of your documentation site.', { field: 'siteUrl' });
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AppFailure('invalid_input', `"${trimmed}" is not a web address.`, { field: 'siteUrl' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppFailure('invalid_input', `Only http and https sites are supported, not ${url.protocol.replace(':', '')}.`, {
      field: 'siteUrl',
    });
  }
  if (url.username || url.password) {
    throw new AppFailure('invalid_input', 'Put the sign-in details in their own fields, not in the address.', { field: 'siteUrl' });
  }
  const pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/2\.0$/, '');
  return `${url.origin}${pathname}`;
}
