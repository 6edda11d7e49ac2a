import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

// Issue 27, acceptance 3: what a failure means is decided once. The API client creates ApiError and the
// classifier (electron/core/api/failure.ts) reads it; every other file switches on `classify(e).kind`.
// The typecheck cannot see an `instanceof`, so this test reads the sources; its second case drops a
// scratch violation into a copy and expects it named, so the check is known to fail when it should.
const root = path.resolve(import.meta.dirname, '../..');
const scratch = path.join(root, 'test', '.tmp', `failure-once-${process.pid}`);

/** Where ApiError may be looked at: the client that makes it (requests, downloads) and the classifier. */
const ALLOWED = new Set([
  'electron/core/api/transport.ts',
  'electron/core/api/request.ts',
  'electron/core/api/media-fetch.ts',
  'electron/core/api/failure.ts',
]);
const LOOKS_AT_API_ERROR = /\binstanceof\s+ApiError\b/;
/** ApiError is made by the API client alone (electron/core/api/). */
const MAKES_API_ERROR = /\bnew\s+ApiError\b/;

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => /\.(ts|vue)$/.test(file));
}

/** Files under `base`'s electron/ and src/ that test `instanceof ApiError` outside the allowed ones, or make one. */
function offenders(base: string): string[] {
  const found: string[] = [];
  for (const top of ['electron', 'src']) {
    const dir = path.join(base, top);
    if (!fs.existsSync(dir)) continue;
    for (const file of sources(dir)) {
      const relative = path.posix.join(top, file.split(path.sep).join('/'));
      const text = fs.readFileSync(path.join(dir, file), 'utf8');
      const looks = !ALLOWED.has(relative) && LOOKS_AT_API_ERROR.test(text);
      const makes = !relative.startsWith('electron/core/api/') && MAKES_API_ERROR.test(text);
      if (looks || makes) found.push(relative);
    }
  }
  return found.sort();
}

afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

describe('failures classified once', () => {
  it('finds instanceof ApiError only in the client and the classifier, new ApiError only in the client', () => {
    expect(offenders(root)).toEqual([]);
  });

  it('names a file outside them that looks at ApiError itself', () => {
    fs.cpSync(path.join(root, 'electron'), path.join(scratch, 'electron'), { recursive: true });
    const file = path.join(scratch, 'electron', 'core', 'sync', 'scratch-failure.ts');
    fs.writeFileSync(
      file,
      "import { ApiError } from '../api/errors.ts';\n" +
        "export const offline = (e: unknown) => e instanceof ApiError && e.kind === 'network';\n",
    );
    fs.writeFileSync(
      path.join(scratch, 'electron', 'core', 'library', 'scratch-made.ts'),
      "import { ApiError } from '../api/errors.ts';\nexport const made = new ApiError('http', 'GET /x', 'x', 500);\n",
    );
    expect(offenders(scratch)).toEqual([
      'electron/core/library/scratch-made.ts',
      'electron/core/sync/scratch-failure.ts',
    ]);
  });
});
