import { z } from 'zod';
import { categoryHierarchyWire, guideSummaryListWire, guideWire, type CategoryHierarchyWire } from './wire/guide.ts';
import { courseAssignmentListWire, passingScoreWire, quizAssociationListWire, quizListWire, quizRevisionWire } from './wire/quiz.ts';
import { stepFormListWire } from './wire/step-form.ts';
import type { ApiTransport } from './transport.ts';

// The read paths the sync uses. Each call names its resource in errors (transport.ts).

export const PAGE_SIZE = 200;

export function listGuidesPage(
  transport: ApiTransport,
  options: { modifiedSince?: number; offset: number; includePrivate?: boolean; signal?: AbortSignal },
) {
  return transport.request('GET', '/guides', {
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
}

export function guidesByIds(transport: ApiTransport, ids: readonly number[], options: { includePrivate?: boolean; signal?: AbortSignal }) {
  return transport.request('GET', '/guides', {
    query: { guideids: ids.join(','), limit: PAGE_SIZE, includePrivate: options.includePrivate ? 'true' : undefined },
    schema: guideSummaryListWire,
    ...(options.signal ? { signal: options.signal } : {}),
  });
}

export const fetchGuide = (transport: ApiTransport, guideid: number, signal?: AbortSignal) =>
  transport.request('GET', `/guides/${guideid}`, { schema: guideWire, ...(signal ? { signal } : {}) });

export const fetchStepForms = (transport: ApiTransport, guideid: number, signal?: AbortSignal) =>
  transport.request('GET', `/step_forms/guideid/${guideid}`, { schema: stepFormListWire, ...(signal ? { signal } : {}) });

export const fetchQuizAssociations = (transport: ApiTransport, guideid: number, signal?: AbortSignal) =>
  transport.request('GET', `/quizzes/associations/${guideid}`, { schema: quizAssociationListWire, ...(signal ? { signal } : {}) });

export const fetchQuizRevision = (transport: ApiTransport, quizRevisionid: number, signal?: AbortSignal) =>
  transport.request('GET', `/quizzes/${quizRevisionid}`, { schema: quizRevisionWire, ...(signal ? { signal } : {}) });

export const fetchQuizList = (transport: ApiTransport, offset: number, signal?: AbortSignal) =>
  transport.request('POST', '/quizzes/getQuizzes', { json: { offset, limit: PAGE_SIZE }, schema: quizListWire, ...(signal ? { signal } : {}) });

export const fetchCourseAssignments = (transport: ApiTransport, quizid: number, signal?: AbortSignal) =>
  transport.request('GET', `/quizzes/courseAssignments/${quizid}`, { schema: courseAssignmentListWire, ...(signal ? { signal } : {}) });

export const fetchPassingScore = (transport: ApiTransport, courseStageid: number, quizid: number, signal?: AbortSignal) =>
  transport.request('GET', `/quizzes/passingScore/${courseStageid}/${quizid}`, { schema: passingScoreWire, ...(signal ? { signal } : {}) });

export const fetchGuideTags = (transport: ApiTransport, guideid: number, signal?: AbortSignal) =>
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
