import { classify } from '../api/failure.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { StoredContent } from './media-store.ts';
import { shownType } from './media-types.ts';

/**
 * What a media address asks for (contract: MEDIA_OR_PARAM, MEDIA_LIVE_PARAM):
 * URLs best first, and whether the first may come from the site.
 */
export interface MediaRequest {
  urls: string[];
  live: boolean;
}

/**
 * A media answer as the shells send it: a picture's bytes or a
 * file's path, its type and length, and how long it may be cached.
 */
export type MediaAnswer = MediaContent & {
  /**
   * `immutable`: the stored copy of the URL asked for; `private`: fetched from the site just now (not
   * kept); `none`: another URL's copy stood in for it, so ask again next time (it may be stored by then).
   */
  cache: 'immutable' | 'private' | 'none';
};

type MediaContent = StoredContent & { mime: string; bytes: number };

export interface MediaServingDeps {
  resolve: (url: string) => MediaContent | null;
  /** Whether stored content is what its name says (a file read through once a run): a damaged one is never served. */
  intact: (url: string, content: MediaContent) => Promise<boolean>;
  /** Whether the library knows the URL: a stored guide's media in any variant, or a guide read from the site. */
  known: (url: string) => boolean;
  online: () => boolean;
  transport: () => ApiTransport;
  onNetworkError: () => void;
}

/** The largest file fetched from the site for the media route (held in memory while it is sent on). */
export const LIVE_MAX_BYTES = 32 * 1024 * 1024;
const LIVE_TIMEOUT_MS = 15_000;
/** With a stored variant to stand in, the site's copy is waited for this long at most (until its answer begins). */
export const STAND_IN_AFTER_MS = 1_000;

/**
 * The media route's answers (both shells). The first URL's stored copy; else, when the address allows
 * it and the site answers, the first URL from the site (the original picture for the lightbox, the
 * pictures of a guide read from the site); else the first alternative that is stored. The site is asked
 * only for URLs the library knows, so the route cannot be turned on another address.
 */
export class MediaServing {
  constructor(private readonly deps: MediaServingDeps) {}

  async open(request: MediaRequest): Promise<MediaAnswer | null> {
    const [first, ...alternatives] = request.urls;
    if (first === undefined) return null;
    const stored = await this.#stored(first);
    // A type kept by an earlier version (which stored the site's own) is made safe here too.
    if (stored) return { ...stored, mime: shownType(stored.mime), cache: 'immutable' };
    const standIn = async (): Promise<MediaAnswer | null> => {
      for (const url of alternatives) {
        const content = await this.#stored(url);
        if (content) return { ...content, mime: shownType(content.mime), cache: 'none' };
      }
      return null;
    };
    if (request.live && this.deps.online() && this.deps.known(first)) {
      // A slow or hanging site never holds back a picture this laptop has (issue 29): the site's copy
      // must begin to arrive within a second, else the stored variant stands in.
      const kept = await standIn();
      const live = await this.#fromSite(first, kept ? STAND_IN_AFTER_MS : LIVE_TIMEOUT_MS);
      return live ?? kept;
    }
    return standIn();
  }

  async #stored(url: string): Promise<MediaContent | null> {
    const content = this.deps.resolve(url);
    return content && (await this.deps.intact(url, content)) ? content : null;
  }

  /** The site's copy of `url`, its answer begun within `answerMs` and all of it within LIVE_TIMEOUT_MS. */
  async #fromSite(url: string, answerMs: number): Promise<MediaAnswer | null> {
    let target: URL;
    let transport: ApiTransport;
    try {
      target = new URL(url);
      transport = this.deps.transport();
    } catch {
      return null; // not an address, or nobody signed in
    }
    if (target.protocol !== 'https:' && target.protocol !== 'http:') return null;
    const limit = new AbortController();
    const signal = limit.signal;
    const whole = setTimeout(() => limit.abort(), LIVE_TIMEOUT_MS);
    const begun = setTimeout(() => limit.abort(), answerMs);
    try {
      const { response, body } = await transport.download(url, signal);
      clearTimeout(begun);
      const length = Number(response.headers.get('content-length') ?? Number.NaN);
      const chunks: Uint8Array[] = [];
      let bytes = 0;
      for await (const chunk of body) {
        bytes += chunk.length;
        if (bytes > LIVE_MAX_BYTES || length > LIVE_MAX_BYTES) return null; // leaving the loop cancels the download
        chunks.push(chunk);
      }
      if (Number.isFinite(length) && bytes !== length) return null;
      return {
        data: Buffer.concat(chunks, bytes),
        bytes,
        mime: shownType(response.headers.get('content-type')),
        cache: 'private',
      };
    } catch (error) {
      // The site's own origin not answering is the network gone (the
      // status bar says so); a slow file or another host is not.
      const siteDown =
        classify(error).kind === 'unreachable' &&
        !signal.aborted &&
        target.origin === new URL(transport.siteUrl).origin;
      if (siteDown) this.deps.onNetworkError();
      return null;
    } finally {
      clearTimeout(whole);
      clearTimeout(begun);
    }
  }
}
