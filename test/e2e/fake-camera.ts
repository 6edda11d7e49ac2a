import fs from 'node:fs';
import QRCode from 'qrcode';

/**
 * A video file for Chromium's fake camera (`--use-file-for-fake-video-capture`) showing the QR code of
 * `text` on white, as a printed code held up to a laptop's webcam. Y4M is raw frames behind a one-line
 * header: the luma plane is the picture (black modules on white), the two chroma planes are neutral grey.
 */
export function writeQrY4m(file: string, text: string, size = { width: 640, height: 480 }): void {
  const { modules } = QRCode.create(text, { errorCorrectionLevel: 'M' });
  const quiet = 4;
  const scale = Math.floor(Math.min(size.width, size.height) / (modules.size + 2 * quiet));
  const side = scale * modules.size;
  const [left, top] = [Math.floor((size.width - side) / 2), Math.floor((size.height - side) / 2)];
  const luma = Buffer.alloc(size.width * size.height, 235);
  for (let y = 0; y < side; y++) {
    for (let x = 0; x < side; x++) {
      if (modules.get(Math.floor(y / scale), Math.floor(x / scale))) luma[(top + y) * size.width + left + x] = 16;
    }
  }
  const chroma = Buffer.alloc((size.width / 2) * (size.height / 2) * 2, 128);
  const header = `YUV4MPEG2 W${size.width} H${size.height} F10:1 Ip A1:1 C420jpeg\n`;
  const frame = Buffer.concat([Buffer.from('FRAME\n'), luma, chroma]);
  fs.writeFileSync(file, Buffer.concat([Buffer.from(header), frame, frame]));
}
