import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, signIn, startTestSite } from '../server/helpers.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices, signInAndSync } from '../helpers/services.ts';

// Issue 28: Finish carries the technician's sign-off, recorded with the finish, and sent as a step-data
// value where the guide's form has a sign-off field (the demo forklift's "Signed off by"), against the
// real reference site over HTTP.
let site: RunningSite;
let app: ReturnType<typeof makeServices>;
const FORKLIFT = 10;
const COMPRESSOR = 3;
const HOSE = DEMO_GUIDES.findIndex((guide) => guide.key === 'forklift-hose') + 1;
const name = DEMO_ACCOUNTS.tech1.username;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  app = makeServices();
  await signInAndSync(app.services, site.url);
});
afterAll(async () => {
  await app?.dispose();
  await site?.close();
});

const start = async (guideid: number, workorderid: string) =>
  unwrap(await app.services.api.startSession({ guideid, workorderid }));

describe('the sign-off at Finish', () => {
  it('wants the name the technician signed in with, and goes with Finish only', async () => {
    const session = await start(FORKLIFT, 'WO-SIGN-WRONG');
    const wrong = await app.services.api.transitionSession({
      sessionId: session.id,
      transition: 'finish',
      signOff: { how: 'typed', typed: 'somebody else' },
    });
    expect(wrong).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    if (!wrong.ok) expect(wrong.error.message).toContain(name);
    const onPause = await app.services.api.transitionSession({
      sessionId: session.id,
      transition: 'pause',
      signOff: { how: 'typed', typed: name },
    });
    expect(onPause).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    expect(unwrap(await app.services.api.getSession(session.id))).toMatchObject({ status: 'started', signOff: null });
  });

  it("is sent into the form's sign-off field before the finish, and kept in the session", async () => {
    const session = await start(FORKLIFT, 'WO-SIGN-SENT');
    const done = unwrap(
      await app.services.api.transitionSession({
        sessionId: session.id,
        transition: 'finish',
        signOff: { how: 'typed', typed: `  ${name.toUpperCase()} ` },
      }),
    );
    expect(done.status).toBe('complete');
    expect(done.signOff).toMatchObject({ name, how: 'typed', sentAs: 'step-data', field: 'Signed off by' });
    expect(done.values.map((v) => v.site)).toEqual(['waiting']);
    expect(unwrap(await app.services.api.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });

    const after = unwrap(await app.services.api.getSession(session.id));
    expect(after.values.map((v) => v.site)).toEqual(['sent']);
    const tech = await signIn(site, 'tech1');
    const entry = (await api(site, 'GET', `/work_log/${after.entryid}`, { token: tech.token })).body as {
      status: string;
      work_data: { label: string; value: string }[];
    };
    expect(entry.status).toBe('complete');
    const signed = entry.work_data.find((d) => d.label === 'Signed off by')?.value;
    expect(signed).toMatch(new RegExp(`^Signed off by ${name} \\(confirmed by typing their name\\) at \\d{4}-`));
  });

  it('is kept on this laptop, drawn, where the form has no field for it', async () => {
    const session = await start(COMPRESSOR, 'WO-SIGN-KEPT');
    const png = Buffer.from('89504e470d0a1a0a', 'hex').toString('base64');
    const done = unwrap(
      await app.services.api.transitionSession({
        sessionId: session.id,
        transition: 'finish',
        signOff: { how: 'drawn', drawingPng: png },
      }),
    );
    expect(done.signOff).toMatchObject({ name, how: 'drawn', drawingPng: png, sentAs: 'kept-here', field: null });
    expect(done.values).toEqual([]);
  });

  it("is not sent into a prerequisite's sign-off field: the hose job does not sign off its inspection", async () => {
    // The hose guide has no sign-off field of its own; its prerequisite (the inspection) has "Signed off by".
    const session = await start(HOSE, 'WO-SIGN-PREREQ');
    const done = unwrap(
      await app.services.api.transitionSession({
        sessionId: session.id,
        transition: 'finish',
        signOff: { how: 'typed', typed: name },
      }),
    );
    expect(done.signOff).toMatchObject({ name, sentAs: 'kept-here', field: null });
    expect(done.values).toEqual([]);
    expect(unwrap(await app.services.api.flushOutbox())).toMatchObject({ pending: 0, failed: 0, conflicts: 0 });
    const after = unwrap(await app.services.api.getSession(session.id));
    const tech = await signIn(site, 'tech1');
    const entry = (await api(site, 'GET', `/work_log/${after.entryid}`, { token: tech.token })).body as {
      status: string;
      work_data: unknown[];
    };
    expect(entry.status).toBe('complete');
    expect(entry.work_data).toEqual([]);
  });
});
