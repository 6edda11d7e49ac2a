import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { siteHttp } from '../../electron/core/api/http.ts';
import { guardedLookup, MediaAddressPolicy, placeOfHost } from '../../electron/core/api/media-hosts.ts';
import { RefusedAddressError } from '../../electron/core/api/media-hosts.ts';

// Where media may come from (issue 26): the place of an address by its text, the policy, and the
// connection guard that checks where a name resolves (with the system's own resolver).
describe('the place of an address', () => {
  it.each([
    ['127.0.0.1', 'this computer'],
    ['127.8.9.10', 'this computer'],
    ['[::1]', 'this computer'],
    ['[::ffff:7f00:1]', 'this computer'],
    ['0.0.0.0', 'this computer'],
    ['localhost', 'this computer'],
    ['LOCALHOST.', 'this computer'],
    ['admin.localhost', 'this computer'],
    ['192.168.1.1', 'the local network'],
    ['10.20.30.40', 'the local network'],
    ['172.31.0.1', 'the local network'],
    ['169.254.169.254', 'the local network'],
    ['[fe80::1]', 'the local network'],
    ['[fd00::5]', 'the local network'],
    ['[::ffff:c0a8:101]', 'the local network'],
    ['printer.local', 'the local network'],
    ['intranet', 'the local network'],
    ['172.32.0.1', 'the web'],
    ['93.184.216.34', 'the web'],
    ['guide-images.cdn.ifixit.com', 'the web'],
  ])('%s is %s', (host, place) => {
    expect(placeOfHost(host)).toBe(place);
  });
});

describe('the media address policy', () => {
  const policy = new MediaAddressPolicy('http://127.0.0.1:8080', () => ['http://192.168.1.20:9000']);
  const check = (url: string) => policy.check(new URL(url), 'GET /x');

  it("takes the site's own origin and allowed ones as they are, a CDN over https checked where it resolves", () => {
    expect(check('http://127.0.0.1:8080/igi/a.standard')).toEqual({ resolveCheck: false });
    expect(check('http://192.168.1.20:9000/a.png')).toEqual({ resolveCheck: false });
    expect(check('https://guide-images.cdn.ifixit.com/igi/a.standard')).toEqual({ resolveCheck: true });
  });

  it('refuses another port here, the local network and plain http elsewhere, naming the origin to allow', () => {
    const refused = [
      'http://127.0.0.1:8081/admin',
      'https://localhost/x',
      'http://192.168.1.20:9001/',
      'http://cdn.example.com/a.png',
    ];
    for (const url of refused) {
      const refusal = (() => {
        try {
          check(url);
          return null;
        } catch (error) {
          return error;
        }
      })();
      expect(refusal, url).toBeInstanceOf(RefusedAddressError);
      expect((refusal as RefusedAddressError).origin).toBe(new URL(url).origin);
      expect((refusal as Error).message).toMatch(/not fetched.*allow it in the sync centre/);
    }
  });
});

describe('the connection guard', () => {
  it('refuses a name that resolves to this computer, as the system resolves it', async () => {
    const error = await new Promise<NodeJS.ErrnoException | null>((resolve) => {
      guardedLookup('localhost', {}, (e) => resolve(e));
    });
    expect(error?.code).toBe('EFIELDGUIDE_INSIDE');
  });

  it("holds on the app's own HTTP client: a guarded request to such a name never connects", async () => {
    let hits = 0;
    const server = http.createServer((_req, res) => {
      hits++;
      res.end('here');
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    try {
      const url = new URL(`http://localhost:${(server.address() as AddressInfo).port}/`);
      const guarded = await siteHttp(url, { headers: {}, guarded: true }).then(
        () => null,
        (error: unknown) => error,
      );
      expect(JSON.stringify(guarded, Object.getOwnPropertyNames(guarded))).toContain('EFIELDGUIDE_INSIDE');
      expect(hits).toBe(0);
      // Without the guard (the site's own origin) the same address answers.
      const plain = await siteHttp(url, { headers: {} });
      expect(plain.status).toBe(200);
      plain.cancel();
      expect(hits).toBe(1);
    } finally {
      server.closeAllConnections();
      await new Promise((resolve) => server.close(resolve));
    }
  });
});
