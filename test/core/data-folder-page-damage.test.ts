import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { mulberry32, startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { ackedCalls, lostOf, type Ack } from '../helpers/acked-work.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { makeTempDir } from '../helpers/tmp.ts';
import { syncedWorkFolder } from '../helpers/work-folder.ts';
import { seedCount, seedStart } from '../helpers/seeds.ts';

// Flipped bytes in the database file's pages of the technician's work (issue 24, item 3): 20 seeds of
// 1-3 bytes in the used part of a page of the outbox, the sessions or the values, or of their indexes. Before row
// checksums, about half were found by SQLite's check and salvaged; the rest silently changed a payload
// or dropped a value row, and the replay then took an action whose session was "gone" as done. Now every
// acknowledged action and value is on this computer after the start, and then on the site.
const DB = 'fieldguide.sqlite';
const SEEDS = seedCount(20, 3);
const WORK_TABLES = ['outbox', 'work_sessions', 'work_values'];
let site: RunningSite;
let proxy: FaultProxy;
let template: ReturnType<typeof makeTempDir>;
let acks: Ack[];

beforeAll(async () => {
  const synced = await syncedWorkFolder('page-damage');
  ({ site, proxy, folder: template } = synced);
  const { guideid, app } = synced;
  // Off the network (nothing listens at the site's address): the work is queued, known not to have left.
  const port = proxy.port;
  await proxy.close();
  acks = [];
  for await (const ack of ackedCalls(app.services.api, guideid, 13)) acks.push(ack);
  await app.services.close();
  proxy = await startFaultProxy({ target: { port: site.port }, port });
}, 120_000);
afterAll(async () => {
  template?.remove();
  await proxy?.close();
  await site?.close();
});

/**
 * The bytes of a b-tree page that hold something: its header and cell pointers at the start, its cells
 * from the content area to the end (the free space between holds nothing to damage).
 */
function usedBytes(page: Buffer): { from: number; to: number }[] {
  const header = page[0] === 0x02 || page[0] === 0x05 ? 12 : 8;
  const cells = page.readUInt16BE(3);
  const content = page.readUInt16BE(5) || 65_536;
  return [
    { from: 0, to: header + 2 * cells },
    { from: content, to: page.length },
  ];
}

/** Flips 1-3 bytes that hold something in one page of the work tables or their indexes, chosen by the seed. */
function flipWorkPage(file: string, random: () => number): string {
  const db = new Database(file, { readonly: true });
  const names = db
    .prepare(`SELECT name FROM sqlite_schema WHERE tbl_name IN (${WORK_TABLES.map(() => '?').join(', ')})`)
    .pluck()
    .all(...WORK_TABLES) as string[];
  const pages = db
    .prepare(`SELECT name, pageno FROM dbstat WHERE name IN (${names.map(() => '?').join(', ')}) ORDER BY name, pageno`)
    .all(...names) as { name: string; pageno: number }[];
  const pageSize = db.pragma('page_size', { simple: true }) as number;
  db.close();
  const page = pages[Math.floor(random() * pages.length)]!;
  const fd = fs.openSync(file, 'r+');
  try {
    const bytes = Buffer.alloc(pageSize);
    fs.readSync(fd, bytes, 0, pageSize, (page.pageno - 1) * pageSize);
    const used = usedBytes(bytes).flatMap(({ from, to }) => Array.from({ length: to - from }, (_, i) => from + i));
    const flips = 1 + Math.floor(random() * 3);
    for (let i = 0; i < flips; i++) {
      const at = used[Math.floor(random() * used.length)]!;
      bytes[at] = bytes[at]! ^ (1 + Math.floor(random() * 255));
    }
    fs.writeSync(fd, bytes, 0, pageSize, (page.pageno - 1) * pageSize);
    return `${flips} byte(s) of page ${page.pageno} (${page.name})`;
  } finally {
    fs.closeSync(fd);
  }
}

/** The values the site holds for a local session's entry, by field. */
async function onSite(entryid: number, token: string): Promise<Map<string, string>> {
  const entry = (await api(site, 'GET', `/work_log/${entryid}`, { token })).body as {
    work_data?: { field_guid: string; value: string }[];
  };
  return new Map((entry.work_data ?? []).map((d) => [d.field_guid, d.value]));
}

describe('flipped bytes in the pages of the work', () => {
  it(
    `lose no acknowledged action or value over ${SEEDS} seeds, on this computer and then on the site`,
    { timeout: 400_000 },
    async () => {
      expect(fs.existsSync(path.join(template.dir, `${DB}-wal`)), 'everything is in the database file').toBe(false);
      const tech = await signIn(site, 'tech1');
      const random = mulberry32(seedStart(2403));
      const losses: string[] = [];
      for (let seed = 1; seed <= SEEDS; seed++) {
        const dir = makeTempDir(`page-damage-${seed}`);
        fs.cpSync(template.dir, dir.dir, { recursive: true });
        const where = flipWorkPage(path.join(dir.dir, DB), random);
        const app = makeServices(dir.dir);
        try {
          const said = unwrap(await app.services.api.getSyncState()).repair;
          const local = await lostOf(app.services.api, acks);
          const lostHere = local.actions.length + local.values.length + local.extra.length;
          if (lostHere > 0) {
            losses.push(
              `seed ${seed}, ${where}: ${local.actions.length} action(s), ${local.values.length} value(s) ` +
                `lost here${said ? '' : ', nothing said'}`,
            );
            continue;
          }
          let flushed = await app.services.api.flushOutbox();
          for (let i = 0; i < 10 && flushed.ok && flushed.value.pending > 0; i++)
            flushed = await app.services.api.flushOutbox();
          if (!flushed.ok) {
            losses.push(`seed ${seed}, ${where}: the replay answered ${flushed.error.message}`);
            continue;
          }
          const summary = flushed.value;
          const notOnSite: string[] = [];
          for (const ack of acks.filter((a) => a.kind === 'stepData')) {
            const session = unwrap(await app.services.api.getSession(ack.sessionId));
            const held =
              session.entryid === null ? undefined : (await onSite(session.entryid, tech.token)).get(ack.fieldGuid!);
            if (held !== ack.value)
              notOnSite.push(`${ack.fieldGuid}=${JSON.stringify(ack.value)} held as ${JSON.stringify(held)}`);
          }
          if (summary.pending + summary.failed > 0 || notOnSite.length > 0) {
            losses.push(
              `seed ${seed}, ${where}: ${summary.pending} waiting, ${summary.failed} failed, ` +
                `${notOnSite.length} value(s) not on the site`,
            );
          }
        } finally {
          await app.services.close();
          dir.remove();
        }
      }
      expect(losses).toEqual([]);
    },
  );

  // Found by the seeds above run with another start (mulberry32(8889), seed 37): a flipped byte made a
  // value's key bytes that are not UTF-8. Read as text, the key no longer finds its row, so the damaged
  // copy stayed beside the row put back, and the session could not be read at all ("a row of work_values
  // ... was changed on the disk"): both of its values lost here.
  it('a value whose key is damaged into bytes that are not UTF-8: put back, the damaged copy removed', async () => {
    const value = acks.find((a) => a.kind === 'stepData')!;
    const dir = makeTempDir('page-damage-utf8');
    try {
      fs.cpSync(template.dir, dir.dir, { recursive: true });
      const file = path.join(dir.dir, DB);
      const db = new Database(file, { readonly: true });
      const pageSize = db.pragma('page_size', { simple: true }) as number;
      const pages = db.prepare("SELECT pageno FROM dbstat WHERE name = 'work_values'").pluck().all() as number[];
      db.close();
      // A record holds its values one after another: the session's id, then the field's.
      const record = Buffer.from(`${value.sessionId}${value.fieldGuid!}`, 'utf8');
      const bytes = fs.readFileSync(file);
      const at = pages
        .map((pageno) => bytes.subarray((pageno - 1) * pageSize, pageno * pageSize).indexOf(record))
        .map((offset, i) => (offset < 0 ? -1 : (pages[i]! - 1) * pageSize + offset))
        .find((offset) => offset >= 0);
      expect(at, 'the value is in a page of work_values').toBeDefined();
      bytes[at! + value.sessionId.length + 3] = 0xff;
      fs.writeFileSync(file, bytes);

      const app = makeServices(dir.dir);
      try {
        expect(await lostOf(app.services.api, acks)).toEqual({ actions: [], values: [], extra: [] });
        const repair = unwrap(await app.services.api.getSyncState()).repair;
        expect(repair?.cause).toContain('1 damaged copy(ies) of rows put back were removed');
        const session = unwrap(await app.services.api.getSession(value.sessionId));
        expect(session.values.filter((v) => v.fieldGuid === value.fieldGuid)).toHaveLength(1);
      } finally {
        await app.services.close();
      }
    } finally {
      dir.remove();
    }
  });
});
