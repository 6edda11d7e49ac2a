import { describe, expect, it } from 'vitest';
import { SITE_MODULES, type SiteModule } from '../../electron/contract.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { startDemoSite } from '../../server/site.ts';
import { allLocalGuides, mediaOf, unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 15, acceptance 1 (the core's part; the screens are in test/e2e/site-modules.test.ts): over real
// HTTP, the reference server with each module switched off alone and with all of them off, its media on
// another origin. The sync completes, every guide is readable offline with its media, and the status
// names the modules the site lacks.
async function syncAgainst(without: readonly SiteModule[]) {
  const site = await startDemoSite({ without, mediaOrigin: true });
  const app = makeServices();
  try {
    const { email, password } = DEMO_ACCOUNTS.tech1;
    unwrap(await app.services.api.signIn({ siteUrl: site.url, email, password }));
    // The media port is this computer's: fetched once the technician allowed it (issue 26).
    unwrap(await app.services.api.allowMediaOrigin(site.mediaUrl!));
    const outcome = unwrap(await app.services.api.syncNow());
    const guides = await allLocalGuides(app.services.api);
    const details = await Promise.all(
      guides.map(async ({ guideid }) => unwrap(await app.services.api.getGuide(guideid))),
    );
    const missingMedia = details.flatMap((detail) =>
      mediaOf(detail).filter((url) => app.services.resolveMedia(url) === null),
    );
    const mediaHosts = new Set(details.flatMap((detail) => mediaOf(detail).map((url) => new URL(url).origin)));
    const status = unwrap(await app.services.api.getStatus());
    return { outcome, guides, details, missingMedia, mediaHosts, status, site };
  } finally {
    await app.dispose();
    await site.close();
  }
}

describe('a site without some modules', () => {
  for (const without of [...SITE_MODULES.map((m) => [m]), [...SITE_MODULES]] as SiteModule[][]) {
    it(
      `without ${without.join(', ')}: ` +
        `the sync completes, every guide and its media are stored, the site's lack is named`,
      { timeout: 60_000 },
      async () => {
        const { outcome, guides, details, missingMedia, mediaHosts, status, site } = await syncAgainst(without);
        expect(outcome.status, outcome.error?.message).toBe('complete');
        expect(outcome.failedGuides).toEqual([]);
        expect(guides.length).toBeGreaterThan(0);
        expect(guides.every((g) => g.offline === 'full')).toBe(true);
        expect(details.length).toBe(guides.length);
        // Media come from the other origin, and every one the guides show is on this computer.
        expect([...mediaHosts]).toEqual([site.mediaUrl]);
        expect(missingMedia).toEqual([]);
        for (const module of SITE_MODULES) {
          expect(status.capabilities?.modules[module], module).toBe(without.includes(module) ? 'missing' : 'offered');
        }
        if (without.includes('step_forms'))
          expect(details.every((d) => d.steps.every((s) => s.form === null))).toBe(true);
        if (without.includes('quizzes')) expect(details.every((d) => d.quizzes.length === 0)).toBe(true);
        if (without.includes('tags')) expect(details.every((d) => d.tags.length === 0)).toBe(true);
      },
    );
  }
});
