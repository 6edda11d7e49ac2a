import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { generateSite } from '../../server/generator/generator.ts';
import { imageSize } from '../../server/media/png.ts';
import { openServerDb } from '../../server/db/open.ts';
import { startSite, type RunningSite } from '../../server/site.ts';
import { fullGuide, guideSummary } from './content-schemas.ts';
import { api, expectShape, signIn } from './helpers.ts';

const OPTIONS = { guides: 60, steps: 3, images: 2, seed: 7 };

const snapshot = (seed: number) => {
  const db = openServerDb(':memory:');
  const result = generateSite(db, { ...OPTIONS, seed });
  const rows = db
    .prepare(
      `SELECT g.guideid, r.title, r.modified_date, r.public, r.flags, i.guid FROM guides g
       JOIN guide_revisions r ON r.revisionid = g.revisionid LEFT JOIN images i ON i.imageid = r.imageid
       ORDER BY g.guideid`,
    )
    .all();
  const lines = db.prepare('SELECT COUNT(*) AS n, GROUP_CONCAT(text_raw) AS text FROM step_lines').get();
  db.close();
  return { result, rows, lines };
};

describe('generateSite', () => {
  it('is deterministic for a seed and differs between seeds', () => {
    const a = snapshot(7);
    expect(snapshot(7)).toEqual(a);
    expect(snapshot(8).rows).not.toEqual(a.rows);
    expect(a.result).toEqual({ guides: 60, categories: 3, images: 60 + 60 * 3 * 2 + 3 });
  });

  it('refuses nonsense sizes', () => {
    const db = openServerDb(':memory:');
    expect(() => generateSite(db, { ...OPTIONS, guides: -1 })).toThrow(RangeError);
    db.close();
  });
});

describe('a generated site over HTTP', () => {
  let one: RunningSite;
  let two: RunningSite;
  beforeAll(async () => {
    const start = () => startSite({ testHooks: true, seed: (db) => generateSite(db, OPTIONS) });
    [one, two] = await Promise.all([start(), start()]);
  });
  afterAll(async () => {
    await Promise.all([one.close(), two.close()]);
  });

  it('lists, details and serves media correctly, the same on two sites of one seed', async () => {
    const list = await api(one, 'GET', '/guides', { query: { limit: 200 } });
    const guides = expectShape(z.array(guideSummary), list.body);
    const publicCount = (
      one.db
        .prepare(
          'SELECT COUNT(*) AS n FROM guides g JOIN guide_revisions r ON r.revisionid = g.revisionid WHERE r.public = 1',
        )
        .get() as { n: number }
    ).n;
    expect(guides).toHaveLength(publicCount);
    expect(publicCount).toBeGreaterThan(50);
    const strip = (body: unknown) =>
      JSON.parse(JSON.stringify(body).replaceAll(one.url, 'SITE').replaceAll(two.url, 'SITE'));
    expect(strip((await api(two, 'GET', '/guides', { query: { limit: 200 } })).body)).toEqual(strip(list.body));

    const detail = expectShape(fullGuide, (await api(one, 'GET', `/guides/${guides[0]!.guideid}`)).body);
    expect(detail.steps).toHaveLength(3);
    for (const step of detail.steps) {
      expect(step.media.type).toBe('image');
      expect(step.media.data).toHaveLength(2);
      expect(step.lines.length).toBeGreaterThanOrEqual(1);
    }
    const image = (detail.steps[1]!.media.data as unknown as { medium: string }[])[0]!;
    const bytes = Buffer.from(await (await fetch(image.medium)).arrayBuffer());
    expect(imageSize(bytes)).toEqual({ width: 592, height: 444 });
    const twin = Buffer.from(await (await fetch(image.medium.replace(one.url, two.url))).arrayBuffer());
    expect(twin.equals(bytes)).toBe(true);
  });

  it('has the demo accounts, so clients can sign in', async () => {
    const session = await signIn(one, 'tech1');
    expect(session.token).toMatch(/^[0-9a-f]{64}$/);
  });
});
