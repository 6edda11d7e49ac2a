import fs from 'node:fs';
import Database from 'better-sqlite3';

/**
 * Damages the pictures database as a flipped bit in a page pointer does: the cell of one picture (the
 * victim) is made to point at the first overflow page of another (the holder), so both rows name the same
 * pages. Every page reads back without error; the victim reads as wrong bytes. Reads the file's format as
 * https://www.sqlite.org/fileformat2.html describes it (table leaf cells, overflow pages).
 */
export function crossLinkPicture(file: string): { victim: string; holder: string } {
  const db = new Database(file, { readonly: true });
  let pictures: { name: string; data: Buffer }[];
  try {
    pictures = db.prepare('SELECT name, data FROM picture').all() as { name: string; data: Buffer }[];
  } finally {
    db.close();
  }
  const bytes = fs.readFileSync(file);
  const pageSize = bytes.readUInt16BE(16) === 1 ? 65536 : bytes.readUInt16BE(16);
  const usable = pageSize - bytes[20]!;
  const pages = Math.floor(bytes.length / pageSize);
  const pageAt = (page: number): number => (page - 1) * pageSize;

  // Each picture's first overflow page: the page whose content (past its 4-byte next pointer) is the
  // earliest part of that picture's bytes.
  const first = new Map<string, { page: number; offset: number }>();
  for (let page = 2; page <= pages; page++) {
    const probe = bytes.subarray(pageAt(page) + 4, pageAt(page) + 4 + 64);
    for (const { name, data } of pictures) {
      const offset = data.indexOf(probe);
      const known = first.get(name);
      if (offset >= 0 && (!known || offset < known.offset)) first.set(name, { page, offset });
    }
  }
  // The holder is the largest: the victim's row, as long as it says, reads only pages of the holder's chain.
  // The victim spans a few pages (a third of the way up by size), as most pictures do.
  const chained = pictures.filter(({ name }) => first.has(name)).sort((a, b) => a.data.length - b.data.length);
  if (chained.length < 2) throw new Error('fewer than two pictures span overflow pages');
  const victim = chained[Math.floor(chained.length / 3)]!.name;
  const holder = chained[chained.length - 1]!.name;
  const from = first.get(victim)!.page;
  const to = first.get(holder)!.page;

  const varint = (at: number): [value: number, length: number] => {
    let value = 0;
    for (let i = 0; i < 8; i++) {
      const byte = bytes[at + i]!;
      value = value * 128 + (byte & 0x7f);
      if ((byte & 0x80) === 0) return [value, i + 1];
    }
    return [value * 256 + bytes[at + 8]!, 9];
  };
  let pointers = 0;
  for (let page = 2; page <= pages; page++) {
    const at = pageAt(page);
    if (bytes[at] !== 0x0d) continue; // a table b-tree leaf
    for (let cell = 0; cell < bytes.readUInt16BE(at + 3); cell++) {
      const start = at + bytes.readUInt16BE(at + 8 + 2 * cell);
      const [payload, payloadLength] = varint(start);
      const [, rowidLength] = varint(start + payloadLength);
      // How much of the payload the cell keeps on its page (the file format's rule); the rest overflows.
      const most = usable - 35;
      if (payload <= most) continue;
      const least = Math.floor(((usable - 12) * 32) / 255) - 23;
      const fit = least + ((payload - least) % (usable - 4));
      const pointer = start + payloadLength + rowidLength + (fit <= most ? fit : least);
      if (bytes.readUInt32BE(pointer) !== from) continue;
      bytes.writeUInt32BE(to, pointer);
      pointers++;
    }
  }
  if (pointers !== 1) throw new Error(`expected one cell to point at page ${from}, found ${pointers}`);
  fs.writeFileSync(file, bytes);
  return { victim, holder };
}
