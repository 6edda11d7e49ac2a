import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { startFaultProxy, type FaultProxy } from '../fault/proxy.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { syncedOverProxy } from '../helpers/services.ts';
import { photoGuide } from '../helpers/worklog.ts';

// A photo is kept in the attachments folder until its upload. A byte of it changed on the disk (a failing
// sector, a half-written page after a power cut) was sent as the photo taken, and the session report
// showed it so: nothing checked the bytes against those saved. The file's name now carries the start of
// their SHA-256, and the upload and the report check it (worklog/attachments.ts).
let over: Awaited<ReturnType<typeof syncedOverProxy>>;
let proxy: FaultProxy;

beforeAll(async () => {
  over = await syncedOverProxy();
  proxy = over.proxy;
});
afterAll(async () => {
  await over?.close();
  if (proxy !== over?.proxy) await proxy?.close();
});

describe('a photo changed on the disk before its upload', () => {
  it('is not sent: the upload fails saying so, the report refuses it, the sound photo goes', async () => {
    const { api: app } = over.app.services;
    const photo = await photoGuide(app);
    // Off the network (nothing listens at the site's address): the work waits, known not to have left.
    const port = await offline();
    const damagedPhoto = await attach(photo, 'WO-DAMAGED-PHOTO', 'valve-damaged.png');
    const soundPhoto = await attach(photo, 'WO-SOUND-PHOTO', 'valve-sound.png');
    const [damaged, sound] = [damagedPhoto.attachmentId, soundPhoto.attachmentId];
    damage(damaged);
    // The Finish review asks which files cannot be sent: this one, with its step and field.
    expect(unwrap(await app.checkAttachments(damagedPhoto.sessionId))).toEqual([
      {
        attachmentId: damaged,
        stepid: photo.stepid,
        fieldGuid: photo.fieldGuid,
        problem: "The file was damaged on this computer's disk after it was saved, so it is not sent.",
        refused: false,
      },
    ]);
    expect(unwrap(await app.checkAttachments(soundPhoto.sessionId))).toEqual([]);

    const report = await app.getAttachment(damaged);
    expect(report.ok).toBe(false);
    if (!report.ok) expect(report.error.message).toContain("was damaged on this computer's disk after it was saved");
    expect(unwrap(await app.getAttachment(sound)).name).toBe('valve-sound.png');

    await online(port);
    const failed = unwrap(await app.getOutbox()).actions.filter((a) => a.state === 'failed');
    expect(failed.map((a) => [a.kind, a.error])).toEqual([
      [
        'upload',
        "The attached file valve-damaged.png was damaged on this computer's disk after it was saved (its bytes " +
          'are not the ones saved), so it is not sent. Attach it again if you still have it, or take it again.',
      ],
    ]);
    expect(await mediaNamed(/valve-(damaged|sound)\.png$/)).toEqual([`fg-${sound}-valve-sound.png`]);
  });

  // Its error says to attach it again. Done, the session stayed held: the new photo and the finish waited
  // behind the refused upload until it was discarded, then behind the old photo's step data ("An attached
  // file was never uploaded"): two discards in the sync centre before the finish could reach the site.
  it('attached again, the new photo and the finish go: the damaged one gives way, nothing is left failed', async () => {
    const { api: app } = over.app.services;
    const photo = await photoGuide(app);
    const port = await offline();
    const { sessionId, attachmentId: first } = await attach(photo, 'WO-PHOTO-AGAIN', 'gauge-first.png');
    damage(first);
    await online(port);
    expect((await waiting(sessionId)).map((a) => [a.kind, a.state])).toEqual([
      ['upload', 'failed'],
      ['stepData', 'pending'],
    ]);

    const again = await attachTo(photo, sessionId, 'gauge-again.png');
    unwrap(await app.transitionSession({ sessionId, transition: 'finish' }));
    await online();
    expect(await waiting(sessionId)).toEqual([]);
    const session = unwrap(await app.getSession(sessionId));
    expect(session.values.map((v) => [v.attachment?.name, v.attachment?.uploaded, v.site])).toEqual([
      ['gauge-again.png', true, 'sent'],
    ]);
    const entry = await siteEntry(session.entryid!);
    expect(entry.status).toBe('complete');
    const media = await mediaNamed(/gauge-(first|again)\.png$/);
    expect(media).toEqual([`fg-${again}-gauge-again.png`]);
    expect(entry.work_data.map((d) => d.value)).toEqual([String(await mediaId(`fg-${again}-gauge-again.png`))]);
  });

  // Discarded in the sync centre instead: the value that names the file would be refused next, one
  // discard more; it goes with its upload, and the finish reaches the site.
  it('its upload discarded, the value that names it goes too: the session finishes on the site', async () => {
    const { api: app } = over.app.services;
    const photo = await photoGuide(app);
    const port = await offline();
    const { sessionId, attachmentId } = await attach(photo, 'WO-PHOTO-DISCARDED', 'hose-first.png');
    damage(attachmentId);
    unwrap(await app.transitionSession({ sessionId, transition: 'finish' }));
    await online(port);
    const [failed, ...after] = await waiting(sessionId);
    expect([failed?.kind, failed?.state, after.map((a) => a.kind)]).toEqual([
      'upload',
      'failed',
      ['stepData', 'finish'],
    ]);
    // Finished, the session takes no file: the words say to discard it, not to attach it again.
    expect(failed?.error).toBe(
      "The attached file hose-first.png was damaged on this computer's disk after it was saved (its bytes are " +
        'not the ones saved), so it is not sent. The session has ended, so nothing can be attached to it: ' +
        'discard this to send the rest of it.',
    );

    unwrap(await app.discardAction(failed!.id));
    await online();
    expect(await waiting(sessionId)).toEqual([]);
    const session = unwrap(await app.getSession(sessionId));
    const entry = await siteEntry(session.entryid!);
    expect([entry.status, entry.work_data]).toEqual(['complete', []]);
    expect(await mediaNamed(/hose-first\.png$/)).toEqual([]);
  });
});

