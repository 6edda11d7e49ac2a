import type {
  GuideDetail,
  GuideStep,
  QuizRef,
  QuizRevision,
  QuizStage,
  ReleaseNote,
  SiteModule,
  StepForm,
} from '../../contract.ts';
import { notOffered } from '../api/capabilities-api.ts';
import { classify } from '../api/failure.ts';
import { fetchGuide, fetchGuideTags, fetchStepForms } from '../api/guides-api.ts';
import { fetchGuideReleases } from '../api/releases-api.ts';
import {
  fetchCourseAssignments,
  fetchPassingScore,
  fetchQuizAssociations,
  fetchQuizRevision,
  type ListedQuiz,
} from '../api/quizzes-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { StoredGuide } from '../db/repos/guides-repo.ts';
import { fitVideos, mediaOrderOf, mediaUrlsOf, zoomUrlsOf } from '../library/guide-media.ts';
import type { VideoFit } from '../../shared/media.ts';
import { searchTextOf } from '../library/search-text.ts';
import { asPrerequisite, withPrerequisites, type Prerequisite } from '../library/prerequisites.ts';

/** Which modules the site offers, and where to say one turned out missing (sync/site-modules.ts). */
export interface GuideParts {
  offers: (module: SiteModule) => boolean;
  lacks: (module: SiteModule, status: number) => void;
  /** Learned during a sync: the site's guide answers carry their tags. */
  tagsWithGuide?: boolean;
  /** The tags stored here for a guide: kept when the site withholds them from one guide (a private one). */
  storedTags?: (guideid: number) => readonly string[] | undefined;
  /** Which guides' release notes to read, and where to say the site has none (sync/guides-phase.ts). */
  releases?: { wanted: (guideid: number) => boolean; lacking: () => void };
}

export const ALL_PARTS: Readonly<GuideParts> = { offers: () => true, lacks: () => {} };

/** Where a guide's prerequisites come from when they need not be fetched, and in which language to ask. */
export interface PrerequisiteSource {
  /** A prerequisite kept whole at the revision the site lists now (its own prerequisites' steps included). */
  stored: (guideid: number) => GuideDetail | undefined;
  /** The language to read guides in; null or absent: the site's own. */
  langid?: string | null;
  /** The screen and room videos are kept for: each video's fitting encoding goes first (shared/media.ts). */
  fit?: VideoFit;
  /** Fetches a prerequisite whole, once per sync however many guides need it (guides-phase.ts). */
  fetchWhole?: (guideid: number) => Promise<WholeGuide>;
}

const NONE_STORED: PrerequisiteSource = { stored: () => undefined };

/** How deep prerequisites of prerequisites are followed: a deeper chain (or a loop) stops there. */
const PREREQUISITE_DEPTH = 4;

/** A guide fetched whole, and the prerequisite guides fetched with it (each to be stored as a guide of its own). */
export interface WholeGuide {
  guide: StoredGuide;
  prerequisites: StoredGuide[];
}

/**
 * Everything one guide needs offline, fetched but not yet stored: the guide, its step forms (prerequisite
 * guides' forms included by a Dozuki site), tags, quiz associations, the quiz revisions not already
 * stored, and its prerequisites (library/prerequisites.ts): each one kept whole at the revision listed is
 * taken from the store, any other fetched whole too, and their steps open the guide's own. A part of a
 * module the site lacks is not asked, and a part the site answers as lacking (404, 403, 405, 501) is
 * empty; any other failure throws an ApiError naming the resource.
 */
