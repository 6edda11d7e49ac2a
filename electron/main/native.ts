import fs from 'node:fs';
import path from 'node:path';

/**
 * better-sqlite3 built for Electron's ABI lives apart from the copy npm built for Node, so tests (Node)
 * and the app (Electron) both work from one checkout. scripts/native-electron.mjs makes it;
 * electron-builder ships it as an extra resource.
 */
export function electronNativeBinding(appPath: string, resourcesPath: string, packaged: boolean): string {
  const file = packaged
    ? path.join(resourcesPath, 'native', 'better_sqlite3.node')
    : path.join(appPath, '.native', 'electron', 'better_sqlite3.node');
  if (!fs.existsSync(file)) {
    throw new Error(
      `better-sqlite3 for Electron is missing at ${file}. Run "node scripts/native-electron.mjs" ` +
        '(npm start and npm run dist run it for you).',
    );
  }
  return file;
}
