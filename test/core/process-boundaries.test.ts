import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The typecheck is what keeps the process boundaries: these tests build scratch copies of the Node side
// with the core's own project (and the shared one it references). One copy is as it is (the control); the
// other breaks every rule at once, each in a file of its own, so one build names them all: two builds of
// the core, not one per rule (each is most of a minute on a busy machine).
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const scratchRoot = path.join(root, 'test', '.tmp', `boundaries-${process.pid}`);
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function scratchCopy(name: string): string {
  const dir = path.join(scratchRoot, name);
  fs.cpSync(path.join(root, 'electron'), path.join(dir, 'electron'), { recursive: true });
  for (const file of ['tsconfig.base.json', 'tsconfig.shared.json', 'tsconfig.core.json'])
    fs.copyFileSync(path.join(root, file), path.join(dir, file));
  // Only the core side of the copy: the real server is not needed to prove these rules.
  const config = JSON.parse(stripComments(fs.readFileSync(path.join(dir, 'tsconfig.core.json'), 'utf8'))) as {
    include: string[];
  };
  config.include = config.include.filter((pattern) => pattern.startsWith('electron/'));
  fs.writeFileSync(path.join(dir, 'tsconfig.core.json'), JSON.stringify(config));
  return dir;
}

function stripComments(jsonc: string): string {
  return jsonc.replace(/^\s*\/\/.*$/gm, '');
}

async function typecheck(dir: string): Promise<{ ok: boolean; output: string }> {
  try {
    await run(process.execPath, [tsc, '-b', path.join(dir, 'tsconfig.core.json')], { cwd: dir });
    return { ok: true, output: '' };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

let control: { ok: boolean; output: string };
let broken: { ok: boolean; output: string };

/** A copy breaking each rule the cases below check: one file per rule, and one method no feature declares. */
function brokenCopy(): string {
  const dir = scratchCopy('broken');
  const copies = [
    ['core-imports-electron.ts', 'uses-electron.ts'],
    ['core-uses-dom.ts', 'uses-dom.ts'],
  ] as const;
  for (const [fixture, as] of copies)
    fs.copyFileSync(path.join(root, 'test/core/fixtures', fixture), path.join(dir, 'electron/core', as));
  fs.writeFileSync(
    path.join(dir, 'electron/shared/uses-both.ts'),
    "export const bytes = Buffer.from('x');\nexport const title = document.title;\n",
  );
  // The contract is split by feature (electron/contract/): sign-out is the connection's.
  const contract = path.join(dir, 'electron/contract/connection.ts');
  const source = fs.readFileSync(contract, 'utf8');
  const marker = 'signOut(): Promise<Result<AppStatus>>;';
  expect(source).toContain(marker);
  fs.writeFileSync(contract, source.replace(marker, `${marker}\n  calibrateTorqueWrench(): Promise<Result<void>>;`));
  return dir;
}

describe('process boundaries are kept by the typecheck', { timeout: 180_000 }, () => {
  beforeAll(async () => {
    fs.mkdirSync(scratchRoot, { recursive: true });
    control = await typecheck(scratchCopy('control'));
    broken = await typecheck(brokenCopy());
  }, 600_000);
  afterAll(() => fs.rmSync(scratchRoot, { recursive: true, force: true }));

  it('accepts the core as it is (the control for the cases below)', () => {
    expect(control.output).toBe('');
    expect(control.ok).toBe(true);
    expect(broken.ok).toBe(false);
  });

  it('refuses an import of electron from electron/core', () => {
    expect(broken.output).toMatch(/electron\/core\/uses-electron\.ts.*error TS2306/);
  });

  it('refuses DOM types and globals in electron/core', () => {
    expect(broken.output).toMatch(/uses-dom\.ts.*Cannot find name 'document'/);
    expect(broken.output).toMatch(/uses-dom\.ts.*Cannot find name 'HTMLElement'/);
  });

  it('refuses Node and the DOM in the shared rules, which the renderer and the core both import', () => {
    expect(broken.output).toMatch(/uses-both\.ts.*Cannot find name 'Buffer'/);
    expect(broken.output).toMatch(/uses-both\.ts.*Cannot find name 'document'/);
  });

  it('refuses a contract method that its feature does not declare', () => {
    // The App API is declared once per feature: the connection's declaration lacks the new method.
    expect(broken.output).toMatch(
      /electron\/core\/connection\/connection-methods\.ts[^\n]*error TS2345[^\n]*\n\s*Property 'calibrateTorqueWrench'/,
    );
  });
});
