import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { ApiError } from '../../electron/core/api/errors.ts';
import { RefusedAddressError } from '../../electron/core/api/media-hosts.ts';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import { makeServices } from '../helpers/services.ts';

// Attack 3 of issue 14: a site answers the sign-in with a redirect to another host, hoping the client
// sends the e-mail and password (or the token) there. Two real HTTP servers on loopback.
interface Seen {
  method: string;
  url: string;
  authorization: string | undefined;
  body: string;
}
const servers: http.Server[] = [];
async function serve(
  handler: (req: http.IncomingMessage, res: http.ServerResponse, body: string) => void,
): Promise<{ url: string; seen: Seen[] }> {
  const seen: Seen[] = [];
  const server = http.createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      seen.push({ method: req.method ?? '', url: req.url ?? '', authorization: req.headers.authorization, body });
      handler(req, res, body);
    });
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, seen };
}
afterEach(async () => {
  for (const server of servers.splice(0)) {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  }
});

describe('redirects never carry credentials to another host', () => {
  it('a sign-in redirected to another host sends it neither the e-mail nor the password', async () => {
    const thief = await serve((_req, res) => res.end('{}'));
    const hostile = await serve((_req, res) => {
      res.writeHead(307, { Location: `${thief.url.replace('127.0.0.1', 'localhost')}/api/2.0/user/token` });
      res.end();
    });
    const app = makeServices();
    try {
      const result = await app.services.api.signIn({
        siteUrl: hostile.url,
        email: 'tech1@demo.test',
        password: 'the-real-password',
      });
      expect(result.ok).toBe(false);
      expect(hostile.seen.map((s) => s.method)).toEqual(['POST']);
      expect(thief.seen).toEqual([]);
    } finally {
      await app.dispose();
    }
  });

  it('an API call redirected to another host sends no token there; one within the site is followed', async () => {
    const thief = await serve((_req, res) => res.end('{"userid": 1}'));
    const site = await serve((req, res) => {
      if (req.url === '/api/2.0/moved') {
        res.writeHead(302, { Location: '/api/2.0/here' });
        res.end();
      } else if (req.url === '/api/2.0/here') res.end('{"ok": true}');
      else {
        res.writeHead(301, { Location: `${thief.url}/api/2.0/user` });
        res.end();
      }
    });
    const transport = new ApiTransport({ siteUrl: site.url, token: 'secret-token' });
    const refused = await transport.request('GET', '/user').catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(ApiError);
    expect((refused as ApiError).message).toContain('it was not followed, so nothing was sent there');
    expect(thief.seen).toEqual([]);
    expect(await transport.request('GET', '/moved')).toEqual({ ok: true });
    expect(site.seen.find((s) => s.url === '/api/2.0/here')?.authorization).toBe('api secret-token');
  });

  it('a media download may follow a redirect to a CDN, without the token', async () => {
    const cdn = await serve((_req, res) => res.end('picture bytes'));
    const site = await serve((_req, res) => {
      res.writeHead(302, { Location: `${cdn.url.replace('127.0.0.1', 'localhost')}/pic.jpg` });
      res.end();
    });
    // The CDN is played by another host name here, which media may come from once allowed (media-hosts.ts).
    const mediaOrigins = () => [cdn.url.replace('127.0.0.1', 'localhost')];
    const transport = new ApiTransport({ siteUrl: site.url, token: 'secret-token', mediaOrigins });
    const { body } = await transport.download(`${site.url}/igi/pic.jpg`);
    const chunks: Uint8Array[] = [];
    for await (const chunk of body) chunks.push(chunk);
    expect(Buffer.concat(chunks).toString()).toBe('picture bytes');
    expect(site.seen[0]?.authorization).toBe('api secret-token');
    expect(cdn.seen[0]?.authorization).toBeUndefined();
  });

  it('a media download redirected to another port here is refused before it is asked (issue 26)', async () => {
    const admin = await serve((_req, res) => res.end('admin page'));
    const site = await serve((_req, res) => {
      res.writeHead(302, { Location: `${admin.url}/admin/reset` });
      res.end();
    });
    const transport = new ApiTransport({ siteUrl: site.url, token: 'secret-token' });
    const refused = await transport.download(`${site.url}/igi/pic.jpg`).catch((e: unknown) => e);
    expect(refused).toBeInstanceOf(RefusedAddressError);
    expect((refused as RefusedAddressError).origin).toBe(admin.url);
    expect(site.seen).toHaveLength(1);
    expect(admin.seen).toEqual([]);
  });

  it('refuses data:, file: and javascript: media addresses without reading them', async () => {
    const transport = new ApiTransport({ siteUrl: 'http://127.0.0.1:9' });
    for (const url of ['data:text/html,<script>alert(1)</script>', 'file:///etc/passwd', 'javascript:alert(1)']) {
      const error = await transport.download(url).catch((e: unknown) => e);
      expect(error, url).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toContain('is refused');
    }
  });

  it('stops reading a JSON answer past the limit instead of filling the memory', async () => {
    const site = await serve((_req, res) => {
      res.writeHead(200, { 'Content-Type': 'application/json' });
      // A never-ending answer with no length: the client must stop at its limit (32 MB), not at the end.
      const chunk = Buffer.alloc(1024 * 1024, 0x20);
      let sent = 0;
      const write = (): void => {
        while (sent < 64 && res.write(chunk)) sent++;
        if (sent < 64) res.once('drain', write);
        else res.end('{}');
      };
      write();
    });
    const error = await new ApiTransport({ siteUrl: site.url }).request('GET', '/guides/1').catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ApiError);
    expect((error as ApiError).message).toBe("The site's answer for guide 1 is larger than 32 MB and was not read.");
  });
});
