import type { Db } from '../db/types.ts';
import { renderBlock, renderInline } from '../guides/markup.ts';

/** A guide's texts in another language: what `?langid=` answers in place of the source's. */
export interface Translation {
  guideid: number;
  langid: string;
  title: string;
  summary: string;
  introduction_raw: string;
  /** By stepid: the step's title and its lines' raw text in order (a line left out stays the source's). */
  steps: Record<number, { title?: string; lines?: string[] }>;
}

/** The languages a site's guides are written in: its own, `en`, first. */
export const SITE_LANGUAGE = 'en';

/**
 * Whether a guide can be read in the site's own language (written in it, or translated into it). iFixit
 * lists a user's favourites and completions in that language only: the others are left out of them.
 */
export function inSiteLanguage(db: Db, guide: { guideid: number; locale: string }): boolean {
  if (guide.locale === SITE_LANGUAGE) return true;
  const translated = db.prepare('SELECT 1 FROM guide_translations WHERE guideid = ? AND langid = ?');
  return translated.get(guide.guideid, SITE_LANGUAGE) !== undefined;
}

export function insertTranslation(db: Db, translation: Translation): void {
  db.prepare(
    `INSERT OR REPLACE INTO guide_translations (guideid, langid, title, summary, introduction_raw, steps)
     VALUES (@guideid, @langid, @title, @summary, @introduction_raw, @steps)`,
  ).run({ ...translation, steps: JSON.stringify(translation.steps) });
}

export function translationOf(db: Db, guideid: number, langid: string): Translation | undefined {
  const row = db.prepare('SELECT * FROM guide_translations WHERE guideid = ? AND langid = ?').get(guideid, langid) as
    (Omit<Translation, 'steps'> & { steps: string }) | undefined;
  return row ? { ...row, steps: JSON.parse(row.steps) as Translation['steps'] } : undefined;
}

/** The languages one guide can be read in: the source's first. */
export function languagesOf(db: Db, guideid: number, source: string): string[] {
  const rows = db
    .prepare('SELECT langid FROM guide_translations WHERE guideid = ? ORDER BY langid')
    .pluck()
    .all(guideid) as string[];
  return [source, ...rows.filter((langid) => langid !== source)];
}

interface StepJson {
  stepid: number;
  title: string;
  lines: { text_raw: string; text_rendered: string }[];
}

/** The steps with a translation's titles and lines laid over them. */
export function translateSteps<S extends StepJson>(steps: S[], translation: Translation | undefined): S[] {
  if (!translation) return steps;
  return steps.map((step) => {
    const text = translation.steps[step.stepid];
    if (!text) return step;
    const lines = step.lines.map((line, index) => {
      const raw = text.lines?.[index];
      return raw === undefined ? line : { ...line, text_raw: raw, text_rendered: renderInline(raw) };
    });
    return { ...step, title: text.title ?? step.title, lines };
  });
}

/** The guide's own texts (title, summary, introduction) in the translation's language. */
export function translateTexts<
  G extends { title: string; summary: string; introduction_raw: string; introduction_rendered: string },
>(guide: G, translation: Translation): G {
  return {
    ...guide,
    title: translation.title,
    summary: translation.summary || guide.summary,
    ...(translation.introduction_raw
      ? {
          introduction_raw: translation.introduction_raw,
          introduction_rendered: renderBlock(translation.introduction_raw),
        }
      : {}),
  };
}
