import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ApiTransport } from '../../electron/core/api/transport.ts';
import { findEntries, getEntry, transitionEntry } from '../../electron/core/api/work-log-api.ts';
import { GUIDE_FILES, startFixtureSite, type FixtureSite } from '../fixtures/real/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Acceptance 5 of issue 15: every real answer in test/fixtures/real, served by a site over real HTTP
// (its media from a second origin, as a CDN), synced by the real sync; each guide reads back with the
// same steps, lines and pictures as the site's answer holds.

const fixturesDir = path.resolve(import.meta.dirname, '../fixtures/real');
let site: FixtureSite;
let app: ReturnType<typeof makeServices>;

interface WireImage {
  id: number;
  thumbnail?: string;
  standard?: string;
  medium?: string;
  large?: string;
  original?: string;
}
interface WireGuide {
  guideid: number;
  title: string;
  steps: {
    stepid: number;
    title: string;
    lines: { lineid: number; bullet: string; level: number; text_rendered: string }[];
    media: { type: string; data: unknown };
  }[];
}

beforeAll(async () => {
  // No public answer shows step forms or quizzes: they answer 404 here, as on a site without them (the
  // work log stays: Dozuki's own answers of it are among the fixtures).
  site = await startFixtureSite({ lacking: ['step_forms', 'quizzes'] });
  app = makeServices();
  unwrap(
    await app.services.api.signIn({ siteUrl: site.url, email: 'fixture@example.com', password: 'fixture-password' }),
  );
  // The real answers' CDN (https on the web) is played by another port here: allowed, as a technician would.
  unwrap(await app.services.api.allowMediaOrigin(site.cdnUrl));
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

describe('real API 2.0 answers from public sources', () => {
  it('every fixture file is one the site serves or the test reads', () => {
    const files = fs.readdirSync(fixturesDir).filter((f) => f.endsWith('.json'));
    const readme = fs.readFileSync(path.join(fixturesDir, 'README.md'), 'utf8');
    // Each file is named in the README with its source and licence.
    for (const file of files) expect(readme).toContain(file);
    expect(files.sort()).toEqual(
      [
        ...GUIDE_FILES,
        'dozuki-guide-summaries.json',
        'dozuki-image.json',
        'dozuki-video.json',
        'dozuki-work-log-entry-complete.json',
        'dozuki-work-log-entry-started.json',
        'dozuki-work-log-finish.json',
        'ifixit-categories.json',
      ].sort(),
    );
  });

  it('a sync stores every listed guide, its steps, lines and pictures, from the site and its CDN', async () => {
    const outcome = unwrap(await app.services.api.syncNow());
    expect(outcome).toMatchObject({ status: 'complete', error: null });
    for (const file of GUIDE_FILES) {
      const wire = site.served(file) as WireGuide;
      const guide = unwrap(await app.services.api.getGuide(wire.guideid));
      expect(guide.title).toBe(wire.title);
      expect(guide.steps.map((s) => s.stepid)).toEqual(wire.steps.map((s) => s.stepid));
      for (const [index, step] of guide.steps.entries()) {
        const sent = wire.steps[index]!;
        expect(step.title).toBe(sent.title);
        expect(step.lines.map((l) => [l.lineid, l.bullet, l.level, l.textRendered])).toEqual(
          sent.lines.map((l) => [l.lineid, l.bullet, l.level, l.text_rendered]),
        );
        expect(step.media.type).toBe(sent.media.type);
        if (step.media.type === 'image') {
          const images = sent.media.data as WireImage[];
          expect(step.media.images.map((i) => [i.id, i.thumbnail, i.standard, i.medium, i.large, i.original])).toEqual(
            images.map((i) => [i.id, i.thumbnail, i.standard, i.medium, i.large, i.original]),
          );
          // The picture the step shows (its step size) is on this computer, fetched from the CDN's origin.
          for (const image of step.media.images) {
            expect(image.standard!.startsWith(site.cdnUrl)).toBe(true);
            expect(app.services.resolveMedia(image.standard!)).not.toBeNull();
          }
        }
        if (step.media.type === 'video') {
          const video = sent.media.data as { encodings: { url: string }[]; image: { image: WireImage } };
          // Every encoding the site sent, the one that fits this laptop first (an MP4: shared/media.ts).
          expect(step.media.encodings.map((e) => e.url).sort()).toEqual(video.encodings.map((e) => e.url).sort());
          expect(step.media.encodings[0]!.url).toMatch(/_MP4_\d+\.mp4$/);
          expect(step.media.poster?.id).toBe(video.image.image.id);
        }
      }
    }
    expect(site.requests.some((r) => r.startsWith('CDN GET '))).toBe(true);
  });

  it('the real summary answer is listed as the site lists it', async () => {
    const [summary] = site.served('dozuki-guide-summaries.json') as {
      guideid: number;
      title: string;
      category: string;
      type: string;
    }[];
    const page = unwrap(await app.services.api.listGuides({ limit: 50 }));
    expect(page.items.find((g) => g.guideid === summary!.guideid)).toMatchObject({
      title: summary!.title,
      category: summary!.category,
      type: summary!.type,
      offline: 'full',
    });
  });

  it('the real category tree (null and {} leaves) is the library tree', async () => {
    const tree = unwrap(await app.services.api.getCategories());
    const names = (nodes: typeof tree): string[] => nodes.flatMap((n) => [n.name, ...names(n.children)]);
    expect(names(tree)).toEqual(
      expect.arrayContaining([
        'Mac',
        'Mac Laptop',
        'PowerBook',
        'PowerBook G3 Series',
        'PowerBook G3 Wallstreet',
        'Beads',
      ]),
    );
  });

  it(
    'real work-log answers read as entries, ' + 'and a finish that answers only its times reads the entry back',
    async () => {
      const transport = new ApiTransport({ siteUrl: site.url, token: 'fixture-token' });
      const complete = JSON.parse(
        fs.readFileSync(path.join(fixturesDir, 'dozuki-work-log-entry-complete.json'), 'utf8'),
      ) as { entryid: number; work_data: unknown[] };
      const found = await findEntries(transport, { guideid: 380, workorderid: 'sh-003', userid: 228 });
      expect(found.unreadable).toEqual([]);
      const [listed] = found.entries;
      expect(listed).toMatchObject({
        entryid: complete.entryid,
        status: 'complete',
        workorderid: 'sh-003',
        guideRevisionid: 5769,
      });
      expect(listed!.values).toHaveLength(complete.work_data.length);
      expect(listed!.values[0]).toEqual({ fieldGuid: null, fieldRevisionid: 238, value: 'SM Humane' });
      expect(await getEntry(transport, 310)).toMatchObject({ entryid: 310, status: 'started', endedAt: null });
      const finished = await transitionEntry(transport, 310, 'finish', null, 1513094744);
      expect(finished).toMatchObject({ entryid: 310, status: 'complete', endedAt: 1513094744, guideRevisionid: 6040 });
    },
  );
});
