import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { request, type Dispatcher } from 'undici';
import { FrontConnections } from './front-connections.ts';
import { guardedAgent } from './media-hosts.ts';

/** What a request sends: no redirect is followed (redirects.ts decides where a request may go). */
export interface HttpInit {
  method?: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
  /** Refuse the connection when the host's name resolves to this computer or the local network (media-hosts.ts). */
  guarded?: boolean;
  /**
   * `front`: the technician waits for this answer now; it goes on the front lane's connections.
   * `front-warmth`: the front lane's own warm question (sync/front-lane.ts), on its idlest connection.
   */
  lane?: Lane;
}

/**
 * `front`: what a technician waits for now (a guide kept or read while a sync runs). Undici keeps one pool
 * of connections per origin, and a running sync keeps every one of them busy with its own answers, so a
 * request sent beside it waits for one to end or opens a new one (a handshake: one round trip, two over
 * TLS). The front lane has connections of its own (front-connections.ts), kept open while a sync runs
 * by `front-warmth` questions (sync/front-lane.ts).
 */
export type Lane = 'front' | 'front-warmth';

/**
 * How many connections the front lane keeps for each site: the requests a guide's text needs at once
 * (the guide, its forms, tags, quizzes and release notes: keep-now.ts) each find one already open.
 */
export const FRONT_CONNECTIONS = 6;
const front = new FrontConnections(FRONT_CONNECTIONS);

/**
 * How long the front lane's idlest free connection to this origin has been given nothing (ms), or null
 * when none is free; what a warm question would go on (front-connections.ts).
 */
export function frontLaneIdleFor(origin: string): number | null {
  return front.idleFor(origin);
}

/** An answer's status and head, and its body decoded when the site compressed it. Read the body, or cancel it. */
export interface HttpAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  /** The body as it arrives (files). Until it is read to its end or cancelled, its connection serves nothing else. */
  readonly body: AsyncIterable<Uint8Array>;
  /**
   * The whole body at once (an API answer), or null when it is
   * larger than `limit` sent or decoded: reading stops there.
   */
  bytes(limit: number): Promise<Buffer | null>;
  /** Stops the body where it is and lets its connection go. */
  cancel(): void;
}

/** One HTTP exchange. The app's own is `siteHttp`; tests wrap it to watch or redirect what is sent. */
export type Http = (url: URL, init: HttpInit) => Promise<HttpAnswer>;

/** What a browser accepts, so a site compresses its JSON for us as it does for its web pages. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * HTTP through undici's `request`, the client beneath Node's own `fetch`, without the WHATWG layer
 * (Request, Response, Headers, web streams and an abort relay per request). A loopback loop of 2,800
 * small files took about a third of fetch's CPU; `BENCH_LINKS=0 npm run bench` prints the sync's beside
 * a bare fetch loop's.
 * `fetch` decodes compressed bodies itself; here a file is decoded as it arrives, and an API answer in
 * one call once it is all in: a zlib stream per answer cost several times the decoding itself (about
 * 0.17 ms of CPU for a 17 KB guide, against 0.015 ms in one call). Both are capped decoded.
 */
export const siteHttp: Http = async (url, init) => {
  const answer = await request(url, {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: { 'accept-encoding': ACCEPT_ENCODING, ...init.headers },
    body: init.body,
    signal: init.signal,
    ...(init.guarded ? { dispatcher: guardedAgent } : init.lane ? { dispatcher: laneDispatcher(init.lane) } : {}),
  });
  const head = new HeadView(answer.headers);
  const raw = answer.body;
  // A stream with no 'error' listener throws its error at the process. The body's error (a reset while
  // the caller is still busy, or the abort a cancel causes) stays in the stream: its reader gets it at
  // its next read, as with fetch.
  raw.on('error', ignore);
  const hasBody = init.method !== 'HEAD' && answer.statusCode !== 204 && answer.statusCode !== 304;
  const codings = hasBody ? codingsOf(head.get('content-encoding')) : [];
  let decoded: Readable | null = null;
  return {
    status: answer.statusCode,
    ok: answer.statusCode >= 200 && answer.statusCode <= 299,
    headers: head,
    get body(): Readable {
      decoded ??= codings.length === 0 ? raw : decodingStream(raw, codings);
      return decoded;
    },
    async bytes(limit) {
      const chunks: Buffer[] = [];
      let total = 0;
      for await (const chunk of raw as AsyncIterable<Buffer>) {
        total += chunk.byteLength;
        if (total > limit) {
          raw.destroy();
          return null;
        }
        chunks.push(chunk);
      }
      return decodeWhole(Buffer.concat(chunks, total), codings, limit);
    },
    cancel: () => {
      decoded?.destroy();
      raw.destroy();
    },
  };
};

const ignore = (): void => undefined;

const laneDispatcher = (lane: Lane): Dispatcher => (lane === 'front' ? front.asked : front.warmth);

type Coding = 'gzip' | 'deflate' | 'br';

/**
 * The codings of a Content-Encoding in the order they are undone (the last applied first), as `fetch`
 * has them. None for `identity`, and none when a coding is not one we asked for: the bytes stay as
 * sent, and what reads them says so.
 */
function codingsOf(header: string | null): Coding[] {
  if (!header) return [];
  const codings: Coding[] = [];
  for (const name of header.split(',').reverse()) {
    const coding = name.trim().toLowerCase();
    if (coding === 'identity' || coding === '') continue;
    if (coding === 'gzip' || coding === 'x-gzip') codings.push('gzip');
    else if (coding === 'deflate' || coding === 'br') codings.push(coding);
    else return [];
  }
  return codings;
}

// Some sites end a compressed body early or pad it: what was decoded is kept, as browsers and fetch do.
const ZLIB = { flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH };
const BROTLI = { flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH };

function decodingStream(raw: Readable, codings: Coding[]): Readable {
  const decoders = codings.map((coding) =>
    coding === 'gzip'
      ? zlib.createGunzip(ZLIB)
      : coding === 'deflate'
        ? zlib.createInflate(ZLIB)
        : zlib.createBrotliDecompress(BROTLI),
  );
  const stream = pipeline([raw, ...decoders], ignore) as unknown as Readable;
  stream.on('error', ignore);
  return stream;
}

function decodeWhole(data: Buffer, codings: Coding[], limit: number): Buffer | null {
  let out = data;
  try {
    for (const coding of codings) {
      out =
        coding === 'gzip'
          ? zlib.gunzipSync(out, { ...ZLIB, maxOutputLength: limit })
          : coding === 'deflate'
            ? zlib.inflateSync(out, { ...ZLIB, maxOutputLength: limit })
            : zlib.brotliDecompressSync(out, { ...BROTLI, maxOutputLength: limit });
    }
  } catch (error) {
    if ((error as { code?: unknown }).code === 'ERR_BUFFER_TOO_LARGE') return null;
    throw error;
  }
  return out;
}

/** The answer's head as `fetch`'s Headers reads it: by name in any case, repeated fields joined. */
class HeadView {
  constructor(private readonly fields: Record<string, string | string[] | undefined>) {}

  get(name: string): string | null {
    const value = this.fields[name.toLowerCase()];
    if (value === undefined) return null;
    return Array.isArray(value) ? value.join(', ') : value;
  }
}
