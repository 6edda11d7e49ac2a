import dns from 'node:dns';
import net from 'node:net';
import { Agent } from 'undici';
import { ApiError } from './errors.ts';

/** Where an address leads, as far as the address itself tells. */
export type AddressPlace = 'this computer' | 'the local network' | 'the web';

// Node's BlockList also matches IPv4-mapped IPv6 addresses (`::ffff:127.0.0.1`) against the IPv4 ranges.
const THIS_COMPUTER = new net.BlockList();
THIS_COMPUTER.addSubnet('127.0.0.0', 8, 'ipv4');
THIS_COMPUTER.addSubnet('0.0.0.0', 8, 'ipv4');
THIS_COMPUTER.addAddress('::1', 'ipv6');
THIS_COMPUTER.addAddress('::', 'ipv6');
const LOCAL_NETWORK = new net.BlockList();
for (const [prefix, bits] of [
  ['10.0.0.0', 8],
  ['172.16.0.0', 12],
  ['192.168.0.0', 16],
  ['169.254.0.0', 16],
  ['100.64.0.0', 10],
  ['192.0.0.0', 24],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  LOCAL_NETWORK.addSubnet(prefix, bits, 'ipv4');
}
for (const [prefix, bits] of [
  ['fc00::', 7],
  ['fe80::', 10],
  ['ff00::', 8],
] as const) {
  LOCAL_NETWORK.addSubnet(prefix, bits, 'ipv6');
}

/** Where an IP address is (loopback, private, link-local, multicast and reserved ranges are not the web). */
export function placeOfIp(address: string): AddressPlace {
  const family = net.isIP(address) === 6 ? 'ipv6' : 'ipv4';
  if (THIS_COMPUTER.check(address, family)) return 'this computer';
  if (LOCAL_NETWORK.check(address, family)) return 'the local network';
  return 'the web';
}

/**
 * Where a URL's host is, by its text: an IP address by its range; `localhost` and `*.localhost` are this
 * computer; a `.local` name (mDNS), a name without a dot (the local DNS's) or `*.internal` the local
 * network. Any other name is the web's until it resolves (`guardedAgent` checks what it resolves to).
 */
export function placeOfHost(hostname: string): AddressPlace {
  const host = hostname
    .replace(/^\[|\]$/g, '')
    .replace(/\.$/, '')
    .toLowerCase();
  if (net.isIP(host)) return placeOfIp(host);
  if (host === 'localhost' || host.endsWith('.localhost')) return 'this computer';
  if (!host.includes('.') || host.endsWith('.local') || host.endsWith('.internal')) return 'the local network';
  return 'the web';
}

/** A media address the app would not fetch: `origin` is what the technician may allow. */
export class RefusedAddressError extends ApiError {
  constructor(
    resource: string,
    message: string,
    readonly origin: string,
  ) {
    super('bad_response', resource, message);
  }
}

/**
 * Where media may come from (issue 26). The site's own origin; a host of the web over https (a CDN the
 * site's answers name); anything else (another port of this computer, the local network, plain http to
 * another machine) only when the technician allowed that origin for the site. `check` answers whether
 * the connection must still be checked where the name resolves (a name of the web, not allowed).
 */
export class MediaAddressPolicy {
  readonly #site: URL;

  constructor(
    siteUrl: string,
    private readonly allowed: () => readonly string[],
  ) {
    this.#site = new URL(siteUrl);
  }

  check(url: URL, resource: string): { resolveCheck: boolean } {
    if (url.origin === this.#site.origin || this.allowed().includes(url.origin)) return { resolveCheck: false };
    const place = placeOfHost(url.hostname);
    const named = `The site names a file at ${url.origin}`;
    const allow = "If it is your site's own media server, allow it in the sync centre.";
    if (place !== 'the web') {
      const where = place === 'this computer' ? 'on this computer' : 'on the local network';
      const message = `${named}, an address ${where} that is not the site's: not fetched. ${allow}`;
      throw new RefusedAddressError(resource, message, url.origin);
    }
    if (url.protocol !== 'https:') {
      const why = 'over plain http, which anyone on the way could read or change';
      throw new RefusedAddressError(resource, `${named} ${why}: not fetched. ${allow}`, url.origin);
    }
    return { resolveCheck: true };
  }
}

/**
 * Connections that refuse a name resolving to this computer or the local network (a CDN's name pointed at
 * a router or another port here): checked when the connection is made, so a name cannot answer one
 * address to a check and another to the connection.
 */
export const guardedAgent = new Agent({ connect: { lookup: guardedLookup } });

type LookupCallback = (
  error: NodeJS.ErrnoException | null,
  address: string | dns.LookupAddress[],
  family?: number,
) => void;

export function guardedLookup(hostname: string, options: dns.LookupOptions, callback: LookupCallback): void {
  dns.lookup(hostname, { ...options, all: true }, (error, addresses) => {
    if (error) return callback(error, []);
    const inside = addresses.find((found) => placeOfIp(found.address) !== 'the web');
    if (inside) {
      const where = placeOfIp(inside.address) === 'this computer' ? 'on this computer' : 'on the local network';
      const refused = new Error(`${hostname} resolves to ${inside.address}, an address ${where}: not fetched.`);
      return callback(Object.assign(refused, { code: 'EFIELDGUIDE_INSIDE' }), []);
    }
    if (options.all) return callback(null, addresses);
    const first = addresses[0]!;
    callback(null, first.address, first.family);
  });
}
