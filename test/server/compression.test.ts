import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSite } from '../../server/site.ts';
import { startLink, type Link } from '../fault/link.ts';
import { startTestSite } from './helpers.ts';

// Issue 17: the reference server compresses JSON as real sites do, and the bytes that cross the link
// for the same answer are counted with and without it (counted, not timed).
let site: RunningSite;
let link: Link;

beforeAll(async () => {
  site = await startTestSite({ demo: true });
  link = await startLink({ targetPort: site.port, rttMs: 0, mbitPerSec: 0 });
});
afterAll(async () => {
  await link?.close();
  await site?.close();
});

async function bytesFor(encoding: string | null): Promise<{ bytes: number; encoding: string | null; guides: number }> {
  const before = link.stats.bytesDown;
  const headers: Record<string, string> = encoding === null ? {} : { 'Accept-Encoding': encoding };
  const response = await fetch(`${link.url}/api/2.0/guides?limit=200`, { headers });
  const guides = ((await response.json()) as unknown[]).length;
  return { bytes: link.stats.bytesDown - before, encoding: response.headers.get('content-encoding'), guides };
}

describe('JSON compression', () => {
  it(
    'answers gzip to a client that accepts it (fetch does by default), ' + 'with the same content in far fewer bytes',
    async () => {
      const plain = await bytesFor('identity');
      const zipped = await bytesFor(null);
      expect(plain.encoding).toBeNull();
      expect(zipped.encoding).toBe('gzip');
      expect(zipped.guides).toBe(plain.guides);
      expect(plain.guides).toBeGreaterThan(5);
      expect(zipped.bytes).toBeLessThan(plain.bytes / 2);
    },
  );

  it('sends media as they are', async () => {
    const response = await fetch(`${site.url}/api/2.0/guides?limit=1`);
    const [guide] = (await response.json()) as { image: { standard: string } | null }[];
    const picture = await fetch(guide!.image!.standard);
    expect(picture.headers.get('content-encoding')).toBeNull();
  });
});
