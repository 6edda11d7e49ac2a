import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// `npm run check:imports` (the first step of `npm test`) runs dependency-cruiser with the house's rules
// (.dependency-cruiser.cjs). These tests drop one scratch violation of each rule the issue names into a
// copy of the tree, run the same check on the copy, and expect it to fail naming the rule that was broken.
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const scratch = path.join(root, 'test', '.tmp', `import-rules-${process.pid}`);
const depcruise = path.join(root, 'node_modules', 'dependency-cruiser', 'bin', 'dependency-cruise.mjs');

const VIOLATIONS = {
  wireTypeInSync: {
    file: 'electron/core/sync/scratch-wire.ts',
    source: "import type { GuideWire } from '../api/wire/guide.ts';\nexport type Scratch = GuideWire;\n",
  },
  sqlInLibrary: {
    file: 'electron/core/library/scratch-sql.ts',
    source:
      "import { sql } from '../db/statements.ts';\n" +
      "import type { Db } from '../db/open.ts';\n" +
      "export const count = (db: Db) => sql(db, 'SELECT count(*) FROM guides').get();\n",
  },
  betterSqliteInLibrary: {
    file: 'electron/core/library/scratch-driver.ts',
    source: "import Database from 'better-sqlite3';\nexport const open = (file: string) => new Database(file);\n",
  },
  coreImportInRenderer: {
    file: 'src/scratch-core.ts',
    source:
      "import { mediaUrlsOf } from '../electron/core/library/guide-media.ts';\nexport const urls = mediaUrlsOf;\n",
  },
  workLogInOutbox: {
    file: 'electron/core/outbox/scratch-kind.ts',
    source:
      "import { startAction } from '../worklog/replay/start.ts';\n" +
      "import type { SessionsRepo } from '../db/repos/sessions-repo.ts';\n" +
      'export const kind = startAction;\nexport type Sessions = SessionsRepo;\n',
  },
  quizInOutbox: {
    file: 'electron/core/outbox/scratch-quiz.ts',
    source:
      "import { quizAttemptAction } from '../quiz/quiz-attempt-action.ts';\n" +
      "import type { QuizzesRepo } from '../db/repos/quizzes-repo.ts';\n" +
      'export const kind = quizAttemptAction;\nexport type Quizzes = QuizzesRepo;\n',
  },
  shellPastServices: {
    file: 'electron/web/scratch-deep.ts',
    source:
      "import { LibraryService } from '../core/library/library-service.ts';\nexport const library = LibraryService;\n",
  },
  schemaInContract: {
    file: 'electron/contract/scratch-schema.ts',
    source: "import { z } from 'zod';\nexport const scratch = z.tuple([z.number()]);\n",
  },
  readerOutsideItsModule: {
    file: 'src/scratch-reader.ts',
    source: "import { readBarcodes } from 'zxing-wasm/reader';\nexport const read = readBarcodes;\n",
  },
} as const;

let output = '';
let exitCode = 0;

/** The rule each `error <rule>: <from> → <to>` line names, by the file it was found in. */
function rulesBroken(file: string): string[] {
  return [...output.matchAll(/^\s*error (\S+): (\S+) → /gm)].filter((m) => m[2] === file).map((m) => m[1]!);
}

describe('the import rules are kept by the check in npm test', { timeout: 120_000 }, () => {
  beforeAll(async () => {
    fs.mkdirSync(scratch, { recursive: true });
    for (const dir of ['electron', 'src', 'server'])
      fs.cpSync(path.join(root, dir), path.join(scratch, dir), { recursive: true });
    fs.copyFileSync(path.join(root, '.dependency-cruiser.cjs'), path.join(scratch, '.dependency-cruiser.cjs'));
    fs.symlinkSync(path.join(root, 'node_modules'), path.join(scratch, 'node_modules'), 'dir');
    for (const { file, source } of Object.values(VIOLATIONS)) fs.writeFileSync(path.join(scratch, file), source);
    try {
      const result = await run(
        process.execPath,
        [depcruise, 'electron', 'src', 'server', '--config', '.dependency-cruiser.cjs', '--output-type', 'err-long'],
        { cwd: scratch },
      );
      output = result.stdout;
    } catch (error) {
      const failure = error as { stdout?: string; code?: number };
      output = failure.stdout ?? '';
      exitCode = failure.code ?? -1;
    }
  });
  afterAll(() => fs.rmSync(scratch, { recursive: true, force: true }));

  it('fails the check, and finds nothing but the scratch files (the tree itself keeps every rule)', () => {
    expect(exitCode).not.toBe(0);
    const files = [...output.matchAll(/^\s*error \S+: (\S+) → /gm)].map((m) => m[1]);
    expect(new Set(files)).toEqual(new Set(Object.values(VIOLATIONS).map((v) => v.file)));
  });

  it('refuses a wire type named in sync/', () => {
    expect(rulesBroken(VIOLATIONS.wireTypeInSync.file)).toEqual(['wire-types-only-in-api']);
    expect(output).toMatch(/core\/api is the one place that knows the wire/);
  });

  it('refuses SQL written in library/, by a statement of core/db or by the driver itself', () => {
    expect(rulesBroken(VIOLATIONS.sqlInLibrary.file)).toEqual(['sql-only-in-db', 'sql-only-in-db']);
    expect(rulesBroken(VIOLATIONS.betterSqliteInLibrary.file)).toEqual(['sql-only-in-db']);
  });

  it('refuses an import of the core in the renderer (src/)', () => {
    expect(rulesBroken(VIOLATIONS.coreImportInRenderer.file)).toEqual(['renderer-imports-only-contract-and-shared']);
  });

  it('refuses work-log or quiz code, or their repositories, imported by the generic outbox', () => {
    expect(rulesBroken(VIOLATIONS.workLogInOutbox.file)).toEqual(['outbox-knows-no-kinds', 'outbox-knows-no-kinds']);
    expect(rulesBroken(VIOLATIONS.quizInOutbox.file)).toEqual(['outbox-knows-no-kinds', 'outbox-knows-no-kinds']);
    expect(output).toMatch(/core\/outbox is a queue of any kind of action/);
  });

  it('refuses a shell that imports past services.ts', () => {
    expect(rulesBroken(VIOLATIONS.shellPastServices.file)).toEqual(['shells-enter-core-through-services']);
  });

  it('refuses the barcode reader imported past its one module, which sets where its .wasm comes from', () => {
    expect(rulesBroken(VIOLATIONS.readerOutsideItsModule.file)).toEqual(['barcode-reader-in-one-place']);
  });

  it('refuses a package (a zod schema) in a feature file of the contract: the renderer imports it', () => {
    expect(rulesBroken(VIOLATIONS.schemaInContract.file)).toEqual(['contract-imports-nothing']);
  });
});
