import { describe, expect, it } from 'vitest';
import type { CategoryNode } from '../../electron/contract.ts';
import {
  cleanCode,
  codeLike,
  isGuideLink,
  looksLikeCode,
  readScannedCode,
  typedByScanner,
  unknownCodeWords,
  type ScanPlace,
} from '../../src/lib/scan-code.ts';

const node = (name: string, children: CategoryNode[] = []): CategoryNode => ({
  name,
  title: name,
  guideCount: 1,
  children,
});
const place: ScanPlace = {
  siteUrl: 'https://workshop.example.com',
  appOrigin: 'app://fieldguide',
  categories: [node('Compressors', [node('Screw Compressor SC-200')]), node('Forklifts')],
};

describe('a scanned code', () => {
  it("opens the guide a site's guide page names, whatever its title, print page or teardown", () => {
    for (const url of [
      'https://workshop.example.com/Guide/Replace+the+Air+Filter/12',
      'https://www.workshop.example.com/Guide/Replace+the+Air+Filter/12/',
      'http://workshop.example.com/Guide/print/12',
      'https://workshop.example.com/Teardown/Inside+the+SC-200/12',
      'https://workshop.example.com/Guide/12?lang=de',
    ]) {
      expect(readScannedCode(url, place), url).toEqual({ kind: 'guide', guideid: 12, text: url });
    }
  });

  it("opens the guide of the app's own link, and of a bare guide id", () => {
    expect(readScannedCode('app://fieldguide/guides/7', place)).toMatchObject({ kind: 'guide', guideid: 7 });
    const web = { ...place, appOrigin: 'http://127.0.0.1:5174' };
    expect(readScannedCode('http://127.0.0.1:5174/guides/7', web)).toMatchObject({ kind: 'guide', guideid: 7 });
    expect(readScannedCode('  42\r\n', place)).toEqual({ kind: 'guide', guideid: 42, text: '42' });
  });

  it("finds a site at a path by the pages below that path, and the site's own port", () => {
    const below = { ...place, siteUrl: 'https://example.com/dozuki/' };
    expect(readScannedCode('https://example.com/dozuki/Guide/X/5', below)).toMatchObject({ guideid: 5 });
    const local = { ...place, siteUrl: 'http://127.0.0.1:8080' };
    expect(readScannedCode('http://127.0.0.1:8080/Guide/X/5', local)).toMatchObject({ guideid: 5 });
    expect(readScannedCode('http://127.0.0.1:9999/Guide/X/5', local)).toMatchObject({
      kind: 'unknown',
      otherSite: '127.0.0.1:9999',
    });
  });

  it("opens a category by its name in any case, or by the site's device page", () => {
    expect(readScannedCode('forklifts', place)).toEqual({ kind: 'category', name: 'Forklifts', text: 'forklifts' });
    expect(readScannedCode('Screw Compressor SC-200', place)).toMatchObject({
      kind: 'category',
      name: 'Screw Compressor SC-200',
    });
    expect(readScannedCode('https://workshop.example.com/Device/Screw_Compressor_SC-200', place)).toMatchObject({
      kind: 'category',
      name: 'Screw Compressor SC-200',
    });
  });

  it('knows nothing of an article number, a word of no category or a page of the site it cannot open', () => {
    for (const text of [
      '4006381333931',
      'pump',
      'https://workshop.example.com/Answers/View/3',
      'javascript:alert(1)',
    ]) {
      expect(readScannedCode(text, place), text).toEqual({ kind: 'unknown', text, otherSite: null });
    }
    expect(readScannedCode('https://workshop.example.com/Device/%E0%A4%A', place).kind).toBe('unknown');
  });

  it('says a link to another site is one, naming both hosts, and an unknown code in plain words', () => {
    const other = readScannedCode('https://www.ifixit.com/Guide/Battery/29367', place);
    expect(other).toMatchObject({ kind: 'unknown', otherSite: 'www.ifixit.com' });
    if (other.kind !== 'unknown') throw new Error('expected unknown');
    expect(unknownCodeWords(other, place.siteUrl)).toContain('another site (www.ifixit.com)');
    expect(unknownCodeWords(other, place.siteUrl)).toContain('(workshop.example.com)');
    const unknown = readScannedCode('pump', place);
    if (unknown.kind !== 'unknown') throw new Error('expected unknown');
    expect(unknownCodeWords(unknown, place.siteUrl)).toBe(
      'No guide or category on this computer matches the code “pump”: searching for it instead.',
    );
  });

  it('is read without the control characters a scanner adds', () => {
    expect(cleanCode('\u001d12\t\r')).toBe('12');
    expect(looksLikeCode('12\r')).toBe(true);
    expect(looksLikeCode('https://x.test/Guide/a/1')).toBe(true);
    expect(looksLikeCode('air filter')).toBe(false);
  });
});

