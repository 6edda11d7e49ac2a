import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { keyFileCodec } from '../../electron/core/services.ts';
import { LAUNCH_HEADER, readKeyOf, startWebShell, type RunningWebShell } from '../../electron/web/server.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// Attack 5 of issue 14: another local process (or OS user) calls the web shell, which once answered any
// caller without an Origin: it read the technician's status and sessions. And the data folder was 0755
// with a world-readable database, and the token sat in plain text. Real HTTP, real files.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
let shell: RunningWebShell;
const keyDir = makeTempDir('web-key');
const keyFile = path.join(keyDir.dir, 'config', 'web-shell.key');

beforeAll(async () => {
  site = await startDemoSite();
  app = makeServices(undefined, { secretCodec: keyFileCodec(keyFile) });
  const signedIn = await app.services.api.signIn({
    siteUrl: site.url,
    email: DEMO_ACCOUNTS.tech1.email,
    password: DEMO_ACCOUNTS.tech1.password,
  });
  expect(signedIn.ok).toBe(true);
  const staticDir = makeTempDir('web-static');
  fs.writeFileSync(path.join(staticDir.dir, 'index.html'), '<!doctype html><title>app</title>');
  shell = await startWebShell({ services: app.services, staticDir: staticDir.dir });
});
afterAll(async () => {
  await shell?.close();
  await app?.dispose();
  await site?.close();
  keyDir.remove();
});

const rpc = (headers: Record<string, string> = {}, body = '{"args":[]}') =>
  fetch(`${shell.url}/rpc/getStatus`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json', ...headers },
    body,
  });

describe('the web shell answers only the page it launched', () => {
  it('refuses a local caller without the launch secret on the App API, the events and the media', async () => {
    const status = await rpc();
    expect(status.status).toBe(401);
    expect(JSON.stringify(await status.json())).not.toContain(DEMO_ACCOUNTS.tech1.username);
    expect((await fetch(`${shell.url}/events`)).status).toBe(401);
    expect((await fetch(`${shell.url}/media/${encodeURIComponent(`${site.url}/igi/x.standard`)}`)).status).toBe(401);
    expect((await rpc({ [LAUNCH_HEADER]: 'a guess' })).status).toBe(401);
    // The read key of the event stream and the media is no key to the App API.
    expect((await rpc({ [LAUNCH_HEADER]: readKeyOf(shell.secret) })).status).toBe(401);
    expect((await fetch(`${shell.url}/events?key=${'x'.repeat(43)}`)).status).toBe(401);
  });

  it('the printed address is the app page, setting no cookie; the page trades the secret for a read key', async () => {
    // Issue 26: no cookie carries the secret (a cookie goes to every port of 127.0.0.1).
    const opened = await fetch(shell.launchUrl, { redirect: 'manual' });
    expect(opened.status).toBe(200);
    expect(opened.headers.get('set-cookie')).toBeNull();
    const status = await rpc({ [LAUNCH_HEADER]: shell.secret });
    expect(status.status).toBe(200);
    expect(await status.json()).toMatchObject({
      ok: true,
      value: { user: { username: DEMO_ACCOUNTS.tech1.username } },
    });
    const launched = await fetch(`${shell.url}/launch`, { method: 'POST', headers: { [LAUNCH_HEADER]: shell.secret } });
    const { readKey } = (await launched.json()) as { readKey: string };
    expect(readKey).toBe(readKeyOf(shell.secret));
    const wrong = await fetch(`${shell.url}/launch`, { method: 'POST', headers: { [LAUNCH_HEADER]: 'not-it' } });
    expect(wrong.status).toBe(401);
    const events = await fetch(`${shell.url}/events?key=${readKey}`);
    expect(events.status).toBe(200);
    await events.body?.cancel();
  });

  it('refuses an App API body past its limit unread, and deeply nested arguments as invalid input', async () => {
    const auth = { [LAUNCH_HEADER]: shell.secret };
    const huge = await rpc(auth, JSON.stringify({ args: ['x'.repeat(2 * 1024 * 1024)] }));
    expect(huge.status).toBe(413);
    const deep = `{"args":[${'['.repeat(5000)}${']'.repeat(5000)}]}`;
    const nested = await fetch(`${shell.url}/rpc/listGuides`, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json', ...auth },
      body: deep,
    });
    expect(nested.status).toBe(200);
    expect(await nested.json()).toMatchObject({
      ok: false,
      error: { code: 'invalid_input', message: expect.stringContaining('nested deeper than') },
    });
  });
});

describe("the technician's data at rest", () => {
  it('keeps the data folder 0700 and the database 0600', () => {
    expect(fs.statSync(app.dataDir).mode & 0o777).toBe(0o700);
    for (const name of ['fieldguide.sqlite', 'fieldguide.sqlite-wal']) {
      const file = path.join(app.dataDir, name);
      if (fs.existsSync(file)) expect(fs.statSync(file).mode & 0o777, name).toBe(0o600);
    }
  });

  it(
    'seals the token with a key kept outside the data folder: ' + 'the data folder alone holds no usable token',
    async () => {
      // One sealed file per technician who signed in here (connection/credentials.ts).
      const files = fs
        .readdirSync(app.dataDir, { recursive: true })
        .map(String)
        .filter((f) => f.endsWith('.sealed'));
      expect(files.length).toBeGreaterThan(0);
      for (const name of files) {
        const bytes = fs.readFileSync(path.join(app.dataDir, name));
        const separator = bytes.indexOf(0x0a);
        expect(bytes.subarray(0, separator).toString()).toBe('aes-256-gcm-keyfile');
        // Opened with the key from outside the folder, it is the token the site accepts; the file does not spell it.
        const { token } = JSON.parse(keyFileCodec(keyFile).open(bytes.subarray(separator + 1))) as { token: string };
        expect((await fetch(`${site.apiUrl}/user`, { headers: { Authorization: `api ${token}` } })).status).toBe(200);
        expect(bytes.includes(Buffer.from(token))).toBe(false);
      }
      expect(path.relative(app.dataDir, keyFile).startsWith('..')).toBe(true);
      expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
    },
  );
});
