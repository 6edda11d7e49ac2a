import type { Context } from 'hono';
import type { ServerContext } from '../context.ts';
import { threaded, type CommentJson } from '../comments/repo.ts';
import { currentUser } from '../http/auth.ts';
import type { AppEnv } from '../http/env.ts';
import { invalid } from '../http/errors.ts';
import { siteOrigin } from '../http/urls.ts';
import { languagesOf, translateSteps, translateTexts, translationOf } from '../translations/repo.ts';
import { canViewGuide } from './access.ts';
import { getGuideRow, type GuideRow } from './repo.ts';
import { stepsJson } from './steps-json.ts';

/** `?langid=`: two lower-case letters (iFixit's pattern `^[a-z]{2}$`), else a 422 naming it. */
export function parseLangid(value: string | undefined): string | undefined {
  if (value === undefined) return undefined;
  if (!/^[a-z]{2}$/.test(value))
    throw invalid('langid', 'invalid_value', 'langid must be a language code of two letters');
  return value;
}

type Steps = ReturnType<typeof stepsJson>;

/**
 * A guide as `GET /guides/{id}` answers it, from its full JSON: in `?langid=` when the guide has that
 * translation (else in its own language, as iFixit falls back to the source), with the languages it can
 * be read in; on an iFixit site, the steps of its prerequisite guides first (each with its own `guideid`
 * and `orderby`) unless `excludePrerequisiteSteps` is present, and a video step carrying only its id.
 */
export function readGuide<
  G extends { title: string; summary: string; introduction_raw: string; introduction_rendered: string },
>(
  ctx: ServerContext,
  c: Context<AppEnv>,
  row: GuideRow,
  json: G & { steps: Steps; prerequisites: { guideid: number; title: string }[]; comments: CommentJson[] },
) {
  const langid = parseLangid(c.req.query('langid'));
  const translation =
    langid !== undefined && langid !== row.locale ? translationOf(ctx.db, row.guideid, langid) : undefined;
  const ifixit = ctx.options.dialect === 'ifixit';
  let steps = translateSteps(json.steps, translation);
  if (ifixit && c.req.query('excludePrerequisiteSteps') === undefined) {
    steps = [...prerequisiteSteps(ctx, c, row, langid, new Set([row.guideid])), ...steps];
  }
  if (ifixit) steps = steps.map(videoIdOnly);
  // iFixit nests a comment's replies in it; the reference lists them beside it with their parentid.
  const threads = ifixit ? { comments: threaded(json.comments) } : {};
  if (ifixit) steps = steps.map((step) => ({ ...step, comments: threaded(step.comments) }));
  const prerequisites = json.prerequisites.map((prereq) => {
    const title = langid === undefined ? undefined : translationOf(ctx.db, prereq.guideid, langid)?.title;
    return title ? { ...prereq, title } : prereq;
  });
  const texts = translation ? translateTexts(json, translation) : json;
  const language = translation?.langid ?? row.locale;
  return {
    ...texts,
    locale: language,
    langid: language,
    available_langids: languagesOf(ctx.db, row.guideid, row.locale),
    prerequisites,
    steps,
    ...threads,
  };
}

/** The steps iFixit inlines: each prerequisite's (its own prerequisites' first), in the guide's order of them. */
function prerequisiteSteps(
  ctx: ServerContext,
  c: Context<AppEnv>,
  row: GuideRow,
  langid: string | undefined,
  seen: Set<number>,
): Steps {
  const steps: Steps = [];
  for (const guideid of JSON.parse(row.prerequisites) as number[]) {
    if (seen.has(guideid)) continue;
    seen.add(guideid);
    const prereq = getGuideRow(ctx.db, guideid);
    if (!prereq || !canViewGuide(currentUser(c), prereq)) continue;
    const translation = langid === undefined ? undefined : translationOf(ctx.db, guideid, langid);
    steps.push(...prerequisiteSteps(ctx, c, prereq, langid, seen));
    steps.push(...translateSteps(stepsJson(ctx.db, siteOrigin(c), guideid, prereq.revisionid), translation));
  }
  return steps;
}

function videoIdOnly<S extends Steps[number]>(step: S): S {
  const data = step.media?.data as { videoid?: number } | null | undefined;
  if (step.media?.type !== 'video' || !data?.videoid) return step;
  return { ...step, media: { type: 'video', data: { videoid: data.videoid } } };
}
