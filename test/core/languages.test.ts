import { afterAll, describe, expect, it } from 'vitest';
import { siteHttp } from '../../electron/core/api/http.ts';
import { DEMO_GUIDES } from '../../server/demo/seed.ts';
import { DEMO_ACCOUNTS } from '../../server/demo-accounts.ts';
import { DEMO_APP_ID, type Dialect } from '../../server/http/dialects.ts';
import { startDemoSite, type RunningSite } from '../../server/site.ts';
import { unwrap } from '../helpers/library.ts';
import { makeServices } from '../helpers/services.ts';

// Issue 25, acceptance 6: sites in several languages were synced in the site's own only. Each technician
// now picks one of the site's languages; the guides kept whole are read again with `langid`, kept beside
// the site's text and searched offline in it; a guide without a translation is shown in the site's
// language, marked so. Against the demo's two languages (English and German for two guides).

const id = (key: string) => DEMO_GUIDES.findIndex((guide) => guide.key === key) + 1;
const [HOSE, LOCKOUT, TIP] = [id('forklift-hose'), id('lockout'), id('mig-tip')];
const closing: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const close of closing.reverse()) await close();
});

for (const dialect of ['ifixit', 'dozuki'] as Dialect[]) {
  describe(`a language switch, ${dialect} dialect`, () => {
    let site: RunningSite;
    let app: ReturnType<typeof makeServices>;
    const asked: string[] = [];

    it("lists the site's languages after a sync", async () => {
      site = await startDemoSite({ dialect });
      closing.push(() => site.close());
      app = makeServices(undefined, {
        http: (url, init) => {
          if (url.searchParams.has('langid')) asked.push(`${url.pathname}?langid=${url.searchParams.get('langid')}`);
          return siteHttp(url, init);
        },
      });
      closing.push(() => app.dispose());
      const { email, password } = DEMO_ACCOUNTS.tech1;
      unwrap(await app.services.api.signIn({ siteUrl: site.url, email, password, appId: DEMO_APP_ID }));
      expect(unwrap(await app.services.api.syncNow()).status).toBe('complete');
      expect(unwrap(await app.services.api.getLanguages())).toEqual({
        languages: [
          { langid: 'en', name: 'English' },
          { langid: 'de', name: 'Deutsch' },
        ],
        siteDefault: 'en',
        chosen: null,
      });
      expect(asked).toEqual([]);
    });

    it('re-reads every guide kept whole in the language chosen', async () => {
      const api = app.services.api;
      expect(unwrap(await api.setLanguage('de')).chosen).toBe('de');
      // Until a sync reads it in German, a guide the site has in German is not said "not translated".
      expect(unwrap(await api.getGuide(HOSE)).language).toMatchObject({ fallback: true, pending: true });
      expect(unwrap(await api.syncNow()).status).toBe('complete');
      const kept = unwrap(await api.getSyncState()).guides.offline;
      const guides = new Set(asked.filter((path) => path.endsWith('langid=de')).map((path) => path.split('?')[0]));
      expect(guides.size).toBe(kept);
      // Read once: a sync with nothing changed asks nothing in German again.
      asked.length = 0;
      expect(unwrap(await api.syncNow()).status).toBe('complete');
      expect(asked).toEqual([]);
    });

    it('shows a translated guide in German, its prerequisites too, and marks one without a translation', async () => {
      const api = app.services.api;
      const hose = unwrap(await api.getGuide(HOSE));
      expect(hose.title).toBe('Hydraulikschlauch am Hubmast eines Gabelstaplers ersetzen');
      expect(hose.language).toEqual({ langid: 'de', fallback: false });
      expect(hose.prerequisites[0]).toEqual({
        guideid: LOCKOUT,
        title: 'Freischalten und Kennzeichnen vor Arbeiten an Werkstattmaschinen',
        langid: 'de',
      });
      // The inspection's title, untranslated, says it is the site's English.
      expect(hose.prerequisites[1]).toMatchObject({ guideid: id('forklift-inspection'), langid: 'en' });
      expect(hose.steps[0]!.title).toBe('Die Menschen in der Nähe informieren');
      // The inspection has no German: its steps stay English inside the German guide.
      const inspection = hose.steps.find((step) => step.guideid === id('forklift-inspection'))!;
      expect(inspection.title).toBe('Identify the truck');
      expect(hose.steps.at(-1)!.title).toBe('Auf Lecks prüfen und nachfüllen');
      // Each step says the language it is in (a screen reader reads German text in German).
      expect([hose.steps[0]!.langid, inspection.langid, hose.steps.at(-1)!.langid]).toEqual(['de', 'en', 'de']);
      const tip = unwrap(await api.getGuide(TIP));
      expect(tip.title).toBe(DEMO_GUIDES[TIP - 1]!.title);
      expect(tip.language).toEqual({ langid: 'en', fallback: true });
    });

    it("is each technician's own: another reads the site's language on the same laptop", async () => {
      const api = app.services.api;
      unwrap(await api.switchTechnician({ email: DEMO_ACCOUNTS.tech2.email, password: DEMO_ACCOUNTS.tech2.password }));
      expect(unwrap(await api.getLanguages()).chosen).toBeNull();
      const hose = unwrap(await api.getGuide(HOSE));
      expect(hose.title).toBe(DEMO_GUIDES[HOSE - 1]!.title);
      expect(unwrap(await api.search({ text: 'Schlauch', where: 'local' })).total).toBe(0);
      unwrap(await api.switchTechnician({ email: DEMO_ACCOUNTS.tech1.email, password: DEMO_ACCOUNTS.tech1.password }));
      expect(unwrap(await api.getLanguages()).chosen).toBe('de');
    });
    it('finds the German guides offline by their German words, and the others by their own', async () => {
      await site.close();
      const api = app.services.api;
      const german = unwrap(await api.search({ text: 'Schlauch' }));
      expect(german.source).toBe('local');
      expect(german.items.map((item) => [item.guideid, item.title])).toEqual([
        [HOSE, 'Hydraulikschlauch am Hubmast eines Gabelstaplers ersetzen'],
      ]);
      const english = unwrap(await api.search({ text: 'contact tip', where: 'local' }));
      expect(english.items.map((item) => item.guideid)).toContain(TIP);
      // A translated guide by the words of the site's language, the title the library lists it under (it was
      // left out: only its German text was searched), once.
      const byOwnTitle = unwrap(await api.search({ text: DEMO_GUIDES[HOSE - 1]!.title, where: 'local' }));
      expect(byOwnTitle.items.filter((item) => item.guideid === HOSE)).toHaveLength(1);
      const both = unwrap(await api.search({ text: 'Hubmast OR hose', where: 'local' }));
      expect(both.items.filter((item) => item.guideid === HOSE)).toHaveLength(1);
    });
  });
}
