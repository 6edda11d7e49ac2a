import { afterAll, describe, expect, it } from 'vitest';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_APP_ID, type Dialect } from '../../server/http/dialects.ts';
import { createCanvas, encodePng } from '../../server/media/png.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';
import { stepWithField } from '../helpers/worklog.ts';
import { api, signIn } from '../server/helpers.ts';

// Issue 25: a work session in both dialects. On a guide with prerequisites the session goes through
// their steps first, and a prerequisite step's form is saved to the site like the guide's own. A photo
// goes where the site takes uploads: the reference's `/user/media/uploads` (answering `{id}`) or
// iFixit's `/user/media/images` (answering `{image}`), learned per site like a module.

// A photo iFixit's media manager takes (at least 50x50 pixels), and one it refuses for its size.
const PHOTO = encodePng(createCanvas(64, 64, [90, 120, 160])).toString('base64');
const TINY = encodePng(createCanvas(40, 30, [90, 120, 160]));
const PNG_1X1 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR4nGP4z8DwHwAFAAH/iZk9HQAAAABJRU5ErkJggg==';
const HOSE = DEMO_GUIDES.findIndex((guide) => guide.key === 'forklift-hose') + 1;
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

for (const dialect of ['dozuki', 'ifixit'] as Dialect[]) {
  describe(`a work session, ${dialect} dialect`, () => {
    let site: RunningSite;
    let app: ReturnType<typeof makeServices>;

    it("saves a prerequisite step's form under the session of the guide that needs it", async () => {
      site = await startDemoSite({ dialect });
      closing.push(() => site.close());
      app = makeServices();
      closing.push(() => app.dispose());
      const { email, password } = DEMO_ACCOUNTS.tech1;
      const sdk = app.services.api;
      unwrap(await sdk.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
      expect(unwrap(await sdk.syncNow()).status).toBe('complete');

      const guide = unwrap(await sdk.getGuide(HOSE));
      const step = guide.steps.find((s) => s.guideid !== HOSE && s.form?.fields.some((f) => f.type === 'Checkbox'))!;
      const field = step.form!.fields.find((f) => f.type === 'Checkbox')!;
      const session = unwrap(
        await sdk.startSession({ guideid: HOSE, workorderid: `WO-${dialect}-P`, stepid: step.stepid }),
      );
      unwrap(
        await sdk.saveStepData({
          sessionId: session.id,
          stepid: step.stepid,
          values: [{ fieldGuid: field.fieldGuid, value: '1' }],
        }),
      );
      unwrap(await sdk.transitionSession({ sessionId: session.id, transition: 'finish' }));
      expect(unwrap(await sdk.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });

      const entryid = unwrap(await sdk.getSession(session.id)).entryid!;
      const { token } = await signIn(site, 'tech1');
      const entry = (await api(site, 'GET', `/work_log/${entryid}`, { token })).body;
      expect(entry.status).toBe('complete');
      expect(entry.work_data).toEqual([
        expect.objectContaining({ field_revisionid: field.fieldRevisionid, stepid: step.stepid, value: '1' }),
      ]);
    });

    it('uploads a photo where the site takes uploads, and the step value names it', async () => {
      const sdk = app.services.api;
      const image = await stepWithField(sdk, 'Image');
      const guide = { guideid: image.guideid };
      const session = unwrap(await sdk.startSession({ guideid: guide.guideid, workorderid: `WO-${dialect}-PHOTO` }));
      const attach = { sessionId: session.id, stepid: image.stepid, fieldGuid: image.field.fieldGuid };
      // A walk: a photo named in the technician's language lost its letters ("valve é.png" became "valve _.png")
      // in the summary, the report and the site's media. Its name is kept as it is on the technician's disk.
      const name = 'Ventil geprüft 温度 (2).png';
      unwrap(await sdk.attachFile({ ...attach, name, mime: 'image/png', dataBase64: PHOTO }));
      const attached = unwrap(await sdk.getSession(session.id)).values.find((v) => v.attachment)?.attachment;
      expect(attached?.name).toBe(name);
      expect(unwrap(await sdk.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });

      const entryid = unwrap(await sdk.getSession(session.id)).entryid!;
      const { token } = await signIn(site, 'tech1');
      const value = (await api(site, 'GET', `/work_log/${entryid}`, { token })).body.work_data.find(
        (datum: { field_revisionid: number }) => datum.field_revisionid === image.field.fieldRevisionid,
      ).value as string;
      if (dialect === 'ifixit') {
        const images = (await api(site, 'GET', '/user/media/images', { token })).body as { image: { id: number } }[];
        expect(images.map((item) => String(item.image.id))).toContain(value);
      } else {
        const items = (await api(site, 'GET', '/user/media/current', { token })).body as { id: number; name: string }[];
        expect(items.find((item) => String(item.id) === value)?.name).toBe(`fg-${attached!.id}-${name}`);
      }
    });

    it('takes a picture only in a photo field: a document there is refused as attached, not queued', async () => {
      // A walk: a PDF in a Photo field went up as the site's document, and the site refused the step's save.
      const sdk = app.services.api;
      const image = await stepWithField(sdk, 'Image');
      const session = unwrap(await sdk.startSession({ guideid: image.guideid, workorderid: `WO-${dialect}-PDF` }));
      const attach = { sessionId: session.id, stepid: image.stepid, fieldGuid: image.field.fieldGuid };
      const pdf = await sdk.attachFile({ ...attach, name: 'valve.pdf', mime: 'application/pdf', dataBase64: PNG_1X1 });
      // (A site taking pictures only says so first: it would take the file in no field.)
      const message =
        dialect === 'ifixit'
          ? 'This site takes pictures only: it does not take videos or documents, so valve.pdf cannot be sent to it.'
          : 'valve.pdf is not a picture: this field takes a photo (JPEG, PNG, GIF or WebP).';
      expect(pdf).toEqual({ ok: false, error: expect.objectContaining({ message }) });
      expect(unwrap(await sdk.getSession(session.id)).values.filter((v) => v.attachment)).toEqual([]);
      unwrap(await sdk.transitionSession({ sessionId: session.id, transition: 'cancel' }));
      expect(unwrap(await sdk.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
    });

    it('takes a video only in a video field: a photo there is refused as attached, not queued', async () => {
      // A walk: a photo chosen in the forklift check's Video field was kept, and the site refused the step's save,
      // the finish and what followed waiting behind it.
      const sdk = app.services.api;
      const video = await stepWithField(sdk, 'Video');
      const session = unwrap(
        await sdk.startSession({ guideid: video.guideid, workorderid: `WO-${dialect}-NOT-VIDEO` }),
      );
      const attach = { sessionId: session.id, stepid: video.stepid, fieldGuid: video.field.fieldGuid };
      const photo = await sdk.attachFile({ ...attach, name: 'horn.png', mime: 'image/png', dataBase64: PNG_1X1 });
      const message =
        dialect === 'ifixit'
          ? 'This site takes pictures only: it does not take videos or documents, so this field cannot be filled in ' +
            'from here.'
          : 'horn.png is not a video: this field takes a video (MP4, MOV or WebM).';
      expect(photo).toEqual({ ok: false, error: expect.objectContaining({ message }) });
      expect(unwrap(await sdk.getSession(session.id)).values.filter((v) => v.attachment)).toEqual([]);
      unwrap(await sdk.transitionSession({ sessionId: session.id, transition: 'cancel' }));
      expect(unwrap(await sdk.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
    });

    it('takes no file in a Video field of a site taking pictures only: refused as attached, not queued', async () => {
      // A walk on an iFixit-dialect site: "Attach a video" took one, kept it "uploads when online", and the site's
      // refusal then held the rest of the session, its finish included, behind that upload. Its Video field
      // wants a video's media item, which such a site does not make: a photo there is refused too.
      const sdk = app.services.api;
      const video = await stepWithField(sdk, 'Video');
      const session = unwrap(await sdk.startSession({ guideid: video.guideid, workorderid: `WO-${dialect}-VIDEO` }));
      const attach = { sessionId: session.id, stepid: video.stepid, fieldGuid: video.field.fieldGuid };
      const picturesOnly = dialect === 'ifixit';
      expect(unwrap(await sdk.getStatus()).capabilities?.picturesOnly ?? false).toBe(picturesOnly);
      const clip = await sdk.attachFile({ ...attach, name: 'horn.mp4', mime: 'video/mp4', dataBase64: PNG_1X1 });
      if (picturesOnly) {
        const refused = (message: string) => ({ ok: false, error: expect.objectContaining({ message }) });
        expect(clip).toEqual(
          refused(
            'This site takes pictures only: it does not take videos or documents, so horn.mp4 cannot be sent to it.',
          ),
        );
        expect(await sdk.attachFile({ ...attach, name: 'horn.png', mime: 'image/png', dataBase64: PNG_1X1 })).toEqual(
          refused(
            'This site takes pictures only: it does not take videos or documents, so this field cannot be filled in ' +
              'from here.',
          ),
        );
        // Nothing kept for the field and nothing queued to upload (the start may have gone meanwhile).
        const values = unwrap(await sdk.getSession(session.id)).values;
        expect(values.filter((v) => v.fieldGuid === video.field.fieldGuid)).toEqual([]);
        expect(unwrap(await sdk.getOutbox()).actions.filter((a) => a.kind === 'upload')).toEqual([]);
      } else unwrap(clip);
      unwrap(await sdk.transitionSession({ sessionId: session.id, transition: 'finish' }));
      expect(unwrap(await sdk.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
      expect(unwrap(await sdk.getSession(session.id)).status).toBe('complete');
    });

    // iFixit's media manager takes a picture of at most 80 MB and at least 50x50 pixels. One past them was kept and
    // queued, and the site refused its upload at replay hours later, "1 action failed" and the session behind it.
    const refusedPictures = [
      {
        what: 'smaller than 50x50 pixels',
        name: 'gauge.png',
        bytes: TINY,
        site: 422,
        said: 'gauge.png is 40 x 30 pixels: this site takes photos of at least 50 x 50 pixels',
      },
      {
        what: 'larger than 80 MB',
        name: 'panel.png',
        // A PNG's header and 84 MB behind it: past 80 MB however the site counts a megabyte.
        bytes: Buffer.concat([TINY.subarray(0, 33), Buffer.alloc(84_000_000 - 33)]),
        site: 413,
        said: 'panel.png is 84 MB: this site takes photos of at most 80 MB',
      },
    ];
    for (const { what, name, bytes, site: refusal, said } of refusedPictures)
      it.runIf(dialect === 'ifixit')(`refuses a photo ${what} as it is attached, and queues nothing`, async () => {
        const { token } = await signIn(site, 'tech1');
        const upload = { token, query: { file: name }, body: bytes, headers: { 'Content-Type': 'image/png' } };
        expect((await api(site, 'POST', '/user/media/images', upload)).status).toBe(refusal);
        const sdk = app.services.api;
        const image = await stepWithField(sdk, 'Image');
        const session = unwrap(
          await sdk.startSession({ guideid: image.guideid, workorderid: `WO-${dialect}-${name}` }),
        );
        const attach = { sessionId: session.id, stepid: image.stepid, fieldGuid: image.field.fieldGuid };
        const before = unwrap(await sdk.getOutbox()).actions.filter((a) => a.kind === 'upload').length;
        const photo = await sdk.attachFile({
          ...attach,
          name,
          mime: 'image/png',
          dataBase64: bytes.toString('base64'),
        });
        expect(photo).toEqual({
          ok: false,
          error: expect.objectContaining({ code: 'invalid_input', message: expect.stringContaining(said) }),
        });
        expect(unwrap(await sdk.getSession(session.id)).values.filter((v) => v.attachment)).toEqual([]);
        expect(unwrap(await sdk.getOutbox()).actions.filter((a) => a.kind === 'upload')).toHaveLength(before);
        unwrap(await sdk.transitionSession({ sessionId: session.id, transition: 'cancel' }));
        expect(unwrap(await sdk.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
      });
  });
}
