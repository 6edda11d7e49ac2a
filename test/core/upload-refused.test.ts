import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { MAX_UPLOAD } from '../../server/routes/user-media.ts';
import { api, signIn } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { syncedOverProxy } from '../helpers/services.ts';
import { photoGuide } from '../helpers/worklog.ts';
import { refusedFileProblem } from '../../electron/core/worklog/attachments.ts';
import { PICTURES_ONLY } from '../../electron/shared/field-values.ts';

// A file larger than the site takes (the reference site: 25 MiB, as a real site has a limit of its own;
// Fieldguide keeps up to 200 MB). Its upload is refused for good (413), and the step went on saying the
// file "uploads when online", the Finish review listed nothing, and the Sync centre gave the site's words
// alone. Now the step, the review and the Sync centre say the site did not take it, why, and what to do;
// attaching another in its place frees the session.
let over: Awaited<ReturnType<typeof syncedOverProxy>>;

beforeAll(async () => {
  over = await syncedOverProxy();
});
afterAll(async () => {
  await over?.close();
});

const TOO_LARGE = 'The file is larger than 25 MiB';

describe('a file the site will not take', () => {
  it('is said not sent, with the site’s words and what to do; another in its place goes', async () => {
    const { api: app } = over.app.services;
    const photo = await photoGuide(app);
    const session = unwrap(await app.startSession({ guideid: photo.guide.guideid, workorderid: 'WO-TOO-LARGE' }));
    const sessionId = session.id;
    // Over the site's limit: a photo straight off a camera's RAW mode, say.
    const big = Buffer.alloc(MAX_UPLOAD + 1024 * 1024, 0x5a);
    const first = await attachTo(photo, sessionId, 'valve-raw.png', big);
    await sendAll();

    const notSent =
      `The site did not take the file valve-raw.png: ${TOO_LARGE}. Attach another in its place, or discard its ` +
      'upload in the sync centre to send the rest of the session.';
    expect((await waiting(sessionId)).map((a) => [a.kind, a.state, a.error])).toEqual([
      ['upload', 'failed', notSent],
      ['stepData', 'pending', null],
    ]);
    // The step says so (not "uploads when online"), and the value counts as not on the site.
    const value = unwrap(await app.getSession(sessionId)).values.find((v) => v.fieldGuid === photo.fieldGuid)!;
    expect([value.site, value.attachment]).toEqual([
      'refused',
      { id: first, name: 'valve-raw.png', mime: 'image/png', uploaded: false, notSent },
    ]);
    // The Finish review lists it among the files that will not be sent.
    expect(unwrap(await app.checkAttachments(sessionId))).toEqual([
      { attachmentId: first, stepid: photo.stepid, fieldGuid: photo.fieldGuid, problem: notSent, refused: true },
    ]);

    // Another in its place, as it says: the refused upload gives way, the new one and the finish go.
    const second = await attachTo(photo, sessionId, 'valve.png', encodePng(createCanvas(64, 48, [30, 90, 160])));
    unwrap(await app.transitionSession({ sessionId, transition: 'finish' }));
    await sendAll();
    expect(await waiting(sessionId)).toEqual([]);
    const done = unwrap(await app.getSession(sessionId));
    expect(done.values.map((v) => [v.attachment?.name, v.attachment?.uploaded, v.attachment?.notSent, v.site])).toEqual(
      [['valve.png', true, null, 'sent']],
    );
    expect(unwrap(await app.checkAttachments(sessionId))).toEqual([]);
    const tech = await signIn(over.site, 'tech1');
    const entry = (await api(over.site, 'GET', `/work_log/${done.entryid}`, { token: tech.token })).body as {
      status: string;
      work_data: { value: string }[];
    };
    const media = (await api(over.site, 'GET', '/user/media/current?limit=200', { token: tech.token })).body as {
      id: number;
      name: string;
    }[];
    const sent = media.find((m) => m.name === `fg-${second}-valve.png`)!;
    expect([entry.status, entry.work_data.map((d) => d.value)]).toEqual(['complete', [String(sent.id)]]);
    expect(media.filter((m) => m.name.endsWith('valve-raw.png'))).toEqual([]);
  });

  it('of a session already finished: its words say to discard it, as nothing can be attached any more', async () => {
    const { api: app } = over.app.services;
    const photo = await photoGuide(app);
    const session = unwrap(await app.startSession({ guideid: photo.guide.guideid, workorderid: 'WO-TOO-LATE' }));
    await attachTo(photo, session.id, 'hose-raw.png', Buffer.alloc(MAX_UPLOAD + 1, 0x33));
    unwrap(await app.transitionSession({ sessionId: session.id, transition: 'finish' }));
    await sendAll();
    const [refused, ...after] = await waiting(session.id);
    expect([refused?.kind, refused?.state, after.map((a) => [a.kind, a.state])]).toEqual([
      'upload',
      'failed',
      [
        ['stepData', 'pending'],
        ['finish', 'pending'],
      ],
    ]);
    expect(refused?.error).toBe(
      `The site did not take the file hose-raw.png: ${TOO_LARGE}. The session has ended, so nothing can be ` +
        'attached to it: discard its upload in the sync centre to send the rest of it.',
    );
    // Discarded: its value goes with it, and the finish reaches the site.
    const held = unwrap(await app.getSession(session.id)).values.find((v) => v.attachment);
    expect([held?.site, held?.dropped]).toEqual(['refused', false]);
    unwrap(await app.discardAction(refused!.id));
    await sendAll();
    expect(await waiting(session.id)).toEqual([]);
    // Said as waiting nowhere (the Finish review said "Everything saved so far has reached the site" over it).
    const dropped = unwrap(await app.getSession(session.id)).values.find((v) => v.attachment);
    expect([dropped?.site, dropped?.dropped]).toEqual(['refused', true]);
  });
});

