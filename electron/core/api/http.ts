import { pipeline, type Readable } from 'node:stream';
import zlib from 'node:zlib';
import { request, type Dispatcher } from 'undici';

/** What a request sends: no redirect is followed (redirects.ts decides where a request may go). */
export interface HttpInit {
  method?: string;
  headers: Record<string, string>;
  body?: string | Uint8Array;
  signal?: AbortSignal;
}

/** An answer's status and head, and its body as it arrives, decoded when the site compressed it. */
export interface HttpAnswer {
  readonly status: number;
  readonly ok: boolean;
  readonly headers: { get(name: string): string | null };
  /** Read it to its end, or cancel it: until then its connection serves nothing else. */
  readonly body: AsyncIterable<Uint8Array>;
  /** Stops the body where it is and lets its connection go. */
  cancel(): void;
}

/** One HTTP exchange. The app's own is `siteHttp`; tests wrap it to watch or redirect what is sent. */
export type Http = (url: URL, init: HttpInit) => Promise<HttpAnswer>;

/** What a browser accepts, so a site compresses its JSON for us as it does for its web pages. */
const ACCEPT_ENCODING = 'gzip, deflate, br';

/**
 * HTTP through undici's `request`, the client beneath Node's own `fetch`, without the WHATWG layer
 * (Request, Response, Headers, web streams and an abort relay per request). A loopback benchmark of
 * 2,800 small files took about a third of fetch's CPU (test/bench: the sync's figures are in its note).
 * `fetch` decodes compressed bodies itself; here the body is decoded as it arrives, by its
 * Content-Encoding, and callers cap the decoded bytes as before.
 */
export const siteHttp: Http = async (url, init) => {
  const answer = await request(url, {
    method: (init.method ?? 'GET') as Dispatcher.HttpMethod,
    headers: { 'accept-encoding': ACCEPT_ENCODING, ...init.headers },
    body: init.body,
    signal: init.signal,
  });
  const head = new HeadView(answer.headers);
  const raw = answer.body;
  const hasBody = init.method !== 'HEAD' && answer.statusCode !== 204 && answer.statusCode !== 304;
  const decoders = hasBody ? decodersFor(head.get('content-encoding')) : [];
  const body: Readable = decoders.length > 0 ? (pipeline([raw, ...decoders], () => undefined) as unknown as Readable) : raw;
  // A stream with no 'error' listener throws its error at the process. The body's error (a reset while
  // the caller is still busy, or the abort a cancel causes) stays in the stream: its reader gets it at
  // its next read, as with fetch.
  raw.on('error', ignore);
  body.on('error', ignore);
  return {
    status: answer.statusCode,
    ok: answer.statusCode >= 200 && answer.statusCode <= 299,
    headers: head,
    body,
    cancel: () => {
      for (const decoder of decoders) decoder.destroy();
      raw.destroy();
    },
  };
};

const ignore = (): void => undefined;

type Decoder = zlib.Gunzip | zlib.Inflate | zlib.BrotliDecompress;

/**
 * The decoders of a Content-Encoding, last applied first, as `fetch` has them. None for `identity`, and
 * none when a coding is not one we asked for: the bytes stay as sent, and what reads them says so.
 */
function decodersFor(header: string | null): Decoder[] {
  if (!header) return [];
  const decoders: Decoder[] = [];
  for (const coding of header.split(',').reverse()) {
    const decoder = decoderFor(coding.trim().toLowerCase());
    if (decoder === undefined) {
      for (const made of decoders) made.destroy();
      return [];
    }
    if (decoder) decoders.push(decoder);
  }
  return decoders;
}

function decoderFor(coding: string): Decoder | null | undefined {
  switch (coding) {
    case 'identity':
    case '':
      return null;
    case 'gzip':
    case 'x-gzip':
      // Some sites end a gzip body early or pad it: what was decoded is kept, as browsers and fetch do.
      return zlib.createGunzip({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'deflate':
      return zlib.createInflate({ flush: zlib.constants.Z_SYNC_FLUSH, finishFlush: zlib.constants.Z_SYNC_FLUSH });
    case 'br':
      return zlib.createBrotliDecompress({ flush: zlib.constants.BROTLI_OPERATION_FLUSH, finishFlush: zlib.constants.BROTLI_OPERATION_FLUSH });
    default:
      return undefined;
  }
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
