import { z } from 'zod';
import type { GuideListItem } from '../../contract.ts';
import type { ApiTransport } from './transport.ts';
import { guideSummaryWire } from './wire/guide.ts';
import { toListItem } from './map-guide.ts';

const searchWire = z
  .object({
    totalResults: z.number().int().nullish(),
    results: z.array(z.object({ dataType: z.string().nullish() }).loose()),
  })
  .loose();

/** The site's own search (reference 4.9), guides only; used when online. */
export async function searchSite(
  transport: ApiTransport,
  text: string,
  limit: number,
  offset: number,
): Promise<{ total: number; items: (GuideListItem & { snippet: string | null })[] }> {
  const answer = await transport.request('GET', `/search/${encodeURIComponent(text)}`, {
    query: { filter: 'guide', limit, offset },
    schema: searchWire,
  });
  const items = answer.results
    .filter((result) => (result.dataType ?? 'guide') === 'guide')
    .map((result) => guideSummaryWire.safeParse(result))
    .filter((parsed) => parsed.success)
    .map((parsed) => ({ ...toListItem(parsed.data, 'summary'), snippet: parsed.data.summary ?? null }));
  return { total: answer.totalResults ?? items.length, items };
}
