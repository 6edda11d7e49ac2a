import type { GuideDetail } from '../../contract.ts';
import { classify, noAnswer, saidNo } from '../api/failure.ts';
import { fetchGuide } from '../api/guides-api.ts';
import { searchTextOf } from '../library/search-text.ts';
import { translated } from '../library/translation.ts';
import type { SyncContext } from './context.ts';
import { runBounded } from './pool.ts';

/** Guides read at a time from the library; translations fetched at once. */
const PAGE = 200;
const AT_ONCE = 4;

/**
 * The guides kept whole, in the current technician's language (`langid`, not the site's own): each one
 * not yet read in it is asked again with `langid` (with its prerequisites' texts, from their own
 * translations when kept), and kept beside the site's text with its search row. A guide the site has
 * no translation of is kept as a fallback (its own language, marked so). A guide that fails is told
 * and asked again at the next sync; no answer at all stops the phase like the sync.
 */
export async function storeTranslations(ctx: SyncContext, langid: string): Promise<number> {
  let stored = 0;
  for (let after = 0; ;) {
    const ids = ctx.store.translations.missing(langid, after, PAGE, ctx.reader);
    if (ids.length === 0) break;
    await runBounded(
      ids,
      AT_ONCE,
      async (guideid) => {
        try {
          if (await translateOne(ctx, guideid, langid)) stored++;
        } catch (error) {
          const failure = classify(error);
          if (ctx.signal.aborted || failure.kind === 'local' || noAnswer(failure)) throw error;
          ctx.problem({
            message: `Guide ${guideid} could not be read in ${langid}: ${failure.message}`,
            resource: failure.request,
            at: ctx.now(),
          });
        }
      },
      ctx.signal,
    );
    after = ids[ids.length - 1]!;
  }
  return stored;
}

async function translateOne(ctx: SyncContext, guideid: number, langid: string): Promise<boolean> {
  const base = ctx.store.guides.getDetail(guideid);
  if (!base) return false;
  const asked = { signal: ctx.signal, langid };
  const own = await fetchGuide(ctx.transport, guideid, asked);
  const fallback = own.detail.language?.langid !== langid;
  const texts = new Map<number, GuideDetail>(fallback ? [] : [[guideid, own.detail]]);
  for (const prereq of base.prerequisites) {
    const kept = ctx.store.translations.get(prereq.guideid, langid);
    if (kept) {
      if (!kept.fallback) texts.set(prereq.guideid, kept.detail);
      continue;
    }
    const read = await fetchGuide(ctx.transport, prereq.guideid, asked).catch((error: unknown) => {
      if (saidNo(classify(error))) return null;
      throw error;
    });
    if (read && read.detail.language?.langid === langid) texts.set(prereq.guideid, read.detail);
  }
  const detail = translated(base, texts, langid);
  ctx.store.translations.store(
    { detail, langid, revisionid: base.revisionid, fallback, searchText: searchTextOf(detail, own.summary) },
    ctx.now(),
  );
  return true;
}
