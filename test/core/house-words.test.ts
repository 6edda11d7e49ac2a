import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

// One word for the machine the app runs on, in everything a technician reads: "this computer" (it may be a
// laptop, a tablet or a workshop PC). The screens once said "this laptop" in 35 places and "this computer"
// in the others, sometimes on the same screen. Comments are the code's, and may say what they like.
const root = path.resolve(import.meta.dirname, '../..');

function sources(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) return sources(full);
    return /\.(ts|vue)$/.test(entry.name) ? [full] : [];
  });
}

const comment = (line: string): boolean => /^\s*(\/\/|\*|\/\*|<!--)/.test(line);

describe('the words of the screens', () => {
  it('call the machine "this computer", never "laptop", in what a technician reads', () => {
    const files = ['src', 'electron'].flatMap((dir) => sources(path.join(root, dir)));
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\blaptop\b/i.test(line) && !comment(line)
            ? [`${path.relative(root, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
  });

  it('name what frees a full disk in one place only (electron/shared/disk-words.ts)', () => {
    // The core said "empty the trash", the sync centre "the bin": a second wording is a second home.
    const home = path.join(root, 'electron/shared/disk-words.ts');
    const files = ['src', 'electron'].flatMap((dir) => sources(path.join(root, dir))).filter((file) => file !== home);
    const found = files.flatMap((file) =>
      fs
        .readFileSync(file, 'utf8')
        .split('\n')
        .flatMap((line, index) =>
          /\b(trash|recycle bin|the bin)\b/i.test(line) && !comment(line)
            ? [`${path.relative(root, file)}:${index + 1}: ${line.trim()}`]
            : [],
        ),
    );
    expect(found).toEqual([]);
    expect(fs.readFileSync(home, 'utf8')).toMatch(/Recycle Bin or Trash/);
  });
});
