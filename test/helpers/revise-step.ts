import type { RunningSite } from '../../server/site.ts';
import { api, signIn } from '../server/helpers.ts';

/**
 * Revises a guide on the site as its author would: a new revision through the API (`PATCH /guides/{id}`,
 * its summary), in which the guide's own step `number` has its first line reworded and a line added, and
 * with `release` its release note (`POST /guides/releases`, a Dozuki site's). Answers the new revisionid.
 */
export async function reviseStepOnSite(
  site: RunningSite,
  guideid: number,
  number: number,
  words: { reworded: string; added: string; release?: { title: string; notes: string } },
): Promise<number> {
  const { token } = await signIn(site, 'admin');
  const current = (await api(site, 'GET', `/guides/${guideid}`)).body as { revisionid: number };
  const patched = await api(site, 'PATCH', `/guides/${guideid}`, {
    token,
    query: { revisionid: current.revisionid },
    json: { summary: `Revised ${Date.now()}` },
  });
  if (patched.status !== 200) throw new Error(`PATCH /guides/${guideid}: ${patched.status}`);
  const revisionid = (patched.body as { revisionid: number }).revisionid;
  const db = site.db;
  db.transaction(() => {
    const { old } = db
      .prepare(
        'SELECT step_revisionid AS old FROM guide_revision_steps WHERE revisionid = ? ' +
          'ORDER BY orderby LIMIT 1 OFFSET ?',
      )
      .get(revisionid, number - 1) as { old: number };
    const fresh = Number(
      db
        .prepare(
          'INSERT INTO step_revisions (stepid, title, media_type, media) ' +
            'SELECT stepid, title, media_type, media FROM step_revisions WHERE step_revisionid = ?',
        )
        .run(old).lastInsertRowid,
    );
    db.prepare(
      'INSERT INTO step_lines (step_revisionid, idx, lineid, bullet, level, text_raw, text_rendered) ' +
        'SELECT ?, idx, lineid, bullet, level, text_raw, text_rendered FROM step_lines WHERE step_revisionid = ?',
    ).run(fresh, old);
    db.prepare('UPDATE step_lines SET text_raw = ?, text_rendered = ? WHERE step_revisionid = ? AND idx = 0').run(
      words.reworded,
      words.reworded,
      fresh,
    );
    const { next } = db.prepare('SELECT max(idx) + 1 AS next FROM step_lines WHERE step_revisionid = ?').get(fresh) as {
      next: number;
    };
    db.prepare(
      'INSERT INTO step_lines (step_revisionid, idx, lineid, bullet, level, text_raw, text_rendered) ' +
        "VALUES (?, ?, NULL, 'black', 0, ?, ?)",
    ).run(fresh, next, words.added, words.added);
    db.prepare('UPDATE guide_revision_steps SET step_revisionid = ? WHERE revisionid = ? AND step_revisionid = ?').run(
      fresh,
      revisionid,
      old,
    );
  })();
  if (words.release) {
    const json = { guideid, ...words.release };
    const released = await api(site, 'POST', '/guides/releases', { token, json });
    if (released.status !== 201) throw new Error(`POST /guides/releases: ${released.status} ${released.text}`);
  }
  return revisionid;
}

/** Removes the guide's own step `number` on the site, in a new revision (as reviseStepOnSite makes one). Answers it. */
export async function removeStepOnSite(site: RunningSite, guideid: number, number: number): Promise<number> {
  const { token } = await signIn(site, 'admin');
  const current = (await api(site, 'GET', `/guides/${guideid}`)).body as { revisionid: number };
  const patched = await api(site, 'PATCH', `/guides/${guideid}`, {
    token,
    query: { revisionid: current.revisionid },
    json: { summary: `Step ${number} removed ${Date.now()}` },
  });
  if (patched.status !== 200) throw new Error(`PATCH /guides/${guideid}: ${patched.status}`);
  const revisionid = (patched.body as { revisionid: number }).revisionid;
  const { old } = site.db
    .prepare(
      'SELECT step_revisionid AS old FROM guide_revision_steps WHERE revisionid = ? ORDER BY orderby LIMIT 1 OFFSET ?',
    )
    .get(revisionid, number - 1) as { old: number };
  site.db.prepare('DELETE FROM guide_revision_steps WHERE revisionid = ? AND step_revisionid = ?').run(revisionid, old);
  return revisionid;
}
