import type { GuideDetail } from '../../contract.ts';
import { ApiError } from '../api/errors.ts';
import { fetchGuide, fetchGuideTags, fetchStepForms } from '../api/guides-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import { allMediaUrlsOf } from './guide-media.ts';

/** Guides read from the site whose media the media route may fetch: the last this many. */
const REMEMBERED_GUIDES = 50;

/**
 * A guide outside the offline scope, read from the site to be shown now and not kept: the guide with
 * its steps' forms and its tags (each a call of its own; a site without them still shows the guide).
 * No quizzes: they open only from a stored guide. Marked `readFromSite`.
 */
export async function readGuideFromSite(transport: ApiTransport, guideid: number, signal?: AbortSignal): Promise<GuideDetail> {
  const extra = <T>(call: Promise<T[]>): Promise<T[]> =>
    call.catch((error: unknown) => {
      if (error instanceof ApiError && error.kind === 'http') return [];
      throw error;
    });
  const [site, forms, tags] = await Promise.all([
    fetchGuide(transport, guideid, signal),
    extra(fetchStepForms(transport, guideid, signal)),
    extra(fetchGuideTags(transport, guideid, signal)),
  ]);
  const formOf = new Map(forms.map((form) => [form.stepid, form]));
  return {
    ...site.detail,
    steps: site.detail.steps.map((step) => ({ ...step, form: formOf.get(step.stepid) ?? null })),
    tags,
    quizzes: [],
    readFromSite: true,
  };
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
