import type { AppApi, GuideDetail, Result } from '../../electron/contract.ts';

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`App API failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Every guide of the local library, page by page, as the App API lists them. */
/** Sends what waits in the outbox until nothing waits or is in flight (10 rounds at most, else it throws). */
export async function flushUntilQuiet(api: AppApi): Promise<void> {
  for (let i = 0; i < 10; i++) {
    const summary = unwrap(await api.flushOutbox());
    if (summary.pending + summary.inFlight === 0) return;
  }
  throw new Error('the outbox did not drain');
}

export async function allLocalGuides(api: AppApi): Promise<{ guideid: number; offline: string }[]> {
  const items: { guideid: number; offline: string }[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = unwrap(await api.listGuides({ offset, limit: 500 }));
    items.push(...page.items.map((i) => ({ guideid: i.guideid, offline: i.offline })));
    if (items.length >= page.total) return items;
  }
}

/**
 * The media files a stored guide should have on this computer, written out from what its views show
 * (not with the downloader's own code, which the tests check): the guide's picture in list and step
 * size, each step picture in step size (its thumbnail only when it has none), a video's poster and its
 * MP4 (else its first encoding), part and tool thumbnails, documents.
 */
export function mediaOf(detail: GuideDetail): string[] {
  const urls: (string | null | undefined)[] = [detail.image?.thumbnail, detail.image?.standard];
  for (const { media } of detail.steps) {
    if (media.type === 'image') for (const image of media.images) urls.push(image.standard ?? image.thumbnail);
    if (media.type === 'video') {
      const mp4 = media.encodings.find((encoding) => /mp4/i.test(encoding.format) || /\.mp4(\?|$)/i.test(encoding.url));
      urls.push(media.poster?.standard ?? media.poster?.thumbnail, (mp4 ?? media.encodings[0])?.url);
    }
  }
  for (const item of [...detail.parts, ...detail.tools]) urls.push(item.thumbnail);
  for (const document of detail.documents) urls.push(document.url);
  return [...new Set(urls.filter((url): url is string => typeof url === 'string' && url !== ''))];
}
