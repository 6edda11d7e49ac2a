import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { chooseTokenSealing } from '../../electron/main/keychain.ts';
import { developmentUrl } from '../../electron/main/window-options.ts';
import { makeTempDir } from '../helpers/tmp.ts';

// Issue 14, attack 8: the packaged app's own rules. Electron cannot be launched here, so the rules are
// pure functions of electron/main, tested as they are, and the main process is checked to use them.
const root = path.resolve(import.meta.dirname, '../..');
const mainSource = fs.readFileSync(path.join(root, 'electron/main/index.ts'), 'utf8');

const storage = (backend: string, available = true) => ({
  isEncryptionAvailable: () => available,
  getSelectedStorageBackend: () => backend as 'basic_text',
  encryptString: (plain: string) => Buffer.from(`os-sealed:${plain}`),
  decryptString: (sealed: Buffer) => sealed.toString().replace('os-sealed:', ''),
});

describe('the packaged app', () => {
  it('loads a development server named by ELECTRON_RENDERER_URL only when it is not packaged', () => {
    expect(developmentUrl('http://localhost:5173', false)).toBe('http://localhost:5173');
    expect(developmentUrl('https://attacker.example', true)).toBeUndefined();
    expect(mainSource).toContain('developmentUrl(process.env.ELECTRON_RENDERER_URL, app.isPackaged)');
    expect(mainSource.match(/process\.env\.ELECTRON_RENDERER_URL/g)).toHaveLength(1);
  });

  it(
    'uses the OS keychain when there is one, ' +
      "and on Linux's basic_text backend seals with a key file and tells the technician",
    () => {
      const folder = makeTempDir('keychain');
      try {
        const keyFile = path.join(folder.dir, 'keys', 'token.key');
        const sound = chooseTokenSealing(storage('gnome_libsecret'), 'linux', keyFile);
        expect(sound.warning).toBeNull();
        expect(sound.codec.seal('tok').toString()).toBe('os-sealed:tok');

        for (const weak of [
          chooseTokenSealing(storage('basic_text'), 'linux', keyFile),
          chooseTokenSealing(storage('kwallet', false), 'linux', keyFile),
        ]) {
          expect(weak.warning).toContain('no keychain');
          const sealed = weak.codec.seal('the-token');
          expect(sealed.includes(Buffer.from('the-token'))).toBe(false);
          expect(weak.codec.open(sealed)).toBe('the-token');
        }
        expect(fs.statSync(keyFile).mode & 0o777).toBe(0o600);
        expect(chooseTokenSealing(storage('basic_text'), 'darwin', keyFile).warning).toBeNull();
        expect(mainSource).toMatch(/if \(sealing\.warning\)\s+void dialog\.showMessageBox/);
      } finally {
        folder.remove();
      }
    },
  );
});
