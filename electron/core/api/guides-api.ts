import { z } from 'zod';
import type { GuideDetail, GuideListItem, StepForm } from '../../contract.ts';
import { toGuideDetail, toListItem, toStepForm } from './map-guide.ts';
import { ApiError } from './errors.ts';
import type { ApiTransport } from './transport.ts';
import { categoryHierarchyWire, guideSummaryListWire, guideWire, type CategoryHierarchyWire, type GuideSummaryWire } from './wire/guide.ts';
import { stepFormListWire } from './wire/step-form.ts';

// The guide reads the sync uses. Each call names its resource in errors (transport.ts).

export const PAGE_SIZE = 200;

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

/** Which of these guides (at most PAGE_SIZE) the site still lists. */
export async function listedAmong(transport: ApiTransport, ids: readonly number[], options: { includePrivate?: boolean; signal?: AbortSignal }): Promise<Set<number>> {
  const page = await transport.request('GET', '/guides', {
    query: { guideids: ids.join(','), limit: PAGE_SIZE, includePrivate: options.includePrivate ? 'true' : undefined },
    schema: guideSummaryListWire,
    ...(options.signal ? { signal: options.signal } : {}),
  });
  return new Set(page.map((guide) => guide.guideid));
}

/**
 * `GET /guides/{id}`: the guide (steps without forms, no quizzes yet), its summary, and its tags when the
 * answer carries them (null: ask `/guides/{id}/tags`).
 */
export async function fetchGuide(
  transport: ApiTransport,
  guideid: number,
  signal?: AbortSignal,
): Promise<{ detail: GuideDetail; summary: string; tags: string[] | null }> {
  const wire = await transport.request('GET', `/guides/${guideid}`, { schema: guideWire, ...(signal ? { signal } : {}) });
  // Kept under the id asked for: another guide's content there would show under the wrong title.
  if (wire.guideid !== guideid) {
    throw new ApiError('bad_response', `GET /guides/${guideid}`, `The site answered the request for guide ${guideid} with guide ${wire.guideid}, so it was not kept.`);
  }
  return { detail: toGuideDetail(wire), summary: wire.summary ?? '', tags: wire.tags ?? null };
}

/** Whether the site still has a guide: false only when it answers 404 (any other failure is thrown). */
export async function guideExists(transport: ApiTransport, guideid: number, signal?: AbortSignal): Promise<boolean> {
  try {
    await transport.request('GET', `/guides/${guideid}`, { ...(signal ? { signal } : {}) });
    return true;
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'http' && error.status === 404) return false;
    throw error;
  }
}

/** The current step forms of a guide's steps, and of its prerequisite guides' steps (the site adds those). */
export async function fetchStepForms(transport: ApiTransport, guideid: number, signal?: AbortSignal): Promise<StepForm[]> {
  const forms = await transport.request('GET', `/step_forms/guideid/${guideid}`, { schema: stepFormListWire, ...(signal ? { signal } : {}) });
  return forms.map(toStepForm);
}

export const fetchGuideTags = (transport: ApiTransport, guideid: number, signal?: AbortSignal): Promise<string[]> =>
  transport.request('GET', `/guides/${guideid}/tags`, { schema: z.array(z.string()), ...(signal ? { signal } : {}) });

export interface CategoryTreeNode {
  name: string;
  children: CategoryTreeNode[];
}

/** `GET /categories`: titles in their hierarchy, as nested objects (null or {} for a leaf). */
export async function fetchCategoryTree(transport: ApiTransport, signal?: AbortSignal): Promise<CategoryTreeNode[]> {
  const tree = await transport.request('GET', '/categories', { schema: categoryHierarchyWire, ...(signal ? { signal } : {}) });
  const walk = (level: CategoryHierarchyWire): CategoryTreeNode[] =>
    Object.entries(level).map(([name, children]) => ({ name, children: children ? walk(children) : [] }));
  return walk(tree);
}
