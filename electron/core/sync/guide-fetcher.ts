import type { QuizRef, QuizRevision, QuizStage, StepForm } from '../../contract.ts';
import { fetchCourseAssignments, fetchGuide, fetchGuideTags, fetchPassingScore, fetchQuizAssociations, fetchQuizRevision, fetchStepForms } from '../api/guides-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { StoredGuide } from '../db/repos/guides-repo.ts';
import { toGuideDetail, toStepForm } from '../api/map-guide.ts';
import { mediaUrlsOf } from '../library/guide-media.ts';
import { searchTextOf } from '../library/search-text.ts';

/**
 * Everything one guide needs offline, fetched but not yet stored: the guide, its step forms (prerequisite
 * guides' forms included by the site; only this guide's steps are kept), tags, quiz associations and the
 * quiz revisions not already stored. Any failure throws an ApiError naming the resource.
 */
export async function fetchWholeGuide(
  transport: ApiTransport,
  guideid: number,
  knownQuiz: (quizRevisionid: number) => Omit<QuizRevision, 'stages'> | undefined,
  signal?: AbortSignal,
): Promise<StoredGuide> {
  const [wire, formsWire, tags, associations] = await Promise.all([
    fetchGuide(transport, guideid, signal),
    fetchStepForms(transport, guideid, signal),
    fetchGuideTags(transport, guideid, signal),
    fetchQuizAssociations(transport, guideid, signal),
  ]);
  const stepIds = new Set(wire.steps.map((s) => s.stepid));
  const forms: StepForm[] = formsWire.filter((f) => stepIds.has(f.stepid)).map(toStepForm);
  const quizzes: QuizRevision[] = [];
  for (const association of associations) {
    if (association.quizRevisionid === null) continue;
    quizzes.push(await fetchQuiz(transport, { ...association, quizRevisionid: association.quizRevisionid }, knownQuiz, signal));
  }
  const quizRefs: QuizRef[] = quizzes.map((q) => ({ quizid: q.quizid, quizRevisionid: q.quizRevisionid, title: q.title, passingScore: q.passingScore }));
  const detail = toGuideDetail(wire, { forms: new Map(forms.map((f) => [f.stepid, f])), tags, quizzes: quizRefs });
  return {
    detail,
    forms,
    quizzes,
    searchText: searchTextOf(detail, wire.summary ?? ''),
    mediaUrls: mediaUrlsOf(detail),
  };
}

/**
 * A quiz revision with the course stages that hold the quiz and the passing score each stage sets
 * itself (issue 6's rule: the stage's own score applies, else the quiz's). A revision already stored
 * is not fetched again; the stages are, since a course can change without a new revision.
 */
export async function fetchQuiz(
  transport: ApiTransport,
  listed: { quizid: number; quizRevisionid: number; title: string | null; passingScore: number | null },
  knownQuiz: (quizRevisionid: number) => Omit<QuizRevision, 'stages'> | undefined,
  signal?: AbortSignal,
): Promise<QuizRevision> {
  const stages: QuizStage[] = [];
  const seen = new Set<number>();
  for (const assignment of await fetchCourseAssignments(transport, listed.quizid, signal)) {
    if (seen.has(assignment.course_stageid)) continue;
    seen.add(assignment.course_stageid);
    const score = await fetchPassingScore(transport, assignment.course_stageid, listed.quizid, signal);
    const title = [assignment.course_title, assignment.stage_title].filter(Boolean).join(' › ') || `Course stage ${assignment.course_stageid}`;
    stages.push({ courseStageid: assignment.course_stageid, title, passingScore: score.own ? score.score : null });
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