export async function fetchWholeGuide(
  transport: ApiTransport,
  guideid: number,
  askQuiz: QuizAsker,
  signal?: AbortSignal,
  parts: GuideParts = { ...ALL_PARTS },
  source: PrerequisiteSource = NONE_STORED,
  visiting: ReadonlySet<number> = new Set(),
): Promise<WholeGuide> {
  const optional = async <T>(module: SiteModule, ask: () => Promise<T[]>): Promise<T[]> => {
    if (!parts.offers(module)) return [];
    try {
      return await ask();
    } catch (error) {
      const lacks = notOffered(error);
      if (!lacks) throw error;
      parts.lacks(module, lacks.status ?? 404);
      return [];
    }
  };
  // iFixit answers 403 "Guide is private." for the tags of any private guide, even to its author (its
  // OpenAPI description): that guide's, not a site without tags. It keeps the tags stored here, or none.
  const tagsOf = (): Promise<string[]> =>
    optional('tags', () =>
      fetchGuideTags(transport, guideid, signal).catch((error: unknown) => {
        if (classify(error).kind !== 'forbidden') throw error;
        return [...(parts.storedTags?.(guideid) ?? [])];
      }),
    );
  // Tags come with the guide on sites that send them: once a guide's answer carried them, the sync stops
  // asking `/guides/{id}/tags` (a request fewer per guide); a guide that comes without has them asked.
  const askTags = parts.tagsWithGuide !== true;
  const [site, allForms, askedTags, associations, releases] = await Promise.all([
    fetchGuide(transport, guideid, { ...(signal ? { signal } : {}), langid: source.langid ?? null }),
    optional('step_forms', () => fetchStepForms(transport, guideid, signal)),
    askTags ? tagsOf() : null,
    optional('quizzes', () => fetchQuizAssociations(transport, guideid, signal)),
    releasesOf(transport, guideid, parts, signal),
  ]);
  if (site.tags !== null) parts.tagsWithGuide = true;
  const tags = site.tags ?? askedTags ?? (await tagsOf());
  const fetched: StoredGuide[] = [];
  const sections: Prerequisite[] = [];
  const path = new Set([...visiting, guideid]);
  for (const prereq of site.detail.prerequisites) {
    const section = await prerequisiteOf(
      prereq,
      site.inlined.get(prereq.guideid) ?? [],
      path,
      async () => {
        const whole = source.fetchWhole
          ? await source.fetchWhole(prereq.guideid)
          : await fetchWholeGuide(transport, prereq.guideid, askQuiz, signal, parts, source, path);
        fetched.push(whole.guide, ...whole.prerequisites);
        return whole.guide.detail;
      },
      source,
    );
    sections.push(section);
  }
  const composed = withPrerequisites(site.detail, sections, new Map(allForms.map((f) => [f.stepid, f])));
  const stepIds = new Set(composed.steps.map((s) => s.stepid));
  const forms: StepForm[] = composed.steps.flatMap((step) =>
    step.form && stepIds.has(step.stepid) ? [step.form] : [],
  );
  const quizzes: QuizRevision[] = [];
  for (const association of associations) {
    if (association.quizRevisionid === null) continue;
    quizzes.push(await askQuiz({ ...association, quizRevisionid: association.quizRevisionid }));
  }
  const quizRefs: QuizRef[] = quizzes.map((q) => ({
    quizid: q.quizid,
    quizRevisionid: q.quizRevisionid,
    title: q.title,
    passingScore: q.passingScore,
  }));
  const whole: GuideDetail = { ...composed, tags, quizzes: quizRefs };
  const detail = source.fit ? fitVideos(whole, source.fit) : whole;
  const guide: StoredGuide = {
    detail,
    forms,
    quizzes,
    searchText: searchTextOf(detail, site.summary),
    mediaUrls: mediaUrlsOf(detail),
    mediaOrder: mediaOrderOf(detail),
    zoomUrls: zoomUrlsOf(detail),
    languages: site.languages,
    ...(releases ? { releases } : {}),
  };
  return { guide, prerequisites: fetched };
}

/**
 * The release notes of a guide a technician read in an older revision (no request for any other guide);
 * undefined when not asked. A site without releases (404 and the like) has none. They are extra to the
 * guide, never a reason it fails: any other failure but a refused sign-in leaves the stored ones as they are.
 */
async function releasesOf(
  transport: ApiTransport,
  guideid: number,
  parts: GuideParts,
  signal?: AbortSignal,
): Promise<ReleaseNote[] | undefined> {
  if (!parts.releases?.wanted(guideid)) return undefined;
  try {
    return await fetchGuideReleases(transport, guideid, signal);
  } catch (error) {
    if (notOffered(error)) {
      parts.releases.lacking();
      return [];
    }
    const failure = classify(error);
    if (failure.kind === 'signed-out' || failure.kind === 'local') throw error;
    return undefined;
  }
}

/**
 * One prerequisite of a guide: as stored when it is kept at the listed revision, else fetched whole. One
 * the technician may not read, that is gone, or that closes a loop keeps the steps the guide's answer
 * inlined of it (an iFixit site that ignored `excludePrerequisiteSteps`), or none.
 */
async function prerequisiteOf(
  prereq: { guideid: number; title: string },
  inlined: GuideStep[],
  path: ReadonlySet<number>,
  fetchWhole: () => Promise<GuideDetail>,
  source: PrerequisiteSource,
): Promise<Prerequisite> {
  const fallback: Prerequisite = { ...prereq, steps: inlined, prerequisites: [] };
  if (path.has(prereq.guideid) || path.size > PREREQUISITE_DEPTH) return fallback;
  const stored = source.stored(prereq.guideid);
  if (stored) return asPrerequisite(stored);
  try {
    return asPrerequisite(await fetchWhole());
  } catch (error) {
    const failure = classify(error);
    if (failure.kind === 'local') throw error;
    if (failure.kind === 'gone' || failure.kind === 'forbidden') return fallback;
    // The guide is not kept without the steps to do first (a lockout, say): it fails, saying why.
    throw failure.error.explained(`Its prerequisite "${prereq.title}" could not be read: ${failure.message}`);
  }
}

/** How a guide's fetch gets a quiz it names: `fetchQuiz`, asked once per sync (guides-phase.ts). */
export type QuizAsker = (listed: ListedQuiz & { quizRevisionid: number }) => Promise<QuizRevision>;

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
    const title =
      [assignment.courseTitle, assignment.stageTitle].filter(Boolean).join(' › ') ||
      `Course stage ${assignment.courseStageid}`;
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
