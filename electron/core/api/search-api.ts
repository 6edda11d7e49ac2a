import { z } from 'zod';
import type { GuideListItem } from '../../contract.ts';
import type { ApiTransport } from './transport.ts';
import { guideSummaryWire } from './wire/guide.ts';
import { imageWire } from './wire/user.ts';
import { orAbsent, wireInt, wireNumber, wireText } from './wire/lenient.ts';
import { toImage, toListItem } from './map-guide.ts';

const searchWire = z
  .object({
    totalResults: z.number().int().nullish(),
    results: z.array(z.object({ dataType: z.string().nullish() }).loose()),
  })
  .loose();

export type SiteSearchItem = GuideListItem & { snippet: string | null };

/** The site's own search (reference 4.9, `/search/{q}`), guides only; used when online. */
export async function searchSite(
  transport: ApiTransport,
  text: string,
  limit: number,
  offset: number,
  signal?: AbortSignal,
): Promise<{ total: number; items: SiteSearchItem[] }> {
  const answer = await transport.request('GET', `/search/${encodeURIComponent(text)}`, {
    query: { filter: 'guide', limit, offset },
    schema: searchWire,
    ...(signal ? { signal } : {}),
  });
  const items = answer.results
    .filter((result) => (result.dataType ?? 'guide') === 'guide')
    .map((result) => guideSummaryWire.safeParse(result))
    .filter((parsed) => parsed.success)
    .map((parsed) => ({ ...toListItem(parsed.data, 'summary'), snippet: parsed.data.summary ?? null }));
  return { total: answer.totalResults ?? items.length, items };
}

/** A guide among iFixit's suggestions: less than a listed guide (no category, type or flags). */
const suggestionWire = z
  .object({
    dataType: orAbsent(z.string()),
    guideid: wireInt,
    title: orAbsent(wireText),
    display_title: orAbsent(wireText),
    summary: orAbsent(wireText),
    modified_date: orAbsent(wireNumber),
    image: orAbsent(imageWire),
  })
  .loose();

const suggestWire = z.object({ results: z.array(z.unknown()) }).loose();

/**
 * iFixit's search (`/suggest/{query}`, the site's search where it has no `/search`): up to ten guides,
 * in the language asked when the site has it. One page: it takes no offset.
 */
export async function suggestSite(
  transport: ApiTransport,
  text: string,
  options: { langid?: string | null; signal?: AbortSignal } = {},
): Promise<{ total: number; items: SiteSearchItem[] }> {
  const answer = await transport.request('GET', `/suggest/${encodeURIComponent(text)}`, {
    query: { doctypes: 'guide', langid: options.langid ?? undefined },
    schema: suggestWire,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  const items = answer.results
    .map((result) => suggestionWire.safeParse(result))
    .flatMap((parsed) => (parsed.success && (parsed.data.dataType ?? 'guide') === 'guide' ? [parsed.data] : []))
    .map((guide): SiteSearchItem => ({
      guideid: guide.guideid,
      title: guide.display_title || guide.title || `Guide ${guide.guideid}`,
      category: '',
      subject: '',
      type: '',
      image: toImage(guide.image),
      flags: [],
      modifiedDate: guide.modified_date ?? 0,
      offline: 'summary',
      thumbnailStored: false,
      snippet: guide.summary ?? null,
    }));
  return { total: items.length, items };
}
