import { safeStorage } from 'electron';
import type { SecretCodec } from '../core/services.ts';

/** The API token at rest: sealed with the OS keychain through Electron's safeStorage. */
export const safeStorageCodec: SecretCodec = {
  kind: 'safeStorage',
  seal(plain) {
    if (!safeStorage.isEncryptionAvailable()) {
      throw new Error('The system keychain is not available, so the sign-in cannot be kept safely');
    }
    return safeStorage.encryptString(plain);
  },
  open: (sealed) => safeStorage.decryptString(sealed),
};
