import type { Db } from '../db/types.ts';
import { commentsOf } from '../comments/repo.ts';
import { imageJson, videoDetailJson } from '../media/json.ts';
import { getEncodings, getImageMeta, getImagesMeta, getVideo } from '../media/repo.ts';

interface StepRow {
  orderby: number;
  step_revisionid: number;
  stepid: number;
  title: string;
  media_type: 'image' | 'video' | 'embed';
  media: string;
}

interface LineRow {
  step_revisionid: number;
  lineid: number | null;
  bullet: string;
  level: number;
  text_raw: string;
  text_rendered: string;
}

/**
 * The steps of one guide revision in order: `{guideid, stepid, revisionid, orderby, title, media, lines, comments}`.
 */
export function stepsJson(db: Db, origin: string, guideid: number, revisionid: number) {
  const steps = db
    .prepare(
      `SELECT o.orderby, s.step_revisionid, s.stepid, s.title, s.media_type, s.media
       FROM guide_revision_steps o JOIN step_revisions s USING (step_revisionid)
       WHERE o.revisionid = ? ORDER BY o.orderby`,
    )
    .all(revisionid) as StepRow[];
  const ids = JSON.stringify(steps.map((step) => step.step_revisionid));
  const lines = db
    .prepare(
      `SELECT step_revisionid, lineid, bullet, level, text_raw, text_rendered FROM step_lines
       WHERE step_revisionid IN (SELECT value FROM json_each(?)) ORDER BY step_revisionid, idx`,
    )
    .all(ids) as LineRow[];
  const linesByStep = new Map<number, LineRow[]>();
  for (const line of lines) {
    const list = linesByStep.get(line.step_revisionid) ?? [];
    list.push(line);
    linesByStep.set(line.step_revisionid, list);
  }
  const imageids = steps.flatMap((step) =>
    step.media_type === 'image' ? (JSON.parse(step.media) as { imageids: number[] }).imageids : [],
  );
  const images = getImagesMeta(db, imageids);
  const comments = commentsOf(
    db,
    origin,
    'step',
    steps.map((step) => step.stepid),
  );

  return steps.map((step) => ({
    guideid,
    stepid: step.stepid,
    revisionid: step.step_revisionid,
    orderby: step.orderby,
    title: step.title,
    media: mediaJson(db, origin, step, images),
    lines: (linesByStep.get(step.step_revisionid) ?? []).map(({ lineid, bullet, level, text_raw, text_rendered }) => ({
      lineid,
      bullet,
      level,
      text_raw,
      text_rendered,
    })),
    comments: comments.get(step.stepid) ?? [],
  }));
}

function mediaJson(db: Db, origin: string, step: StepRow, images: Map<number, { imageid: number; guid: string }>) {
  const media = JSON.parse(step.media) as Record<string, unknown>;
  switch (step.media_type) {
    case 'image':
      return {
        type: 'image',
        data: (media.imageids as number[]).flatMap((id) => {
          const image = images.get(id);
          return image ? [imageJson(origin, image)] : [];
        }),
      };
    case 'video': {
      const video = getVideo(db, String(media.videoid));
      if (!video) return { type: 'video', data: null };
      const poster = video.imageid === null ? undefined : getImageMeta(db, String(video.imageid));
      return { type: 'video', data: videoDetailJson(origin, video, getEncodings(db, video.videoid), poster) };
    }
    case 'embed':
      // iFixit's Embed: the page it shows (`view_url`) and its title (`filename`).
      return {
        type: 'embed',
        data: { html: media.html, url: media.url ?? null, view_url: media.url ?? null, filename: media.title ?? null },
      };
  }
}
