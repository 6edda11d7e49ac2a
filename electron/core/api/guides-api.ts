import { z } from 'zod';
import type { GuideDetail, GuideListItem, GuideStep, StepForm, StepMedia } from '../../contract.ts';
import { bareVideoId, inlinedSteps, toGuideDetail, toListItem, toStepForm, toVideoMedia } from './map-guide.ts';
import { ApiError } from './errors.ts';
import { classify } from './failure.ts';
import type { ApiTransport } from './transport.ts';
import {
  categoryHierarchyWire,
  guideSummaryListWire,
  guideWire,
  videoMediaWire,
  type GuideSummaryWire,
} from './wire/guide.ts';
import { stepFormListWire } from './wire/step-form.ts';

// The guide reads the sync uses. Each call names its resource in errors (transport.ts).

export const PAGE_SIZE = 200;
/**
 * Ids per `GET /guides?guideids=`: a real site uses only the first 50 ("Only the first 50 ids are used",
 * iFixit's OpenAPI description) and quietly leaves the rest out; the reference allows 200.
 */
export const GUIDEIDS_PER_REQUEST = 50;

/** A guide as the site lists it: its list entry, and what the library keeps beside it. */
export interface ListedGuide {
  item: GuideListItem;
  revisionid: number;
  summary: string;
  public: boolean;
  /** Its author's userid, when the site says: a private guide is for admins and its author. */
  authorUserid: number | null;
}

const toListed = (wire: GuideSummaryWire): ListedGuide => ({
  item: toListItem(wire, 'summary'),
  revisionid: wire.revisionid,
  summary: wire.summary ?? '',
  public: wire.public ?? true,
  authorUserid: wire.userid ?? null,
});

