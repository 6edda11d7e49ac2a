import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import {
  decodeFile,
  keptBytes,
  keptBytesRead,
  keptFileName,
  keptFileSound,
} from '../../electron/core/worklog/attachments.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// The three readers of a kept file (whole and at once; on the thread pool for an upload; in pieces for the
// Finish review) answer alike, for a sound file and for each way the disk can change it.
const tmp = makeTempDir('kept-file');
afterAll(() => tmp.remove());

/** A kept file of `size` bytes (over several of the readers' pieces), changed on the disk by `change`. */
function kept(name: string, size: number, change: (bytes: Buffer) => Buffer | null) {
  const bytes = Buffer.alloc(size);
  for (let i = 0; i < size; i++) bytes[i] = (i * 31) & 0xff;
  const digest = createHash('sha256').update(bytes).digest('hex');
  const file = keptFileName('00000000-0000-4000-8000-00000000000' + name, digest, '.mp4');
  const changed = change(Buffer.from(bytes));
  if (changed) fs.writeFileSync(path.join(tmp.dir, file), changed);
  return { file, bytes: size };
}

const SIZE = 9 * 1024 * 1024 + 17;
const cases = [
  ['sound', kept('1', SIZE, (b) => b), 'ok'],
  ['a byte changed', kept('2', SIZE, (b) => ((b[SIZE - 3]! ^= 1), b)), 'damaged'],
  ['cut short', kept('3', SIZE, (b) => b.subarray(0, SIZE - 1)), 'damaged'],
  ['grown', kept('4', SIZE, (b) => Buffer.concat([b, Buffer.from([0])])), 'damaged'],
  ['gone', kept('5', SIZE, () => null), 'missing'],
] as const;

describe('a kept file read back', () => {
  it.each(cases)('%s: the same answer from each reader', async (_, attachment, answer) => {
    const problem = (read: { ok: boolean; problem?: string }) => (read.ok ? 'ok' : read.problem);
    expect([
      problem(keptBytes(tmp.dir, attachment)),
      problem(await keptBytesRead(tmp.dir, attachment)),
      problem(await keptFileSound(tmp.dir, attachment)),
    ]).toEqual([answer, answer, answer]);
    const read = await keptBytesRead(tmp.dir, attachment);
    if (read.ok) expect(read.bytes.equals(fs.readFileSync(path.join(tmp.dir, attachment.file)))).toBe(true);
  });
});

describe('a file given as base64', () => {
  it('is decoded and hashed a piece at a time, as it would be whole', async () => {
    for (const size of [1, 2, 3, 6 * 1024 * 1024, 6 * 1024 * 1024 + 1, 13 * 1024 * 1024 + 2]) {
      const bytes = Buffer.alloc(size);
      for (let i = 0; i < size; i++) bytes[i] = (i * 7 + size) & 0xff;
      const { pieces, size: decoded, digest } = await decodeFile(bytes.toString('base64'));
      expect([Buffer.concat(pieces).equals(bytes), decoded]).toEqual([true, size]);
      expect(digest).toBe(createHash('sha256').update(bytes).digest('hex'));
    }
  });

  it('is refused when it is not base64, in any piece', async () => {
    const piece = 'A'.repeat(8 * 1024 * 1024);
    for (const text of ['not base64!', `${piece}A=A`, `${piece.slice(4)}AA==${piece}`, `${piece}${piece}@`])
      await expect(decodeFile(text)).rejects.toThrow('The file could not be read: it is not base64.');
  });
});
