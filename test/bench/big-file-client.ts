// A big file in a work session, in a process of its own (issue 29: what the technician waits for): a video
// of BENCH_FILE_MB (the largest Fieldguide keeps is 200 MB) attached to the forklift guide's video field,
// its step's file checked as the Finish review does, then a video the site takes (the reference site takes
// 25 MiB) uploaded by the outbox. Each: how long it took, and the longest the main thread was held at a time
// meanwhile (what every screen's answer waits behind). Prints JSON.
import { performance } from 'node:perf_hooks';
import { benchServices } from './bench-services.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { MAX_UPLOAD } from '../../server/routes/user-media.ts';
import { makeTempDir } from '../helpers/tmp.ts';

const [siteUrl, mbArg] = process.argv.slice(2);
if (!siteUrl) throw new Error('usage: big-file-client.ts <siteUrl> [MB]');
const bytes = Math.round(Number(mbArg ?? 200) * 1024 * 1024);
const tmp = makeTempDir('bench-big-file');
const services = benchServices(tmp.dir);
const { api } = services;
const must = <T>(r: { ok: true; value: T } | { ok: false; error: { message: string } }): T => {
  if (!r.ok) throw new Error(r.error.message);
  return r.value;
};
const { email, password } = DEMO_ACCOUNTS.tech1;
must(await api.signIn({ siteUrl, email, password }));
must(await api.syncNow());
const FORKLIFT = 10;
const guide = must(await api.getGuide(FORKLIFT));
const step = guide.steps.find((s) => s.form?.fields.some((f) => f.type === 'Video'))!;
const field = step.form!.fields.find((f) => f.type === 'Video')!;

/** Runs `act`, answering its time and the longest gap between turns of the event loop meanwhile. */
async function timed(act: () => Promise<unknown>): Promise<{ ms: number; heldMs: number }> {
  let [last, held] = [performance.now(), 0];
  const beat = setInterval(() => {
    const now = performance.now();
    held = Math.max(held, now - last);
    last = now;
  }, 2);
  const t0 = performance.now();
  await act();
  const ms = performance.now() - t0;
  clearInterval(beat);
  return { ms, heldMs: Math.max(held, performance.now() - last) };
}

async function attachVideo(workorderid: string, size: number): Promise<string> {
  const session = must(await api.startSession({ guideid: FORKLIFT, workorderid }));
  const video = Buffer.alloc(size);
  for (let i = 0; i < video.length; i += 4096) video[i] = i & 0xff;
  const input = { sessionId: session.id, stepid: step.stepid, fieldGuid: field.fieldGuid, name: 'horn.mp4' };
  const dataBase64 = video.toString('base64');
  attached.push(await timed(() => api.attachFile({ ...input, mime: 'video/mp4', dataBase64 }).then(must)));
  return session.id;
}
const attached: { ms: number; heldMs: number }[] = [];

// Larger than the site takes: the outbox's upload of it is refused (413) while it is checked, as it would be.
const big = await attachVideo('BENCH-BIG-FILE', bytes);
const review = await timed(async () => must(await api.checkAttachments(big)));
// The outbox's try of the big one over (refused): the upload below is timed alone.
for (let i = 0; i < 100 && must(await api.getOutbox()).summary.failed === 0; i++) {
  must(await api.flushOutbox());
  await new Promise((resolve) => setTimeout(resolve, 50));
}
// Its upload refused at once (413), the one the site takes is sent.
const takenSize = Math.min(bytes, MAX_UPLOAD - 64 * 1024);
const taken = await attachVideo('BENCH-TAKEN-FILE', takenSize);
const upload = await timed(async () => {
  for (let i = 0; i < 50; i++) {
    must(await api.flushOutbox());
    const left = must(await api.getSession(taken)).values.find((v) => v.attachment);
    if (left?.attachment?.uploaded) return;
  }
  throw new Error('the video was not uploaded');
});
console.log(
  JSON.stringify({
    mb: bytes / 1024 / 1024,
    attach: attached[0],
    review,
    uploadMb: takenSize / 1024 / 1024,
    attachTaken: attached[1],
    upload,
  }),
);
await services.close();
tmp.remove();
