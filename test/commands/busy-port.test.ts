import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { LAUNCH_HEADER } from '../../electron/web/server.ts';
import { listenOn, PortUnavailableError } from '../../server/listen.ts';
import { runCommand, stopAll } from './process.ts';

// A port another program holds: the web shell and `npm run server` take the next free port and say so,
// or with --strict-port stop with a sentence, never an EADDRINUSE stack trace. Ports come from the OS
// (another program's port is simulated by this test holding one), never a fixed number.

const holders: net.Server[] = [];
const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'fieldguide-busy-port-'));

/** Holds `port` (0: any free port) on 127.0.0.1 as another program would; null when it is taken already. */
async function hold(port = 0): Promise<number | null> {
  const server = net.createServer();
  try {
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => resolve());
    });
  } catch {
    return null;
  }
  holders.push(server);
  return (server.address() as net.AddressInfo).port;
}

afterEach(async () => {
  await stopAll();
  await Promise.all(holders.splice(0).map((server) => new Promise((resolve) => server.close(resolve))));
});
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

const webShell = (...args: string[]) =>
  runCommand(process.execPath, { args: ['--import', 'tsx', 'electron/web/cli.ts', '--data-dir', dataDir, ...args] });

/** What a person reads: the sentence, no stack frames, no system error code. */
function expectPlainRefusal(output: string, port: number): void {
  expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use by another program.`);
  expect(output).toContain('choose another port with --port');
  expect(output).not.toMatch(/EADDRINUSE|^\s+at /m);
}

describe('a port another program holds', () => {
  it('npm run server -- --port P --strict-port: says so and exits 1', async () => {
    const port = (await hold())!;
    const run = runCommand(`npm run server -- --demo --port ${port} --strict-port`);
    expect(await run.exit(120_000)).toBe(1);
    expectPlainRefusal(run.output(), port);
  });

  it('npm run server -- --port P: the next free port, said on the first line', async () => {
    const port = (await hold())!;
    const run = runCommand(`npm run server -- --demo --port ${port}`);
    const [, url, taken] = await run.waitFor(/Fieldguide reference server: (http:\/\/127\.0\.0\.1:(\d+))/, 120_000);
    expect(Number(taken)).toBeGreaterThan(port);
    expect(run.stdout()).toContain(
      `Port ${port} is in use by another program, so the server took the next free port, ${taken}.`,
    );
    expect((await fetch(`${url}/api/2.0/guides`)).status).toBe(200);
  });

  it('the web shell with --strict-port: says so and exits 1', async () => {
    const port = (await hold())!;
    const run = webShell('--port', String(port), '--strict-port');
    expect(await run.exit(120_000)).toBe(1);
    expectPlainRefusal(run.output(), port);
  });

  it('the web shell (without --demo): the next free port, serving the app, nobody signed in', async () => {
    const port = (await hold())!;
    const run = webShell('--port', String(port));
    const [, url, taken, secret] = await run.waitFor(
      /Fieldguide \(web shell\) at (http:\/\/127\.0\.0\.1:(\d+))\/\?launch=([\w-]+)/,
      120_000,
    );
    expect(Number(taken)).toBeGreaterThan(port);
    expect(run.stdout()).toContain(
      `Port ${port} is in use by another program, so Fieldguide took the next free port, ${taken}.`,
    );
    const status = (await (
      await fetch(`${url}/rpc/getStatus`, {
        method: 'POST',
        headers: { [LAUNCH_HEADER]: secret! },
        body: '{"args":[]}',
      })
    ).json()) as { ok: boolean; value: { user: unknown } };
    expect(status).toMatchObject({ ok: true, value: { user: null } });
  });

  it('listenOn: every port of the range taken is one sentence naming the range', async () => {
    const first = (await hold())!;
    // first+1 and first+2 are held here, or by some other program already: taken either way.
    await hold(first + 1);
    await hold(first + 2);
    const server = net.createServer();
    const error = await listenOn(server, { port: first, host: '127.0.0.1', nextFree: 2 }).then(
      () => null,
      (failure: unknown) => failure,
    );
    server.close();
    // Unless one of the two was freed by its other holder in between: then it was rightly taken.
    if (error === null) return;
    expect(error).toBeInstanceOf(PortUnavailableError);
    expect((error as PortUnavailableError).message).toBe(
      `Ports ${first} to ${first + 2} on 127.0.0.1 are all in use by other programs.`,
    );
  });
});
