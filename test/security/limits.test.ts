import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, expectError, MALFORMED_ON_PURPOSE, signIn, startTestSite, type SignedIn } from '../server/helpers.ts';
import { counters, streamedRequest } from './http.ts';

// Issue 14, "no size limits": the reference server parsed a 200 MB password and ran scrypt on it,
// anonymously, 3.4 s a request, and read a 150 MB upload before answering 413. Real server, real HTTP;
// what the server read and hashed is seen through its counters (test hooks), not through timing.

const MiB = 1024 * 1024;

let site: RunningSite;
let tech: SignedIn;
beforeAll(async () => {
  site = await startTestSite();
  tech = await signIn(site, 'tech1');
});
afterAll(() => site.close());

const signInBody = (password: string) => ({ email: DEMO_ACCOUNTS.tech1.email, password });

describe('passwords', () => {
  it('a password over 1,024 characters is a 422 naming it, without running scrypt', async () => {
    const before = await counters(site);
    expectError(
      await api(site, 'POST', '/user/token', { json: signInBody('x'.repeat(1025)) }),
      422,
      'password',
      'too_long',
    );
    expectError(
      await api(site, 'POST', '/user/token', { json: signInBody('x'.repeat(200_000)) }),
      422,
      'password',
      'too_long',
    );
    expect((await counters(site)).passwordChecks).toBe(before.passwordChecks);
    // 1,024 characters are checked as any password is.
    expectError(await api(site, 'POST', '/user/token', { json: signInBody('x'.repeat(1024)) }), 401);
    expect((await counters(site)).passwordChecks).toBe(before.passwordChecks + 1);
  });

  it('an e-mail over 320 characters is a 422 naming it, without running scrypt', async () => {
    const before = await counters(site);
    expectError(
      await api(site, 'POST', '/user/token', { json: { email: `${'x'.repeat(320)}@demo.test`, password: 'x' } }),
      422,
      'email',
      'too_long',
    );
    expect((await counters(site)).passwordChecks).toBe(before.passwordChecks);
  });

  it('a 200 MB password is refused from its Content-Length: nothing of it is read, nothing hashed', async () => {
    const before = await counters(site);
    const answer = await streamedRequest(site.port, {
      path: '/api/2.0/user/token',
      headers: { 'Content-Type': 'application/json', ...MALFORMED_ON_PURPOSE },
      prefix: `{"email":"${DEMO_ACCOUNTS.tech1.email}","password":"`,
      suffix: '"}',
      total: 200 * MiB,
      declareLength: true,
    });
    // The body limit (1 MiB of JSON) answers before the password could be looked at: 413, not 422.
    expect(answer.status, answer.text).toBe(413);
    // The answer came while the client was still sending: far less than the body had left it.
    expect(answer.bytesSent).toBeLessThan(64 * MiB);
    const after = await counters(site);
    expect(after.bodyBytesRead - before.bodyBytesRead).toBe(0);
    expect(after.passwordChecks - before.passwordChecks).toBe(0);
    expect(answer.body.message).toBe('The request body is larger than 1 MiB');
  });

  it('a JSON body sent without Content-Length is cut off once it passes 1 MiB', async () => {
    const before = await counters(site);
    const answer = await streamedRequest(site.port, {
      path: '/api/2.0/user/token',
      headers: { 'Content-Type': 'application/json', ...MALFORMED_ON_PURPOSE },
      prefix: `{"email":"${DEMO_ACCOUNTS.tech1.email}","password":"`,
      suffix: '"}',
      total: 8 * MiB,
      declareLength: false,
    });
    expect(answer.status, answer.text).toBe(413);
    const after = await counters(site);
    expect(after.bodyBytesRead - before.bodyBytesRead).toBeGreaterThan(MiB);
    expect(after.bodyBytesRead - before.bodyBytesRead).toBeLessThanOrEqual(MiB + 256 * 1024);
    expect(after.passwordChecks - before.passwordChecks).toBe(0);
  });

  it('the site still answers on a new connection after refusing', async () => {
    expect((await signIn(site, 'tech2')).token).toMatch(/^[0-9a-f]{64}$/);
  });
});

describe('uploads', () => {
  const uploadPath = '/api/2.0/user/media/uploads?file=big.mp4';
  const uploadHeaders = () => ({ 'Content-Type': 'application/octet-stream', Authorization: `api ${tech.token}` });
  const itemCount = async () =>
    (await api(site, 'GET', '/user/media/current', { token: tech.token, query: { limit: 200 } })).body.length as number;

  it('a 150 MB upload is refused from its Content-Length, before a byte of it is read', async () => {
    const [before, items] = [await counters(site), await itemCount()];
    const answer = await streamedRequest(site.port, {
      path: uploadPath,
      headers: uploadHeaders(),
      total: 150 * MiB,
      fill: 0,
      declareLength: true,
    });
    expect(answer.status, answer.text).toBe(413);
    // The answer came while the client was still sending (the socket's buffers hold a few MiB).
    expect(answer.bytesSent).toBeLessThan(64 * MiB);
    expect((await counters(site)).bodyBytesRead - before.bodyBytesRead).toBe(0);
    expect(await itemCount()).toBe(items);
    expect(answer.body.message).toBe('The file is larger than 25 MiB');
  });

  it('an upload without Content-Length is cut off once it passes 25 MiB', async () => {
    const [before, items] = [await counters(site), await itemCount()];
    const answer = await streamedRequest(site.port, {
      path: uploadPath,
      headers: uploadHeaders(),
      total: 40 * MiB,
      fill: 0,
      declareLength: false,
    });
    expect(answer.status, answer.text).toBe(413);
    // Refused before the client had sent it all (it reads 25 MiB, the socket's buffers hold a few more).
    expect(answer.bytesSent).toBeLessThan(40 * MiB);
    const read = (await counters(site)).bodyBytesRead - before.bodyBytesRead;
    expect(read).toBeGreaterThan(25 * MiB);
    expect(read).toBeLessThanOrEqual(25 * MiB + 256 * 1024);
    expect(await itemCount()).toBe(items);
  });

  it('an upload within the limit is still stored', async () => {
    const items = await itemCount();
    const answer = await api(site, 'POST', '/user/media/uploads', {
      token: tech.token,
      query: { file: 'notes.txt' },
      headers: { 'Content-Type': 'application/octet-stream' },
      body: new Uint8Array(2 * MiB).fill(0x41),
    });
    expect(answer.status, answer.text).toBe(201);
    expect(await itemCount()).toBe(items + 1);
  });
});