describe('a USB scanner typing into the search box', () => {
  it('is told from a person by the quick keys of the whole text, its Enter among them', () => {
    const burst = [0, 4, 9, 12, 18, 22];
    expect(typedByScanner(burst, 6, 26)).toBe(true);
    const person = [0, 140, 260, 410, 530, 700];
    expect(typedByScanner(person, 6, 820)).toBe(false);
  });

  it("is not a fast typist's short search: a key struck twice, the reach to Enter, are slower than a scanner", () => {
    // "10mm" typed fast, then Enter: two keys of three at a scanner's pace, the second "m" and the Enter not.
    expect(typedByScanner([0, 45, 85, 190], 4, 260)).toBe(false);
    // Every key quick, but Enter pressed after them (a person's), or not pressed at all (the Search button).
    expect(typedByScanner([0, 30, 60, 90], 4, 180)).toBe(false);
    expect(typedByScanner([0, 3, 6, 9], 4, null)).toBe(false);
    expect(typedByScanner([0, 3, 6, 9], 4, 12)).toBe(true);
  });

  it('lets a long code have one slow key in eight (a busy machine), not a short one', () => {
    const ean = [0, 3, 6, 9, 12, 15, 80, 83, 86, 89, 92, 95, 98];
    expect(typedByScanner(ean, 13, 101)).toBe(true);
    expect(typedByScanner([0, 3, 6, 9, 12, 15, 80, 83, 86, 150, 153, 156, 159], 13, 162)).toBe(false);
    expect(typedByScanner([0, 3, 70, 73, 76], 5, 79)).toBe(false);
  });

  it('needs four keys at least, each key of the text timed, and the keys quick', () => {
    expect(typedByScanner([0, 3, 6], 3, 9)).toBe(false);
    expect(typedByScanner([0, 3, 6, 9], 6, 12)).toBe(false);
    // A person's first letters, then a paste-like burst of the rest: only the text's own keys count.
    expect(typedByScanner([0, 200, 400, 401, 402, 403, 404], 4, 405)).toBe(true);
    expect(typedByScanner([0, 5, 200, 400, 600], 5, 603)).toBe(false);
  });

  it("is a code when what it typed looks like a label's, not when a quick hand typed words", () => {
    for (const code of [
      '4006381333931',
      'WO-6611',
      'wo-6611',
      'PN4471882',
      'FL-07',
      'WO-NOT-HERE',
      'https://x.test/a',
    ]) {
      expect(codeLike(code), code).toBe(true);
    }
    for (const words of ['belt', 'BELT', 'drive belt', 'o-ring', 'Air Compressors', 'm8 bolt', '']) {
      expect(codeLike(words), words).toBe(false);
    }
  });
});

describe("a guide's link", () => {
  it("is one of this site's or the app's guide pages, not a number, another site's link or a category", () => {
    const at = { siteUrl: place.siteUrl, appOrigin: place.appOrigin };
    expect(isGuideLink('https://workshop.example.com/Guide/Replace+the+Air+Filter/12', at)).toBe(true);
    expect(isGuideLink('app://fieldguide/guides/12', at)).toBe(true);
    expect(isGuideLink('12', at)).toBe(false);
    expect(isGuideLink('https://other.example.com/Guide/Replace/12', at)).toBe(false);
    expect(isGuideLink('https://workshop.example.com/Device/Forklifts', at)).toBe(false);
  });
});
