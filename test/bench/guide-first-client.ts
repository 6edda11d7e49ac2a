// One client in a process of its own (issue 29): signs in, starts a first sync of everything, and once the
// sync is storing guides asks for one guide it has not reached (keepGuideOffline, what opening it or "Keep
// offline" does). Prints as JSON how long until that guide is stored whole with its pictures, and the
// guide's own bytes (its answers and media, asked again afterwards on loopback, outside the timing).
import '../../electron/core/threadpool.ts';
import { benchServices } from './bench-services.ts';
import { performance } from 'node:perf_hooks';
import { Agent, request } from 'undici';
import type { GuideStep, ImageVariants } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { makeTempDir } from '../helpers/tmp.ts';

const [linkUrl, siteUrl, guideidText, afterText] = process.argv.slice(2);
if (!linkUrl || !siteUrl || !guideidText)
  throw new Error('usage: guide-first-client.ts <linkUrl> <siteUrl> <guideid> [ms into the storing]');
const guideid = Number(guideidText);
// 0: asked as the first guide is stored (the sync's lanes still small); more: that long after, with the
// sync in full flow (its lanes grown, its answers queued on the link ahead of the technician's).
const afterMs = Number(afterText ?? 0);
const tmp = makeTempDir('bench-guide-first');
const services = benchServices(tmp.dir);
const storing = new Promise<void>((resolve) =>
  services.events.subscribe((event) => {
    if (event.name === 'syncProgress' && event.payload.phase === 'guides' && event.payload.done > 0) resolve();
  }),
);
try {
  const { api } = services;
  const signedIn = await api.signIn({
    siteUrl: linkUrl,
    email: DEMO_ACCOUNTS.tech1.email,
    password: DEMO_ACCOUNTS.tech1.password,
  });
  if (!signedIn.ok) throw new Error(signedIn.error.message);
  const sync = api.syncNow();
  await storing;
  if (afterMs > 0) await sleep(afterMs);
  // Whether its text is stored, read locally: getGuide would read a guide not stored from the site, and
  // that read would share the link with the keep it measures (and count a guide read there as kept).
  const textStored = async () => {
    const summary = await api.getGuideSummary(guideid);
    return summary.ok && summary.value.offline === 'full';
  };
  const textBefore = await textStored();
  if (textBefore && (afterMs === 0 || (await mediaStored())))
    throw new Error(`guide ${guideid} was stored before it was asked for: nothing to measure`);
  const start = performance.now();
  // Its text stored already (the sync in full flow reaches the text of every guide first): readable at once.
  let readableMs: number | null = textBefore ? 0 : null;
  const keeping = api.keepGuideOffline(guideid);
  // Looked at every 5 ms (a local read, well under a millisecond) until the text is stored.
  while (readableMs === null) {
    const settled = await Promise.race([keeping.then(() => true), sleep(5).then(() => false)]);
    if (await textStored()) readableMs = performance.now() - start;
    else if (settled) break;
  }
  const kept = await keeping;
  const ms = performance.now() - start;
  if (!kept.ok || !kept.value.stored) throw new Error(`keepGuideOffline: ${JSON.stringify(kept)}`);
  // The rest of the sync is not measured here (links.ts measures it).
  await api.cancelSync();
  await sync;
  // The guide's own bytes: its answers and every media file it keeps, asked again on loopback.
  const bytes = await guideBytes();
  const textBytes = await answersBytes();
  const floor = await bareFloor();
  console.log(JSON.stringify({ ms, readableMs, bytes, textBytes, mediaPending: kept.value.mediaPending, floor }));
} finally {
  await services.close();
  tmp.remove();
}

/** Whether every picture of the guide is stored (read locally). */
async function mediaStored(): Promise<boolean> {
  const detail = await services.api.getGuide(guideid);
  if (!detail.ok) return false;
  const urls = [detail.value.image, ...detail.value.steps.flatMap(mediaImages)].map((image) => image?.standard);
  return urls.every((url) => !url || services.resolveMedia(url) !== null);
}

/**
 * The guide's own bytes over the link, measured: a bare client (undici, no parsing, no storing) asks the
 * same answers and the same pictures the keep stored, over the same link, idle now (the sync cancelled),
 * on connections it opened before (as the front lane's are): its text (the guide and its forms at once),
 * then its pictures all at once, the least any client can do (their addresses are in the guide's answer).
 */
async function bareFloor(): Promise<{ ms: number; textMs: number }> {
  const token = await signInToken();
  const headers = { Authorization: `api ${token}`, Accept: 'application/json' };
  const pictures = await storedPictureUrls();
  const agent = new Agent({ connections: Math.max(2, pictures.length) });
  const get = async (url: string): Promise<void> => {
    const answer = await request(url, { headers, dispatcher: agent });
    if (answer.statusCode !== 200) throw new Error(`${url}: ${answer.statusCode}`);
    for await (const chunk of answer.body) void chunk;
  };
  try {
    // Its connections opened first (each a handshake over the link), with a question of no weight.
    await Promise.all(Array.from({ length: Math.max(2, pictures.length) }, () => get(`${linkUrl}/api/2.0/user`)));
    await sleep(500);
    const start = performance.now();
    await Promise.all(
      [`/guides/${guideid}`, `/step_forms/guideid/${guideid}`].map((p) => get(`${linkUrl}/api/2.0${p}`)),
    );
    const textMs = performance.now() - start;
    await Promise.all(pictures.map(get));
    return { ms: performance.now() - start, textMs };
  } finally {
    await agent.close();
  }
}

/** The addresses of the guide's pictures the keep stored (each variant it kept). */
async function storedPictureUrls(): Promise<string[]> {
  const detail = await services.api.getGuide(guideid);
  if (!detail.ok) throw new Error(detail.error.message);
  const urls = new Set<string>();
  for (const image of [detail.value.image, ...detail.value.steps.flatMap(mediaImages)])
    for (const url of [image?.thumbnail, image?.standard, image?.large, image?.original])
      if (url && services.resolveMedia(url)) urls.add(url);
  return [...urls];
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}

/** The bytes of the guide's own answers (its text and its forms), asked on loopback. */
async function answersBytes(): Promise<number> {
  const headers = { Authorization: `api ${await signInToken()}` };
  let total = 0;
  for (const path of [`/guides/${guideid}`, `/step_forms/guideid/${guideid}`])
    total += (await (await fetch(`${siteUrl}/api/2.0${path}`, { headers })).arrayBuffer()).byteLength;
  return total;
}

/** A token of tech1's, asked on loopback. */
async function signInToken(): Promise<string> {
  const answer = await fetch(`${siteUrl}/api/2.0/user/token`, {
    method: 'POST',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }),
  });
  return ((await answer.json()) as { authToken: string }).authToken;
}

async function guideBytes(): Promise<number> {
  let total = await answersBytes();
  const detail = await services.api.getGuide(guideid);
  if (!detail.ok) throw new Error(detail.error.message);
  const urls = new Set<string>();
  // Every variant it may keep: those not stored count nothing.
  for (const image of [detail.value.image, ...detail.value.steps.flatMap(mediaImages)])
    for (const url of [image?.thumbnail, image?.standard, image?.large, image?.original]) if (url) urls.add(url);
  for (const url of urls) total += services.resolveMedia(url)?.bytes ?? 0;
  return total;
}

function mediaImages(step: GuideStep): ImageVariants[] {
  return step.media.type === 'image' ? step.media.images : [];
}