describe('what cannot be a file', () => {
  it('is refused when attached, in words, and nothing is kept', async () => {
    const { api: app } = over.app.services;
    const photo = await photoGuide(app);
    const session = unwrap(await app.startSession({ guideid: photo.guide.guideid, workorderid: 'WO-NOT-A-FILE' }));
    const input = { sessionId: session.id, stepid: photo.stepid, fieldGuid: photo.fieldGuid, name: 'x.png' };
    const folder = path.join(over.app.dataDir, 'attachments');
    const before = fs.readdirSync(folder);
    const refused = async (dataBase64: string) => {
      const attached = await app.attachFile({ ...input, mime: 'image/png', dataBase64 });
      return attached.ok ? null : [attached.error.code, attached.error.message];
    };
    expect(await refused('a photo, not base64')).toEqual([
      'invalid_input',
      'The file could not be read: it is not base64.',
    ]);
    expect(await refused('==')).toEqual(['invalid_input', 'The file is empty.']);
    expect(fs.readdirSync(folder)).toEqual(before);
    expect(unwrap(await app.getSession(session.id)).values).toEqual([]);
  });
});

type PhotoStep = Awaited<ReturnType<typeof photoGuide>>;

async function attachTo(photo: PhotoStep, sessionId: string, name: string, bytes: Buffer): Promise<string> {
  const { api: app } = over.app.services;
  const input = { sessionId, stepid: photo.stepid, fieldGuid: photo.fieldGuid, name, mime: 'image/png' };
  const attached = unwrap(await app.attachFile({ ...input, dataBase64: bytes.toString('base64') }));
  return attached.values.find((v) => v.fieldGuid === photo.fieldGuid)!.attachment!.id;
}

/** "Send now" until nothing more goes. */
async function sendAll(): Promise<void> {
  const { api: app } = over.app.services;
  let summary = unwrap(await app.flushOutbox());
  for (let i = 0; i < 20 && summary.pending + summary.inFlight > 0; i++) summary = unwrap(await app.flushOutbox());
}

/** What the Sync centre lists of a session. */
async function waiting(sessionId: string) {
  return unwrap(await over.app.services.api.getOutbox()).actions.filter((a) => a.sessionId === sessionId);
}

describe("a site's refusal of a kind of file", () => {
  it('on a site that takes pictures only, does not advise another file in its place', () => {
    // A walk on an iFixit-dialect site: "...: fg-120f32d4-…-horn.mp4 could not be uploaded. Attach another in its
    // place…", the upload's own name shown, and a video field that takes no file there.
    expect(refusedFileProblem('horn.mp4', PICTURES_ONLY, true)).toBe(
      'The site did not take the file horn.mp4: This site takes pictures only: it does not take videos or ' +
        'documents. Discard its upload in the sync centre to send the rest.',
    );
  });

  it("names the file as attached, never by the upload's own name the site's words use", () => {
    // A walk: "The site did not take the file notes.jpg: fg-44bb1308-…-notes.jpg: not a readable PNG, JPEG or GIF…".
    const upload = 'fg-44bb1308-a628-449f-8e60-3e9f7b36516e-notes.jpg';
    expect(refusedFileProblem('notes.jpg', `${upload}: not a readable PNG, JPEG or GIF image`, true)).toBe(
      'The site did not take the file notes.jpg: not a readable PNG, JPEG or GIF image. Attach another in its ' +
        'place, or discard its upload in the sync centre to send the rest of the session.',
    );
  });
});
