import type { AppApi, GuideDetail, Result } from '../../electron/contract.ts';
import { mediaUrlsOf } from '../../electron/core/api/map-guide.ts';
import { MEDIA_VARIANTS } from '../../electron/core/sync/guide-fetcher.ts';

export function unwrap<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(`App API failed: ${result.error.code}: ${result.error.message}`);
  return result.value;
}

/** Every guide of the local library, page by page, as the App API lists them. */
export async function allLocalGuides(api: AppApi): Promise<{ guideid: number; offline: string }[]> {
  const items: { guideid: number; offline: string }[] = [];
  for (let offset = 0; ; offset += 500) {
    const page = unwrap(await api.listGuides({ offset, limit: 500 }));
    items.push(...page.items.map((i) => ({ guideid: i.guideid, offline: i.offline })));
    if (items.length >= page.total) return items;
  }
}

export const mediaOf = (detail: GuideDetail): string[] => mediaUrlsOf(detail, MEDIA_VARIANTS);
