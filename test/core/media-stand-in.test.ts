import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ApiTransport } from '../../electron/core/api/transport.ts';
import { MediaServing, STAND_IN_AFTER_MS } from '../../electron/core/library/media-serving.ts';

// The media route's answer for the lightbox (the original from the site, else a stored variant) when the
// site hangs: the stored variant stands in after STAND_IN_AFTER_MS, not after the 15 s a live fetch may
// take (issue 29: a hanging site never makes a screen wait longer than 1 s for what this laptop has).
// On fake timers: a timeline, no waiting. The transport is a stand-in for a site that never answers.
const ORIGINAL = 'https://site.test/igi/abc.original';
const STANDARD = 'https://site.test/igi/abc.standard';
const stored = { data: Buffer.from('standard picture'), mime: 'image/jpeg', bytes: 16 };
let asked: AbortSignal[];

function serving(): MediaServing {
  const hanging = {
    siteUrl: 'https://site.test',
    download: (_url: string, signal?: AbortSignal) => {
      asked.push(signal!);
      return new Promise((_resolve, reject) =>
        signal!.addEventListener('abort', () => reject(new DOMException('aborted', 'AbortError'))),
      );
    },
  } as unknown as ApiTransport;
  return new MediaServing({
    resolve: (url) => (url === STANDARD ? stored : null),
    intact: async () => true,
    known: () => true,
    online: () => true,
    transport: () => hanging,
    onNetworkError: () => undefined,
  });
}

beforeEach(() => {
  vi.useFakeTimers({ now: 0 });
  asked = [];
});
afterEach(() => vi.useRealTimers());

describe('the lightbox picture while the site hangs', () => {
  it('is the stored variant after STAND_IN_AFTER_MS, and the site is no longer waited for', async () => {
    let answer: unknown = 'waiting';
    void serving()
      .open({ urls: [ORIGINAL, STANDARD], live: true })
      .then((got) => (answer = got));
    await vi.advanceTimersByTimeAsync(STAND_IN_AFTER_MS - 1);
    expect(answer).toBe('waiting');
    await vi.advanceTimersByTimeAsync(1);
    expect(answer).toMatchObject({ cache: 'none', bytes: stored.bytes });
    expect(asked).toHaveLength(1);
    expect(asked[0]!.aborted).toBe(true);
    expect(STAND_IN_AFTER_MS).toBeLessThanOrEqual(1_000);
  });

  it('with nothing stored to stand in, waits for the site as long as a live fetch may', async () => {
    let answer: unknown = 'waiting';
    void serving()
      .open({ urls: [ORIGINAL], live: true })
      .then((got) => (answer = got));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(answer).toBe('waiting');
    await vi.advanceTimersByTimeAsync(15_000);
    expect(answer).toBeNull();
  });
});
