import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { allCategories } from '../../server/categories/repo.ts';
import type { RunningSite } from '../../server/site.ts';
import { api, startTestSite } from './helpers.ts';

let site: RunningSite;
beforeAll(async () => {
  site = await startTestSite({ demo: true });
});
afterAll(() => site.close());

describe('the demo page of printed codes', () => {
  it("has a QR code of every public guide's page on the site and of every category, and runs no script", async () => {
    const answer = await fetch(`${site.url}/demo/codes`);
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/html/);
    expect(answer.headers.get('content-security-policy')).toContain("default-src 'none'");
    const page = await answer.text();
    expect(page).not.toMatch(/<script/i);
    const guides = (await api(site, 'GET', '/guides', { query: { limit: 200 } })).body as {
      guideid: number;
      url: string;
    }[];
    const categories = allCategories(site.db).map((row) => row.title);
    expect(guides.length).toBeGreaterThan(3);
    for (const guide of guides) expect(page).toContain(`<code>${guide.url}</code>`);
    for (const title of categories.filter((t) => /^[\w -]+$/.test(t))) {
      expect(page).toContain(`<code>${site.url}/Device/${title.replace(/ /g, '_')}</code>`);
    }
    const codes = page.match(/<svg/g)?.length ?? 0;
    expect(codes).toBe(guides.length + categories.length);
  });
});
