import fs from 'node:fs';
import path from 'node:path';

const root = path.resolve(import.meta.dirname, '../..');

/** The renderer as `electron-vite build` writes it. */
export const rendererDir = (): string => path.join(root, 'out', 'renderer');

export function appVersion(): string {
  const pkg = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8')) as { version: string };
  return pkg.version;
}
