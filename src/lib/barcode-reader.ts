import { prepareZXingModule, readBarcodes, type ReaderOptions } from 'zxing-wasm/reader';
import readerWasm from 'zxing-wasm/reader/zxing_reader.wasm?url';

/**
 * QR codes and the common 1-D barcodes read from a camera frame, offline: zxing-wasm's reader, whose
 * .wasm Vite bundles with the app. Left to itself the library fetches the .wasm from a CDN; `locateFile`
 * points it at the app's own copy, so a laptop without a network reads codes all the same.
 */
prepareZXingModule({
  overrides: { locateFile: (file: string, prefix: string) => (file.endsWith('.wasm') ? readerWasm : prefix + file) },
});

const OPTIONS: ReaderOptions = {
  formats: ['QRCode', 'MicroQRCode', 'DataMatrix', 'AllRetail', 'Code128', 'Code39', 'Code93', 'Codabar', 'ITF'],
  tryHarder: true,
  maxNumberOfSymbols: 1,
};

/** The text of the first code in the picture, or null when it holds none that reads. */
export async function readCode(picture: ImageData): Promise<string | null> {
  const [found] = await readBarcodes(picture, OPTIONS);
  return found && found.isValid && found.text.trim() ? found.text : null;
}
