import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// The house rules on size (DESIGN.md, section 1), checked by a machine: files small and single-purpose, a
// median near 100 lines, none of electron/core past 400 (a file that grows past it holds more than one
// job: split it by role, never fold its lines), and the composition root `createServices` under 80 lines.
const root = path.resolve(import.meta.dirname, '../..');
const core = path.join(root, 'electron', 'core');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return entry.name.endsWith('.ts') ? [full] : [];
  });
}

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

  it('createServices is under 80 lines', () => {
    const text = lines(path.join(core, 'services.ts'));
    const start = text.findIndex((line) => line.startsWith('export function createServices('));
    const end = text.findIndex((line, index) => index > start && line === '}');
    expect(start).toBeGreaterThan(0);
    expect(end - start).toBeLessThan(80);
  });
});
