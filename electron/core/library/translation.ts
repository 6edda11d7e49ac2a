import type { GuideDetail, GuideStep } from '../../contract.ts';
import type { StoredTranslation } from '../db/repos/translations-repo.ts';

/**
 * A stored guide (its prerequisites' steps included) with the texts of its translations laid over it:
 * the guide's own title, introduction, conclusion, parts and tools from `texts` of its id, and every
 * step's title and lines from the translation of the guide the step is of. What no translation has
 * stays in the site's language; pictures, videos, forms and quizzes stay the stored guide's. Each step says
 * which language it is in (`langid`): a screen reader reads it so.
 */
export function translated(base: GuideDetail, texts: ReadonlyMap<number, GuideDetail>, langid: string): GuideDetail {
  const siteLangid = base.language?.langid;
  const own = texts.get(base.guideid);
  const steps = new Map<number, GuideStep>();
  for (const text of texts.values()) {
    for (const step of text.steps) if ((step.guideid ?? text.guideid) === text.guideid) steps.set(step.stepid, step);
  }
  return {
    ...base,
    ...(own
      ? {
          title: own.title,
          introductionRendered: own.introductionRendered,
          conclusionRendered: own.conclusionRendered,
          parts: base.parts.map((item, index) => ({ ...item, text: own.parts[index]?.text || item.text })),
          tools: base.tools.map((item, index) => ({ ...item, text: own.tools[index]?.text || item.text })),
        }
      : {}),
    prerequisites: base.prerequisites.map((prereq) => {
      const text = texts.get(prereq.guideid);
      if (text) return { ...prereq, title: text.title, langid };
      return siteLangid ? { ...prereq, langid: siteLangid } : prereq;
    }),
    steps: base.steps.map((step) => {
      const text = steps.get(step.stepid);
      if (text) return { ...step, title: text.title, lines: text.lines, langid };
      return siteLangid ? { ...step, langid: siteLangid } : step;
    }),
  };
}

/**
 * A stored guide in the technician's language: its translation kept for that revision (or the site's own
 * text, marked as the fallback, when the site has none), else the site's own text, marked as a fallback
 * until a sync brings the translation.
 */
export function inLanguage(detail: GuideDetail, langid: string, kept: StoredTranslation | undefined): GuideDetail {
  if (kept && kept.revisionid === detail.revisionid) {
    const shown = kept.fallback ? (detail.language?.langid ?? langid) : langid;
    return { ...kept.detail, language: { langid: shown, fallback: kept.fallback } };
  }
  return { ...detail, language: { langid: detail.language?.langid ?? '', fallback: true, pending: true } };
}