/** Off the network: nothing listens at the site's address. Answers the port to listen at again. */
async function offline(): Promise<number> {
  const port = proxy.port;
  await proxy.close();
  return port;
}

/** Back on the network (at `port`, when it was away), and "Send now" until nothing more goes. */
async function online(port?: number): Promise<void> {
  if (port !== undefined) proxy = await startFaultProxy({ target: { port: over.site.port }, port });
  const { api: app } = over.app.services;
  let summary = unwrap(await app.flushOutbox());
  for (let i = 0; i < 20 && summary.pending + summary.inFlight > 0; i++) summary = unwrap(await app.flushOutbox());
}

type PhotoStep = Awaited<ReturnType<typeof photoGuide>>;

/** A session started on the photo guide, a photo attached to its Image field. */
async function attach(photo: PhotoStep, workorderid: string, name: string) {
  const { api: app } = over.app.services;
  const session = unwrap(await app.startSession({ guideid: photo.guide.guideid, workorderid }));
  return { sessionId: session.id, attachmentId: await attachTo(photo, session.id, name) };
}

async function attachTo(photo: PhotoStep, sessionId: string, name: string): Promise<string> {
  const { api: app } = over.app.services;
  const dataBase64 = encodePng(createCanvas(16, 12, [200, 90, name.length * 7])).toString('base64');
  const input = { sessionId, stepid: photo.stepid, fieldGuid: photo.fieldGuid, name, mime: 'image/png' };
  const attached = unwrap(await app.attachFile({ ...input, dataBase64 }));
  return attached.values.find((v) => v.fieldGuid === photo.fieldGuid)!.attachment!.id;
}

/** What the Sync centre lists of a session (the file's tests share one app). */
async function waiting(sessionId: string) {
  return unwrap(await over.app.services.api.getOutbox()).actions.filter((a) => a.sessionId === sessionId);
}

/** A byte of the kept file changed on the disk. */
function damage(attachmentId: string): void {
  const folder = path.join(over.app.dataDir, 'attachments');
  const file = fs.readdirSync(folder).find((name) => name.startsWith(attachmentId))!;
  const bytes = fs.readFileSync(path.join(folder, file));
  bytes[Math.floor(bytes.length / 2)]! ^= 0x20;
  fs.writeFileSync(path.join(folder, file), bytes);
}

async function siteMedia(): Promise<{ id: number; name: string }[]> {
  const tech = await signIn(over.site, 'tech1');
  return (await api(over.site, 'GET', '/user/media/current?limit=200', { token: tech.token })).body as {
    id: number;
    name: string;
  }[];
}

/** The names of tech1's media on the site that match. */
async function mediaNamed(pattern: RegExp): Promise<string[]> {
  return (await siteMedia()).map((m) => m.name).filter((name) => pattern.test(name));
}

async function mediaId(name: string): Promise<number> {
  return (await siteMedia()).find((m) => m.name === name)!.id;
}

async function siteEntry(entryid: number): Promise<{ status: string; work_data: { value: string }[] }> {
  const tech = await signIn(over.site, 'tech1');
  return (await api(over.site, 'GET', `/work_log/${entryid}`, { token: tech.token })).body as {
    status: string;
    work_data: { value: string }[];
  };
}
