import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { GuideDetail } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import type { RunningSite } from '../../server/site.ts';
import { audit } from '../fault/helpers.ts';
import { always, mulberry32, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, startTestSite } from '../server/helpers.ts';
import { runKillableChild } from '../helpers/child.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { SEEDED_TIMEOUT_MS, seedCount, seedStart } from '../helpers/seeds.ts';

// The comment kinds in the kill schedule of outbox-kill.test.ts: SIGKILL the process replaying queued
// comments (a post, a post edited after a try, an edit and a delete of a sent one) at seeded requests;
// a new process finishes. Nothing lost, nothing created twice, the database intact.
const RUNS = seedCount(12, 4);
const child = path.resolve(import.meta.dirname, '../helpers/outbox-child.ts');
let site: RunningSite;
let proxy: FaultProxy;
let template: ReturnType<typeof makeTempDir>;
let guide: GuideDetail;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  proxy = await startFaultProxy({ target: { port: site.port } });
  template = makeTempDir('outbox-kill-comments');
  const app = makeServices(template.dir);
  const { email, password } = DEMO_ACCOUNTS.tech1;
  unwrap(await app.services.api.signIn({ siteUrl: proxy.url, email, password }));
  const { guideid } = site.db.prepare('SELECT min(guideid) AS guideid FROM guides').get() as { guideid: number };
  unwrap(await app.services.api.setOfflineScope({ mode: 'selected', categories: [], guideids: [guideid] }));
  expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
  guide = unwrap(await app.services.api.getGuide(guideid));
  await app.services.close();
});
afterAll(async () => {
  template?.remove();
  await proxy?.close();
  await site?.close();
});

/** A copy of the template with comments queued offline; answers the texts that must end on the site. */
async function queuedComments(run: string): Promise<{ dir: ReturnType<typeof makeTempDir>; texts: string[] }> {
  const dir = makeTempDir('outbox-kill-comments-run');
  fs.cpSync(template.dir, dir.dir, { recursive: true });
  const app = makeServices(dir.dir);
  const api_ = app.services.api;
  const on = (index: number) => ({
    guideid: guide.guideid,
    context: 'step' as const,
    contextid: guide.steps[index % guide.steps.length]!.stepid,
  });
  // One sent while the site answers, so the replay also has an edit and a delete of a comment the site has.
  const sent = unwrap(await api_.writeComment({ ...on(0), text: `Run ${run}: sent, then changed.` }));
  unwrap(await api_.flushOutbox());
  proxy.setSchedule(always({ kind: 'reset' }));
  const gone = unwrap(await api_.writeComment({ ...on(1), text: `Run ${run}: sent, then deleted.` }));
  proxy.passAll();
  unwrap(await api_.flushOutbox());
  proxy.setSchedule(always({ kind: 'reset' }));
  unwrap(await api_.editComment({ id: sent.id, text: `Run ${run}: sent, then changed, changed.` }));
  unwrap(await api_.deleteComment(gone.id));
  unwrap(await api_.writeComment({ ...on(2), text: `Run ${run}: written offline.` }));
  const tried = unwrap(await api_.writeComment({ ...on(3), text: `Run ${run}: tried, then edited.` }));
  await api_.flushOutbox();
  unwrap(await api_.editComment({ id: tried.id, text: `Run ${run}: tried, then edited, edited.` }));
  await app.services.close();
  proxy.passAll();
  return {
    dir,
    texts: [
      `Run ${run}: sent, then changed, changed.`,
      `Run ${run}: written offline.`,
      `Run ${run}: tried, then edited, edited.`,
    ],
  };
}

async function siteTexts(run: string): Promise<string[]> {
  const body = (await api(site, 'GET', `/guides/${guide.guideid}`)).body as {
    steps: { comments: { text_raw: string; author: { userid: number } }[] }[];
  };
  return body.steps
    .flatMap((s) => s.comments)
    .filter((c) => c.text_raw.startsWith(`Run ${run}:`))
    .map((c) => c.text_raw)
    .sort();
}

describe('killing a replay of comments', () => {
  it(`at ${RUNS} seeded points loses nothing and creates nothing twice`, { timeout: SEEDED_TIMEOUT_MS }, async () => {
    const reference = await queuedComments('REF');
    const full = await runKillableChild(child, [reference.dir.dir], null);
    reference.dir.remove();
    expect(full.last).toBe('done 0');
    expect(await siteTexts('REF')).toEqual(reference.texts.sort());

    const random = mulberry32(seedStart(3030));
    for (let run = 1; run <= RUNS; run++) {
      const killAt = 1 + Math.floor(random() * full.requests);
      const auditedBefore = Math.max(0, ...(await audit(site, 'comment')).map((a) => a.auditid));
      const { dir, texts } = await queuedComments(`K${run}`);
      try {
        expect((await runKillableChild(child, [dir.dir], killAt)).killed, `run ${run}`).toBe(true);
        const db = new Database(path.join(dir.dir, 'fieldguide.sqlite'));
        expect(db.pragma('integrity_check', { simple: true }), `run ${run}`).toBe('ok');
        db.close();
        const app = makeServices(dir.dir);
        try {
          let summary = unwrap(await app.services.api.flushOutbox());
          for (let i = 0; i < 10 && summary.pending > 0; i++) summary = unwrap(await app.services.api.flushOutbox());
          expect(summary, `run ${run} (killed at request ${killAt})`).toMatchObject({ pending: 0, failed: 0 });
        } finally {
          await app.services.close();
        }
        expect(await siteTexts(`K${run}`), `run ${run}`).toEqual(texts.sort());
        // Four comments were created in this run (one deleted since): none twice.
        const applied = (await audit(site, 'comment')).filter((a) => a.auditid > auditedBefore);
        expect(
          applied.filter((a) => a.method === 'POST'),
          `run ${run}: created once each`,
        ).toHaveLength(4);
        expect(
          applied.filter((a) => a.method === 'DELETE'),
          `run ${run}`,
        ).toHaveLength(1);
      } finally {
        dir.remove();
      }
    }
  });
});
