import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The house rules on size (DESIGN.md, section 1), checked by a machine: files small and single-purpose, a
// median near 100 lines, none of electron/core past 400 (a file that grows past it holds more than one
// job: split it by role, never fold its lines), the composition root `createServices` under 150 lines as
// Prettier lays it out (one option a line: the 74 packed lines that met the former 80 are 140 now), and no
// source line over 120 columns (Prettier breaks code there; comments and strings are broken by hand).
const root = path.resolve(import.meta.dirname, '../..');
const core = path.join(root, 'electron', 'core');

function sources(dir: string, extensions = ['.ts']): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    // Dot folders (test/.tmp) are what tests leave behind. Fixtures' code is checked, their data (JSON) is not.
    if (entry.isDirectory()) return entry.name.startsWith('.') ? [] : sources(full, extensions);
    return extensions.some((extension) => entry.name.endsWith(extension)) ? [full] : [];
  });
}

const MAX_COLUMNS = 120;
const LINE_CHECKED = ['electron', 'src', 'server', 'test', 'scripts'];
const SOURCE_KINDS = ['.ts', '.vue', '.mjs', '.cjs', '.js', '.css', '.html'];

const lines = (file: string): string[] => fs.readFileSync(file, 'utf8').split('\n');

describe('the size rules of the core', () => {
  it('no file of electron/core is over 400 lines, and their median is near 100', () => {
    const files = sources(core);
    expect(files.length).toBeGreaterThan(50);
    const counts = files.map((file) => [path.relative(root, file), lines(file).length - 1] as const);
    expect(counts.filter(([, count]) => count > 400)).toEqual([]);
    const sorted = counts.map(([, count]) => count).sort((a, b) => a - b);
    expect(sorted[Math.floor(sorted.length / 2)]).toBeLessThanOrEqual(120);
  });

  it(`no line of ${LINE_CHECKED.join(', ')} is over ${MAX_COLUMNS} columns, fixtures' code included`, () => {
    const files = LINE_CHECKED.flatMap((dir) => sources(path.join(root, dir), SOURCE_KINDS));
    expect(files.length).toBeGreaterThan(500);
    // A column is a character: é or — is one, as an editor shows it.
    const over = files.flatMap((file) =>
      lines(file).flatMap((line, index) => {
        const columns = [...line].length;
        return columns > MAX_COLUMNS ? [`${path.relative(root, file)}:${index + 1}: ${columns} columns`] : [];
      }),
    );
    expect(over).toEqual([]);
  });

  it('createServices is under 150 lines', () => {
    const text = lines(path.join(core, 'services.ts'));
    const start = text.findIndex((line) => line.startsWith('export function createServices('));
    const end = text.findIndex((line, index) => index > start && line === '}');
    expect(start).toBeGreaterThan(0);
    expect(end - start).toBeLessThan(150);
  });
});
