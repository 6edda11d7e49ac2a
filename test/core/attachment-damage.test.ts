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
    const port = proxy.port;
    await proxy.close();
    const attach = async (workorderid: string, name: string) => {
      const session = unwrap(await app.startSession({ guideid: photo.guide.guideid, workorderid }));
      const dataBase64 = encodePng(createCanvas(16, 12, [200, 90, 40])).toString('base64');
      const input = {
        sessionId: session.id,
        stepid: photo.stepid,
        fieldGuid: photo.fieldGuid,
        name,
        mime: 'image/png',
      };
      const attached = unwrap(await app.attachFile({ ...input, dataBase64 }));
      return attached.values.find((v) => v.fieldGuid === photo.fieldGuid)!.attachment!.id;
    };
    const damaged = await attach('WO-DAMAGED-PHOTO', 'valve-damaged.png');
    const sound = await attach('WO-SOUND-PHOTO', 'valve-sound.png');

    const folder = path.join(over.app.dataDir, 'attachments');
    const file = fs.readdirSync(folder).find((name) => name.startsWith(damaged))!;
    const bytes = fs.readFileSync(path.join(folder, file));
    bytes[Math.floor(bytes.length / 2)]! ^= 0x20;
    fs.writeFileSync(path.join(folder, file), bytes);

    const report = await app.getAttachment(damaged);
    expect(report.ok).toBe(false);
    if (!report.ok) expect(report.error.message).toContain("was damaged on this computer's disk after it was saved");
    expect(unwrap(await app.getAttachment(sound)).name).toBe('valve-sound.png');

    proxy = await startFaultProxy({ target: { port: over.site.port }, port });
    let summary = unwrap(await app.flushOutbox());
    for (let i = 0; i < 20 && summary.pending + summary.inFlight > 0; i++) summary = unwrap(await app.flushOutbox());
    const failed = unwrap(await app.getOutbox()).actions.filter((a) => a.state === 'failed');
    expect(failed.map((a) => [a.kind, a.error])).toEqual([
      [
        'upload',
        "The attached file valve-damaged.png was damaged on this computer's disk after it was saved (its bytes " +
          'are not the ones saved), so it is not sent. Attach it again if you still have it, or take it again.',
      ],
    ]);
    const tech = await signIn(over.site, 'tech1');
    const media = (await api(over.site, 'GET', '/user/media/current?limit=200', { token: tech.token })).body as {
      name: string;
    }[];
    expect(media.map((m) => m.name).filter((name) => /valve-(damaged|sound)\.png$/.test(name))).toEqual([
      `fg-${sound}-valve-sound.png`,
    ]);
  });
});
