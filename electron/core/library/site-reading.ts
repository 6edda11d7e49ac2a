import type { GuideDetail } from '../../contract.ts';
import { answeredError, classify } from '../api/failure.ts';
import { fetchGuide, fetchGuideTags, fetchStepForms } from '../api/guides-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { VideoFit } from '../../shared/media.ts';
import { allMediaUrlsOf, fitVideos } from './guide-media.ts';
import { asPrerequisite, withPrerequisites, type Prerequisite } from './prerequisites.ts';

/** Guides read from the site whose media the media route may fetch: the last this many. */
const REMEMBERED_GUIDES = 50;

/**
 * A guide outside the offline scope, read from the site to be shown now and not kept: the guide with
 * its steps' forms and its tags (each a call of its own; a site without them still shows the guide), in
 * the technician's language when asked, its prerequisites' steps first (as kept on this computer, as the
 * site inlined them, or read from the site). No quizzes: they open only from a stored guide. Marked
 * `readFromSite`.
 */
export async function readGuideFromSite(
  transport: ApiTransport,
  guideid: number,
  options: {
    stored?: (guideid: number) => GuideDetail | undefined;
    langid?: string | null;
    /** The screen and room the videos are fitted to (their encoding for this laptop first). */
    fit?: VideoFit;
    signal?: AbortSignal;
  } = {},
): Promise<GuideDetail> {
  const { signal, stored = () => undefined } = options;
  const asked = { ...(signal ? { signal } : {}), langid: options.langid ?? null };
  const extra = <T>(call: Promise<T[]>): Promise<T[]> =>
    call.catch((error: unknown) => {
      if (answeredError(classify(error))) return [];
      throw error;
    });
  const [site, forms, tags] = await Promise.all([
    fetchGuide(transport, guideid, asked),
    extra(fetchStepForms(transport, guideid, signal)),
    extra(fetchGuideTags(transport, guideid, signal)),
  ]);
  const sections: Prerequisite[] = [];
  for (const prereq of site.detail.prerequisites) {
    const kept = stored(prereq.guideid);
    const inlined = site.inlined.get(prereq.guideid);
    if (kept) sections.push(asPrerequisite(kept));
    else if (inlined) sections.push({ ...prereq, steps: inlined, prerequisites: [] });
    else {
      const read = await fetchGuide(transport, prereq.guideid, asked).catch((error: unknown) => {
        if (answeredError(classify(error))) return null;
        throw error;
      });
      sections.push(read ? asPrerequisite(read.detail) : { ...prereq, steps: [], prerequisites: [] });
    }
  }
  const composed = withPrerequisites(site.detail, sections, new Map(forms.map((form) => [form.stepid, form])));
  const detail = options.fit ? fitVideos(composed, options.fit) : composed;
  // In the technician's language when the site has it, else its own, marked as the fallback.
  const language = detail.language?.langid ?? null;
  const wanted = options.langid;
  const marked = wanted ? { langid: language ?? wanted, fallback: language !== wanted } : detail.language;
  return { ...detail, tags, quizzes: [], readFromSite: true, language: marked ?? null };
}

/**
 * The media of the guides read from the site lately, in every variant: the only URLs besides those of
 * stored guides that the media route may fetch from the site (it is never a way to reach any address).
 */
export class SiteReadMedia {
  readonly #byGuide = new Map<number, Set<string>>();

  remember(detail: GuideDetail): void {
    this.#byGuide.delete(detail.guideid);
    this.#byGuide.set(detail.guideid, new Set(allMediaUrlsOf(detail)));
    for (const oldest of this.#byGuide.keys()) {
      if (this.#byGuide.size <= REMEMBERED_GUIDES) break;
      this.#byGuide.delete(oldest);
    }
  }

  has(url: string): boolean {
    for (const urls of this.#byGuide.values()) if (urls.has(url)) return true;
    return false;
  }

  clear(): void {
    this.#byGuide.clear();
  }
}
