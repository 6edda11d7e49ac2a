import { createCipheriv, createDecipheriv, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import type { SecretCodec } from './secret-store.ts';

/**
 * At-rest protection for the API token where no OS keychain is at hand (the web shell, and the desktop
 * app on a Linux desktop whose safeStorage has only its `basic_text` backend):
 * AES-256-GCM with a key kept in a file of its own, outside the data folder, readable by this OS user
 * only (0600 in a 0700 folder). A copied or backed-up data folder, or a file left behind, then holds no
 * usable token. It does not protect from a program running as the same OS user, which can read the key
 * too: the OS keychain (safeStorage) is what the desktop app has for that.
 */
export function keyFileCodec(keyFile: string): SecretCodec {
  const key = (): Buffer => {
    try {
      const existing = fs.readFileSync(keyFile);
      if (existing.length === 32) return existing;
    } catch {
      // No key yet: made below.
    }
    fs.mkdirSync(path.dirname(keyFile), { recursive: true, mode: 0o700 });
    const made = randomBytes(32);
    fs.writeFileSync(keyFile, made, { mode: 0o600 });
    return made;
  };
  return {
    kind: 'aes-256-gcm-keyfile',
    seal(plain) {
      const iv = randomBytes(12);
      const cipher = createCipheriv('aes-256-gcm', key(), iv);
      const body = Buffer.concat([cipher.update(plain, 'utf8'), cipher.final()]);
      return Buffer.concat([iv, cipher.getAuthTag(), body]);
    },
    open(sealed) {
      const decipher = createDecipheriv('aes-256-gcm', key(), sealed.subarray(0, 12));
      decipher.setAuthTag(sealed.subarray(12, 28));
      return Buffer.concat([decipher.update(sealed.subarray(28)), decipher.final()]).toString('utf8');
    },
  };
}

/** Where the web shell keeps its key: the user's config folder, never inside a data folder. */
export function defaultKeyFile(home: string, env: NodeJS.ProcessEnv = process.env): string {
  const config =
    env.XDG_CONFIG_HOME && path.isAbsolute(env.XDG_CONFIG_HOME) ? env.XDG_CONFIG_HOME : path.join(home, '.config');
  return path.join(config, 'fieldguide', 'web-shell.key');
}
