import fs from 'node:fs';
import type { Locator, Page } from 'playwright-core';
import QRCode from 'qrcode';

/**
 * Video files for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing a printed code on
 * white, as a label held up to a laptop's webcam. Y4M is raw frames behind a one-line header: the luma
 * plane is the picture (black on white), the two chroma planes are neutral grey.
 */
const SIZE = { width: 640, height: 480 };
const [WHITE, BLACK] = [235, 16];

function writeY4m(file: string, luma: Buffer): void {
  const chroma = Buffer.alloc((SIZE.width / 2) * (SIZE.height / 2) * 2, 128);
  const header = `YUV4MPEG2 W${SIZE.width} H${SIZE.height} F10:1 Ip A1:1 C420jpeg\n`;
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(header), frame, frame]));
}

/** The QR code of `text`, as the demo's page of printed codes makes it (the same encoder, qrcode). */
export function writeQrY4m(file: string, text: string): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const scale = Math.floor(Math.min(SIZE.width, SIZE.height) / (modules.size + 2 * quiet));
  const side = scale * modules.size;
  const [left, top] = [Math.floor((SIZE.width - side) / 2), Math.floor((SIZE.height - side) / 2)];
  const luma = Buffer.alloc(SIZE.width * SIZE.height, WHITE);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (modules.get(Math.floor(y / scale), Math.floor(x / scale))) luma[(top + y) * SIZE.width + left + x] = BLACK;
    }
  }
  writeY4m(file, luma);
}

/** Code 39's digits and its start/stop `*`: nine elements each, bar first, 1 for a wide one. */
const CODE39: Record<string, string> = {
  '0': '000110100',
  '1': '100100001',
  '2': '001100001',
  '3': '101100000',
  '4': '000110001',
  '5': '100110000',
  '6': '001110000',
  '7': '000100101',
  '8': '100100100',
  '9': '001100100',
  '*': '010010100',
};

/** A Code 39 barcode of `digits` (a 1-D label, as on a machine's asset tag). */
export function writeCode39Y4m(file: string, digits: string): void {
  const [narrow, wide] = [4, 10];
  const bars: { from: number; to: number }[] = [];
  let x = 0;
  for (const char of `*${digits}*`) {
    const pattern = CODE39[char];
    if (!pattern) throw new Error(`Code 39 here takes digits only, not ${char}`);
    [...pattern].forEach((bit, i) => {
      const width = bit === '1' ? wide : narrow;
      if (i % 2 === 0) bars.push({ from: x, to: x + width });
      x += width;
    });
    x += narrow;
  }
  const left = Math.floor((SIZE.width - x) / 2);
  const [top, bottom] = [140, 340];
  const luma = Buffer.alloc(SIZE.width * SIZE.height, WHITE);
  for (let y = top; y < bottom; y++) {
    for (const bar of bars) luma.fill(BLACK, y * SIZE.width + left + bar.from, y * SIZE.width + left + bar.to);
  }
  writeY4m(file, luma);
}

/**
 * A photo taken with the camera of an Image field (`field`, in a Chromium started with a fake camera):
 * its camera opened, its live view's first picture waited for, Take pressed.
 */
export async function takeCameraPhoto(page: Page, field: Locator): Promise<void> {
  await field.getByTestId('camera-open').click();
  await page.waitForFunction(
    () => ((document.querySelector('[data-testid="camera-live"]') as HTMLVideoElement | null)?.videoWidth ?? 0) > 0,
    null,
    { timeout: 15_000 },
  );
  await field.getByTestId('camera-take').click();
}
