import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// Issue 11's house rules on size, checked by a machine: no file of electron/core over 250 lines (a file
// that grows past it holds more than one job), and the composition root `createServices` under 80 lines.
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
  it('no file of electron/core is over 250 lines', () => {
    const files = sources(core);
    expect(files.length).toBeGreaterThan(50);
    const over = files.map((file) => [path.relative(root, file), lines(file).length - 1] as const).filter(([, count]) => count > 250);
    expect(over).toEqual([]);
  });

  it('createServices is under 80 lines', () => {
    const text = lines(path.join(core, 'services.ts'));
    const start = text.findIndex((line) => line.startsWith('export function createServices('));
    const end = text.findIndex((line, index) => index > start && line === '}');
    expect(start).toBeGreaterThan(0);
    expect(end - start).toBeLessThan(80);
  });
});
