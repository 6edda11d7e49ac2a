import type { GuideDetail, QuizRef, QuizRevision, QuizStage, SiteModule, StepForm } from '../../contract.ts';
import { notOffered } from '../api/capabilities-api.ts';
import { fetchGuide, fetchGuideTags, fetchStepForms } from '../api/guides-api.ts';
import { fetchCourseAssignments, fetchPassingScore, fetchQuizAssociations, fetchQuizRevision, type ListedQuiz } from '../api/quizzes-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { StoredGuide } from '../db/repos/guides-repo.ts';
import { mediaOrderOf, mediaUrlsOf, zoomUrlsOf } from '../library/guide-media.ts';
import { searchTextOf } from '../library/search-text.ts';

/** Which modules the site offers, and where to say one turned out missing (sync/site-modules.ts). */
export interface GuideParts {
  offers: (module: SiteModule) => boolean;
  lacks: (module: SiteModule, status: number) => void;
  /** Learned during a sync: the site's guide answers carry their tags. */
  tagsWithGuide?: boolean;
}

export const ALL_PARTS: Readonly<GuideParts> = { offers: () => true, lacks: () => {} };

/**
 * Everything one guide needs offline, fetched but not yet stored: the guide, its step forms (prerequisite
 * guides' forms included by the site; only this guide's steps are kept), tags, quiz associations and the
 * quiz revisions not already stored. A part of a module the site lacks is not asked, and a part the site
 * answers as lacking (404, 403, 405, 501) is empty; any other failure throws an ApiError naming the resource.
 */
export async function fetchWholeGuide(
  transport: ApiTransport,
  guideid: number,
  knownQuiz: (quizRevisionid: number) => Omit<QuizRevision, 'stages'> | undefined,
  signal?: AbortSignal,
  parts: GuideParts = { ...ALL_PARTS },
): Promise<StoredGuide> {
  const optional = async <T>(module: SiteModule, ask: () => Promise<T[]>): Promise<T[]> => {
    if (!parts.offers(module)) return [];
    try {
      return await ask();
    } catch (error) {
      if (!notOffered(error)) throw error;
      parts.lacks(module, error.status ?? 404);
      return [];
    }
  };
  // Tags come with the guide on sites that send them: once a guide's answer carried them, the sync stops
  // asking `/guides/{id}/tags` (a request fewer per guide); a guide that comes without has them asked.
  const askTags = parts.tagsWithGuide !== true;
  const [site, allForms, askedTags, associations] = await Promise.all([
    fetchGuide(transport, guideid, signal),
    optional('step_forms', () => fetchStepForms(transport, guideid, signal)),
    askTags ? optional('tags', () => fetchGuideTags(transport, guideid, signal)) : null,
    optional('quizzes', () => fetchQuizAssociations(transport, guideid, signal)),
  ]);
  if (site.tags !== null) parts.tagsWithGuide = true;
  const tags = site.tags ?? askedTags ?? (await optional('tags', () => fetchGuideTags(transport, guideid, signal)));
  const stepIds = new Set(site.detail.steps.map((s) => s.stepid));
  const forms: StepForm[] = allForms.filter((f) => stepIds.has(f.stepid));
  const quizzes: QuizRevision[] = [];
  for (const association of associations) {
    if (association.quizRevisionid === null) continue;
    quizzes.push(await fetchQuiz(transport, { ...association, quizRevisionid: association.quizRevisionid }, knownQuiz, signal));
  }
  const quizRefs: QuizRef[] = quizzes.map((q) => ({ quizid: q.quizid, quizRevisionid: q.quizRevisionid, title: q.title, passingScore: q.passingScore }));
  const detail = withParts(site.detail, new Map(forms.map((f) => [f.stepid, f])), tags, quizRefs);
  return { detail, forms, quizzes, searchText: searchTextOf(detail, site.summary), mediaUrls: mediaUrlsOf(detail), mediaOrder: mediaOrderOf(detail), zoomUrls: zoomUrlsOf(detail) };
}

/** The guide with what other calls told of it: each step's form, its tags and quizzes. */
function withParts(detail: GuideDetail, forms: ReadonlyMap<number, StepForm>, tags: string[], quizzes: QuizRef[]): GuideDetail {
  return { ...detail, steps: detail.steps.map((step) => ({ ...step, form: forms.get(step.stepid) ?? null })), tags, quizzes };
}

/**
 * A quiz revision with the course stages that hold the quiz and the passing score each stage sets
 * itself (issue 6's rule: the stage's own score applies, else the quiz's). A revision already stored
 * is not fetched again; the stages are, since a course can change without a new revision.
 */
export async function fetchQuiz(
  transport: ApiTransport,
  listed: ListedQuiz & { quizRevisionid: number },
  knownQuiz: (quizRevisionid: number) => Omit<QuizRevision, 'stages'> | undefined,
  signal?: AbortSignal,
): Promise<QuizRevision> {
  const stages: QuizStage[] = [];
  const seen = new Set<number>();
  for (const assignment of await fetchCourseAssignments(transport, listed.quizid, signal)) {
    if (seen.has(assignment.courseStageid)) continue;
    seen.add(assignment.courseStageid);
    const score = await fetchPassingScore(transport, assignment.courseStageid, listed.quizid, signal);
    const title = [assignment.courseTitle, assignment.stageTitle].filter(Boolean).join(' › ') || `Course stage ${assignment.courseStageid}`;
    stages.push({ courseStageid: assignment.courseStageid, title, passingScore: score.own ? score.score : null });
  }
  const known = knownQuiz(listed.quizRevisionid);
  if (known) return { ...known, passingScore: listed.passingScore ?? known.passingScore, stages };
  const revision = await fetchQuizRevision(transport, listed.quizRevisionid, signal);
  return {
    quizid: listed.quizid,
    quizRevisionid: listed.quizRevisionid,
    title: listed.title ?? revision.title ?? `Quiz ${listed.quizid}`,
    survey: revision.survey,
    passingScore: listed.passingScore ?? revision.passingScore,
    stages,
  };
}
