import fs from 'node:fs';
import path from 'node:path';
import { ownerFolder } from '../db/owner-only.ts';

/** How a secret is sealed at rest: Electron's safeStorage in the desktop app, see electron/main. */
export interface SecretCodec {
  /** A short name recorded beside the secret, so a file sealed by another codec is not misread. */
  readonly kind: string;
  seal(plain: string): Buffer;
  open(sealed: Buffer): string;
}

/**
 * Keeps one secret (the API token) in a file of its own, sealed by a codec, written atomically with
 * mode 0600. A file that cannot be opened (another codec, another OS user's key, corruption) reads as
 * "no token": the technician signs in again, nothing crashes.
 */
export class FileSecretStore {
  constructor(
    private readonly file: string,
    private readonly codec: SecretCodec,
  ) {}

  read(): string | null {
    let data: Buffer;
    try {
      data = fs.readFileSync(this.file);
    } catch {
      return null;
    }
    const separator = data.indexOf(0x0a);
    if (separator < 0 || data.subarray(0, separator).toString('utf8') !== this.codec.kind) return null;
    try {
      const token = this.codec.open(data.subarray(separator + 1));
      return token.length > 0 ? token : null;
    } catch {
      return null;
    }
  }

  write(secret: string): void {
    const sealed = Buffer.concat([Buffer.from(`${this.codec.kind}\n`, 'utf8'), this.codec.seal(secret)]);
    ownerFolder(path.dirname(this.file));
    const temp = `${this.file}.${process.pid}.tmp`;
    fs.writeFileSync(temp, sealed, { mode: 0o600 });
    fs.renameSync(temp, this.file);
  }

  clear(): void {
    fs.rmSync(this.file, { force: true });
  }
}

/**
 * For the web shell and tests only: the token is stored unsealed (mode 0600). The desktop app always
 * uses safeStorage.
 */
export const plainCodec: SecretCodec = {
  kind: 'plain',
  seal: (plain) => Buffer.from(plain, 'utf8'),
  open: (sealed) => sealed.toString('utf8'),
};
