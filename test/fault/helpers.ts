import http from 'node:http';
import net from 'node:net';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { insertUser } from '../../server/users/repo.ts';
import { seedDemoPeople } from '../../server/users/seed.ts';

/** The reference site with its demo people, enough extra people for a long `/users` page, and test hooks. */
export function startPeopleSite(): Promise<RunningSite> {
  return startSite({
    testHooks: true,
    seed: (db) => {
      seedDemoPeople(db);
      for (let i = 0; i < 250; i++) {
        insertUser(db, {
          email: `filler${i}@fault.test`,
          username: `Filler ${i} ${'field technician · '.repeat(1 + (i % 8))}`,
          password_hash: 'x',
        });
      }
    },
  });
}

export const TECH_SIGN_IN = JSON.stringify({
  email: DEMO_ACCOUNTS.tech1.email,
  password: DEMO_ACCOUNTS.tech1.password,
});

export interface AuditEntry {
  auditid: number;
  method: string;
  path: string;
  entity: string;
  entity_id: string;
}

/** The site's own record of applied changes, read directly (not through the proxy). */
export async function audit(site: RunningSite, entity: string): Promise<AuditEntry[]> {
  const response = await fetch(`${site.url}/__test/audit?entity=${entity}`);
  return (await response.json()) as AuditEntry[];
}

export interface RawResponse {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

/** One request on its own connection, with a chosen Host header (fetch can't set it). */
export function rawRequest(port: number, path: string, host: string, method = 'GET'): Promise<RawResponse> {
  return new Promise((resolve, reject) => {
    const request = http.request(
      { host: '127.0.0.1', port, path, method, agent: false, headers: { Host: host } },
      (response) => {
        const chunks: Buffer[] = [];
        response.on('data', (chunk: Buffer) => chunks.push(chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body: Buffer.concat(chunks) }),
        );
        response.on('error', reject);
      },
    );
    request.on('error', reject);
    request.end();
  });
}

export interface KeptAliveClient {
  socket: net.Socket;
  /** One GET on this connection; resolves once the whole (Content-Length framed) response arrived. */
  get(path: string): Promise<{ status: number; body: string }>;
}

/** A bare keep-alive connection, having completed a GET of `first` when given (so it is idle now). */
export async function keptAliveClient(port: number, first?: string): Promise<KeptAliveClient> {
  const socket = net.connect(port, '127.0.0.1');
  await new Promise<void>((resolve, reject) => socket.once('connect', resolve).once('error', reject));
  const get = (path: string) =>
    new Promise<{ status: number; body: string }>((resolve, reject) => {
      let received = Buffer.alloc(0);
      const onData = (chunk: Buffer) => {
        received = Buffer.concat([received, chunk]);
        const headEnd = received.indexOf('\r\n\r\n');
        if (headEnd < 0) return;
        const head = received.subarray(0, headEnd).toString();
        const length = Number(/content-length: *(\d+)/i.exec(head)?.[1] ?? NaN);
        if (received.length < headEnd + 4 + length) return;
        socket.off('data', onData).off('error', reject);
        resolve({ status: Number(head.split(' ')[1]), body: received.subarray(headEnd + 4).toString() });
      };
      socket.on('data', onData).once('error', reject);
      socket.write(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nConnection: keep-alive\r\n\r\n`);
    });
  if (first) await get(first);
  return { socket, get };
}

/** What happens to a socket next: an error code, or 'close' when it just closes. */
export function nextSocketEvent(socket: net.Socket): Promise<string> {
  return new Promise((resolve) => {
    socket.once('error', (error: NodeJS.ErrnoException) => resolve(error.code ?? error.message));
    socket.once('close', () => resolve('close'));
  });
}

/** A fetch's client-visible result: the status and body, or 'error' when the request or its body failed. */
export async function attempt(url: string, init?: RequestInit): Promise<{ status: number; text: string } | 'error'> {
  try {
    const response = await fetch(url, init);
    return { status: response.status, text: await response.text() };
  } catch {
    return 'error';
  }
}
