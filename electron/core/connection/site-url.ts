import { AppFailure } from '../result.ts';

const BEGIN_AS = 'write its start as https:// (or http://), or leave it out.';

/**
 * Normalises what a technician typed as a site address: adds `https://` when no scheme is given, accepts
 * only http and https, and drops a trailing `/api/2.0` or slash (the client adds the API path itself).
 */
export function normalizeSiteUrl(input: string): string {
  const trimmed = input.trim();
  if (trimmed === '')
    throw new AppFailure('invalid_input', 'Enter the address of your documentation site.', { field: 'siteUrl' });
  // Typed wrong, the address went on as a host ("htps//demo workshop" was looked for as a site called htps).
  if (/\s/.test(trimmed))
    throw new AppFailure('invalid_input', `A web address has no spaces: check "${trimmed}".`, { field: 'siteUrl' });
  // A scheme has no dot: "www.example.com//api/2.0" and "demo.example.com:abc" begin with their host.
  const start = /^([a-z][a-z0-9+-]*)(:\/(?!\/)|\/\/|:(?!\/|\d))/i.exec(trimmed);
  if (start && !/^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed))
    throw new AppFailure('invalid_input', `"${trimmed}" does not begin as a web address does: ${BEGIN_AS}`, {
      field: 'siteUrl',
    });
  const withScheme = /^[a-z][a-z0-9+.-]*:\/\//i.test(trimmed) ? trimmed : `https://${trimmed}`;
  let url: URL;
  try {
    url = new URL(withScheme);
  } catch {
    throw new AppFailure('invalid_input', `"${trimmed}" is not a web address.`, { field: 'siteUrl' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    throw new AppFailure(
      'invalid_input',
      `Only http and https sites are supported, not ${url.protocol.replace(':', '')}.`,
      {
        field: 'siteUrl',
      },
    );
  }
  if (url.username || url.password) {
    throw new AppFailure('invalid_input', 'Put the sign-in details in their own fields, not in the address.', {
      field: 'siteUrl',
    });
  }
  const pathname = url.pathname.replace(/\/+$/, '').replace(/\/api\/2\.0$/, '');
  return `${url.origin}${pathname}`;
}

/**
 * The addresses to try for what was typed. With a scheme, just that one. Without one, https first; and
 * for this machine or the workshop's own network (loopback, private and link-local addresses, `.local`
 * names, a bare host name) plain http after it, since such sites often have no certificate.
 */
export function siteUrlCandidates(input: string): string[] {
  const secure = normalizeSiteUrl(input);
  if (/^[a-z][a-z0-9+.-]*:\/\//i.test(input.trim())) return [secure];
  const url = new URL(secure);
  return isLocalHost(url.hostname) ? [secure, secure.replace(/^https:/, 'http:')] : [secure];
}

/** The origin of an http or https address (`scheme://host[:port]`), or invalid_input in plain words. */
export function webOrigin(address: string): string {
  let url: URL;
  try {
    url = new URL(address.trim());
  } catch {
    throw new AppFailure('invalid_input', `"${address}" is not a web address.`, { field: 'origin' });
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') {
    const scheme = url.protocol.replace(':', '');
    const message = `Only http and https addresses are taken, not ${scheme}.`;
    throw new AppFailure('invalid_input', message, { field: 'origin' });
  }
  return url.origin;
}

/** This machine itself: the only place plain http goes without the technician's say-so. */
export function isLoopback(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '::1' || /^127\./.test(host);
}

/**
 * Plain http to another machine sends the password (or token) readable on the way: refused unless the
 * technician confirmed it for this connect.
 */
export function checkEncryption(siteUrl: string, allowInsecure: boolean | undefined): void {
  const url = new URL(siteUrl);
  if (url.protocol === 'https:' || isLoopback(url.hostname) || allowInsecure) return;
  throw new AppFailure(
    'invalid_input',
    `${url.host} would be reached over plain http: your sign-in would travel without encryption. ` +
      `Use its https address, or confirm that this is your workshop's own network.`,
    { field: 'siteUrl', needs: 'insecure', url: siteUrl },
  );
}

function isLocalHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  if (
    host === 'localhost' ||
    host.endsWith('.localhost') ||
    host.endsWith('.local') ||
    (!host.includes('.') && !host.includes(':'))
  )
    return true;
  if (host === '::1' || /^f[cd][0-9a-f]{2}:/.test(host) || host.startsWith('fe80:')) return true;
  const v4 = host.match(/^(\d+)\.(\d+)\.(\d+)\.(\d+)$/);
  if (!v4) return false;
  const [a, b] = [Number(v4[1]), Number(v4[2])];
  return (
    a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168) || (a === 169 && b === 254)
  );
}