export async function listGuidesPage(
  transport: ApiTransport,
  options: { modifiedSince?: number; offset: number; includePrivate?: boolean; signal?: AbortSignal },
): Promise<ListedGuide[]> {
  const page = await transport.request('GET', '/guides', {
    query: {
      modifiedSince: options.modifiedSince,
      offset: options.offset,
      limit: PAGE_SIZE,
      order: 'ASC',
      includePrivate: options.includePrivate ? 'true' : undefined,
    },
    schema: guideSummaryListWire,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return page.map(toListed);
}

/** Which of these guides (at most GUIDEIDS_PER_REQUEST) the site still lists. */
export async function listedAmong(
  transport: ApiTransport,
  ids: readonly number[],
  options: { includePrivate?: boolean; signal?: AbortSignal },
): Promise<Set<number>> {
  return new Set((await listedLocales(transport, ids, options)).keys());
}

/**
 * The language the site lists each of these guides in (at most GUIDEIDS_PER_REQUEST; null when it does not
 * say), for those it lists. iFixit lists a guide in the site's own language when it has it in that one.
 */
export async function listedLocales(
  transport: ApiTransport,
  ids: readonly number[],
  options: { includePrivate?: boolean; signal?: AbortSignal },
): Promise<Map<number, string | null>> {
  const page = await transport.request('GET', '/guides', {
    query: { guideids: ids.join(','), limit: ids.length, includePrivate: options.includePrivate ? 'true' : undefined },
    schema: guideSummaryListWire,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return new Map(page.map((guide) => [guide.guideid, guide.locale ?? null]));
}

/** A guide as the site sent it, with what the client needs besides its own content. */
export interface FetchedGuide {
  /** The guide with its own steps only (forms, tags, quizzes and prerequisites' steps come from elsewhere). */
  detail: GuideDetail;
  summary: string;
  /** Its tags when the answer carries them (null: ask `/guides/{id}/tags`). */
  tags: string[] | null;
  /** Prerequisites' steps the site put in the answer anyway (it ignored `excludePrerequisiteSteps`), by guide. */
  inlined: Map<number, GuideStep[]>;
  /** The languages the guide can be read in, as the site says. */
  languages: string[];
}

/**
 * `GET /guides/{id}`, without its prerequisites' steps (`excludePrerequisiteSteps`: a site that ignores
 * it has them recognised by their own `guideid` and set apart), in `langid` when asked (a site without the
 * translation answers its own language: `detail.language` says which). A video step that carries only
 * its id is completed from `GET /media/videos/{id}`.
 */
export async function fetchGuide(
  transport: ApiTransport,
  guideid: number,
  options: { signal?: AbortSignal; langid?: string | null } = {},
): Promise<FetchedGuide> {
  const { signal, langid } = options;
  const wire = await transport.request('GET', `/guides/${guideid}`, {
    query: { excludePrerequisiteSteps: 'true', langid: langid ?? undefined },
    schema: guideWire,
    ...(signal ? { signal } : {}),
  });
  // Kept under the id asked for: another guide's content there would show under the wrong title.
  if (wire.guideid !== guideid) {
    throw new ApiError(
      'bad_response',
      `GET /guides/${guideid}`,
      `The site answered the request for guide ${guideid} with guide ${wire.guideid}, so it was not kept.`,
    );
  }
  const detail = toGuideDetail(wire, transport.siteUrl);
  const videos = new Map<number, number>();
  for (const step of wire.steps) {
    const id = bareVideoId(step.media);
    if (id !== null) videos.set(step.stepid, id);
  }
  if (videos.size > 0) {
    const media = new Map<number, StepMedia>();
    for (const id of new Set(videos.values())) media.set(id, await videoOrNone(transport, id, signal));
    detail.steps = detail.steps.map((step) => {
      const videoid = videos.get(step.stepid);
      return videoid === undefined ? step : { ...step, media: media.get(videoid)! };
    });
  }
  return {
    detail,
    summary: wire.summary ?? '',
    tags: wire.tags ?? null,
    inlined: inlinedSteps(wire),
    languages: wire.available_langids ?? [],
  };
}

/** `GET /media/videos/{id}`: a video's poster and encodings. */
export async function fetchVideo(transport: ApiTransport, videoid: number, signal?: AbortSignal): Promise<StepMedia> {
  const options = { schema: videoMediaWire, ...(signal ? { signal } : {}) };
  const video = await transport.request('GET', `/media/videos/${videoid}`, options);
  return toVideoMedia(video);
}

/**
 * A step's video, or none when the site says it has no such video (404, 410) or will not give it (403:
 * iFixit's description has both for `GET /media/videos/{videoid}`): the step keeps its place and says its
 * video has no playable file, and the guide is kept. Before, one such video cost the whole guide.
 */
async function videoOrNone(transport: ApiTransport, videoid: number, signal?: AbortSignal): Promise<StepMedia> {
  try {
    return await fetchVideo(transport, videoid, signal);
  } catch (error) {
    const { kind } = classify(error);
    if (kind === 'gone' || kind === 'forbidden') return { type: 'video', poster: null, encodings: [] };
    throw error;
  }
}

/** Whether the site still has a guide: false only when it answers it is gone (404, 410); other failures are thrown. */
export async function guideExists(transport: ApiTransport, guideid: number, signal?: AbortSignal): Promise<boolean> {
  try {
    // Without the prerequisites' steps an iFixit site would inline: only whether it is there matters.
    const query = { excludePrerequisiteSteps: 'true' };
    await transport.request('GET', `/guides/${guideid}`, { query, ...(signal ? { signal } : {}) });
    return true;
  } catch (error) {
    if (classify(error).kind === 'gone') return false;
    throw error;
  }
}

/** The current step forms of a guide's steps, and of its prerequisite guides' steps (the site adds those). */
export async function fetchStepForms(
  transport: ApiTransport,
  guideid: number,
  signal?: AbortSignal,
): Promise<StepForm[]> {
  const forms = await transport.request('GET', `/step_forms/guideid/${guideid}`, {
    schema: stepFormListWire,
    ...(signal ? { signal } : {}),
  });
  return forms.map(toStepForm);
}

const tagsWire = z.array(z.string());

export const fetchGuideTags = (transport: ApiTransport, guideid: number, signal?: AbortSignal): Promise<string[]> =>
  transport.request('GET', `/guides/${guideid}/tags`, { schema: tagsWire, ...(signal ? { signal } : {}) });

export interface CategoryTreeNode {
  name: string;
  children: CategoryTreeNode[];
}

/** How deep a category tree is read: a deeper one is cut there, as an odd branch. */
const CATEGORY_DEPTH = 32;

/**
 * `GET /categories`: titles in their hierarchy, as nested objects (null, `{}` or `[]` for a leaf). Every
 * sound branch is kept; one that is neither (a string, a number, a list with entries) is left out and
 * named in `odd`, by its path (`Forklifts › Hoses`), for the sync to report.
 */
export async function fetchCategoryTree(
  transport: ApiTransport,
  signal?: AbortSignal,
): Promise<{ tree: CategoryTreeNode[]; odd: string[] }> {
  const tree = await transport.request('GET', '/categories', {
    schema: categoryHierarchyWire,
    ...(signal ? { signal } : {}),
  });
  const odd: string[] = [];
  const walk = (level: Record<string, unknown>, path: string[]): CategoryTreeNode[] =>
    Object.entries(level).flatMap(([name, children]) => {
      const here = [...path, name];
      const leaf = children === null || (Array.isArray(children) && children.length === 0);
      if (leaf) return [{ name, children: [] }];
      if (typeof children !== 'object' || Array.isArray(children) || here.length > CATEGORY_DEPTH) {
        odd.push(here.join(' › '));
        return [];
      }
      return [{ name, children: walk(children as Record<string, unknown>, here) }];
    });
  return { tree: walk(tree, []), odd };
}
