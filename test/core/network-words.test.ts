import net from 'node:net';
import { describe, expect, it } from 'vitest';
import { ApiError } from '../../electron/core/api/errors.ts';
import { networkError } from '../../electron/core/api/network-errors.ts';
import { ApiTransport } from '../../electron/core/api/transport.ts';

// The words a failed exchange is told in, each as the technician meets it (the outbox row, the sync
// centre, the connect screen): a connection cut on the way is not a wrong address.
const url = new URL('http://127.0.0.1:44539/api/2.0/work_log');
const failed = (code: string) =>
  Object.assign(new TypeError('fetch failed'), { cause: Object.assign(new Error(code), { code }) });

describe('a failed exchange in words', () => {
  it('says a connection cut on the way was cut, not that the address may be wrong', () => {
    // Seen in the Sync centre under a start the site lost the answer of: "Could not reach 127.0.0.1:44539:
    // check the address and the network", while the site answered everything else.
    for (const code of ['ECONNRESET', 'EPIPE', 'UND_ERR_SOCKET']) {
      const said = networkError(failed(code), 'POST /work_log', url, false, 20_000);
      expect(said.message).toBe(
        'The connection to 127.0.0.1:44539 was cut before it answered: the network may be unsteady.',
      );
      expect(said.reason).toBe('other');
    }
  });

  it('keeps the address to check for what it cannot tell apart, and says a refusal as one', () => {
    expect(networkError(failed('EWHATEVER'), 'GET /user', url, false, 20_000).message).toBe(
      'Could not reach 127.0.0.1:44539: check the address and the network.',
    );
    expect(networkError(failed('ECONNREFUSED'), 'GET /user', url, false, 20_000).reason).toBe('refused');
  });

  it('says so of a real connection cut after the request was sent (a POST, not asked again)', async () => {
    // A site behind an unsteady link: it reads the request, and the connection is reset.
    const cutting = net.createServer((socket) => socket.once('data', () => socket.resetAndDestroy()));
    await new Promise<void>((resolve) => cutting.listen(0, '127.0.0.1', resolve));
    const { port } = cutting.address() as net.AddressInfo;
    try {
      const transport = new ApiTransport({ siteUrl: `http://127.0.0.1:${port}` });
      const error = await transport.request('POST', '/work_log', { json: { guideid: 1 } }).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ApiError);
      expect((error as ApiError).message).toBe(
        `The connection to 127.0.0.1:${port} was cut before it answered: the network may be unsteady.`,
      );
    } finally {
      cutting.close();
    }
  });
});
