/** A picture's width and height in pixels. */
export interface PictureSize {
  width: number;
  height: number;
}

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** JPEG's start-of-frame markers, which carry the frame's size: C0..CF but DHT (C4), JPG (C8) and DAC (CC). */
const isStartOfFrame = (marker: number) => marker >= 0xc0 && marker <= 0xcf && ![0xc4, 0xc8, 0xcc].includes(marker);

function jpegSize(head: Buffer): PictureSize | undefined {
  let at = 2;
  while (at + 9 < head.length) {
    if (head[at] !== 0xff) return undefined;
    const marker = head[at + 1]!;
    // A fill byte before a marker, and the markers that stand alone (RSTn, TEM).
    if (marker === 0xff) at += 1;
    else if ((marker >= 0xd0 && marker <= 0xd7) || marker === 0x01) at += 2;
    else if (isStartOfFrame(marker)) return { height: head.readUInt16BE(at + 5), width: head.readUInt16BE(at + 7) };
    else at += 2 + head.readUInt16BE(at + 2);
  }
  return undefined;
}

function webpSize(head: Buffer): PictureSize | undefined {
  const chunk = head.toString('latin1', 12, 16);
  if (chunk === 'VP8 ' && head.length >= 30)
    return { width: head.readUInt16LE(26) & 0x3fff, height: head.readUInt16LE(28) & 0x3fff };
  if (chunk === 'VP8L' && head.length >= 25) {
    const bits = head.readUInt32LE(21);
    return { width: (bits & 0x3fff) + 1, height: ((bits >>> 14) & 0x3fff) + 1 };
  }
  if (chunk === 'VP8X' && head.length >= 30)
    return { width: head.readUIntLE(24, 3) + 1, height: head.readUIntLE(27, 3) + 1 };
  return undefined;
}

/**
 * The size of a PNG, JPEG, GIF, WebP or BMP picture, read from the first bytes of its file (its header: no
 * decoding), or undefined for another kind or one these bytes do not tell (a JPEG whose frame comes later).
 */
export function pictureSize(head: Buffer): PictureSize | undefined {
  if (head.length >= 24 && head.subarray(0, 8).equals(PNG_SIGNATURE))
    return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
  if (head.length >= 4 && head[0] === 0xff && head[1] === 0xd8 && head[2] === 0xff) return jpegSize(head);
  if (head.length >= 10 && head.toString('latin1', 0, 4) === 'GIF8')
    return { width: head.readUInt16LE(6), height: head.readUInt16LE(8) };
  if (head.length >= 16 && head.toString('latin1', 0, 4) === 'RIFF' && head.toString('latin1', 8, 12) === 'WEBP')
    return webpSize(head);
  if (head.length >= 26 && head.toString('latin1', 0, 2) === 'BM' && head.readUInt32LE(14) >= 40)
    return { width: Math.abs(head.readInt32LE(18)), height: Math.abs(head.readInt32LE(22)) };
  return undefined;
}
