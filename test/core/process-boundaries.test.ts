import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

// The typecheck is what keeps the process boundaries: these tests build scratch copies of the Node side,
// break one rule in each, and run the core's own tsconfig on them.
const run = promisify(execFile);
const root = path.resolve(import.meta.dirname, '../..');
const scratchRoot = path.join(root, 'test', '.tmp', `boundaries-${process.pid}`);
const tsc = path.join(root, 'node_modules', 'typescript', 'bin', 'tsc');

function scratchCopy(name: string): string {
  const dir = path.join(scratchRoot, name);
  fs.cpSync(path.join(root, 'electron'), path.join(dir, 'electron'), { recursive: true });
  for (const file of ['tsconfig.base.json', 'tsconfig.core.json'])
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
    await run(process.execPath, [tsc, '--noEmit', '-p', path.join(dir, 'tsconfig.core.json')], { cwd: dir });
    return { ok: true, output: '' };
  } catch (error) {
    const failure = error as { stdout?: string; stderr?: string };
    return { ok: false, output: `${failure.stdout ?? ''}${failure.stderr ?? ''}` };
  }
}

describe('process boundaries are kept by the typecheck', { timeout: 180_000 }, () => {
  beforeAll(() => fs.mkdirSync(scratchRoot, { recursive: true }));
  afterAll(() => fs.rmSync(scratchRoot, { recursive: true, force: true }));

  it('accepts the core as it is (the control for the cases below)', async () => {
    const result = await typecheck(scratchCopy('control'));
    expect(result.output).toBe('');
    expect(result.ok).toBe(true);
  });

  it('refuses an import of electron from electron/core', async () => {
    const dir = scratchCopy('electron-import');
    fs.copyFileSync(
      path.join(root, 'test/core/fixtures/core-imports-electron.ts'),
      path.join(dir, 'electron/core/uses-electron.ts'),
    );
    const result = await typecheck(dir);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/electron\/core\/uses-electron\.ts.*error TS2306/);
  });

  it('refuses DOM types and globals in electron/core', async () => {
    const dir = scratchCopy('dom');
    fs.copyFileSync(
      path.join(root, 'test/core/fixtures/core-uses-dom.ts'),
      path.join(dir, 'electron/core/uses-dom.ts'),
    );
    const result = await typecheck(dir);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/uses-dom\.ts.*Cannot find name 'document'/);
    expect(result.output).toMatch(/uses-dom\.ts.*Cannot find name 'HTMLElement'/);
  });

  it('refuses a contract method that services.ts does not implement', async () => {
    const dir = scratchCopy('unimplemented');
    const contract = path.join(dir, 'electron/contract.ts');
    const source = fs.readFileSync(contract, 'utf8');
    const marker = 'signOut(): Promise<Result<AppStatus>>;';
    expect(source).toContain(marker);
    fs.writeFileSync(contract, source.replace(marker, `${marker}\n  calibrateTorqueWrench(): Promise<Result<void>>;`));
    const result = await typecheck(dir);
    expect(result.ok).toBe(false);
    expect(result.output).toMatch(/electron\/core\/services\.ts.*calibrateTorqueWrench/);
  });
});
