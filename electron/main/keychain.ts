import type { SafeStorage } from 'electron';
import { keyFileCodec, type SecretCodec } from '../core/services.ts';

export interface TokenSealing {
  codec: SecretCodec;
  /** What the technician is told once when the OS keychain is weak or missing; null when it is sound. */
  warning: string | null;
}

/**
 * How the API token is sealed at rest. The OS keychain through safeStorage when it is real; on a Linux
 * desktop where safeStorage falls back to its `basic_text` backend (a hard-coded key: no protection at
 * all) or has no encryption, the token is sealed with a key file outside the data folder instead, and
 * the technician is told — never stored silently in the clear.
 */
export function chooseTokenSealing(
  storage: Pick<SafeStorage, 'isEncryptionAvailable' | 'encryptString' | 'decryptString' | 'getSelectedStorageBackend'>,
  platform: NodeJS.Platform,
  keyFile: string,
): TokenSealing {
  const weak =
    !storage.isEncryptionAvailable() ||
    (platform === 'linux' && ['basic_text', 'unknown'].includes(storage.getSelectedStorageBackend()));
  if (weak) {
    return {
      codec: keyFileCodec(keyFile),
      warning:
        'This computer has no keychain Fieldguide can use, so your sign-in is sealed with a key kept in your ' +
        'user folder. Anyone who can use this computer account could read it. Set up a keyring (GNOME Keyring ' +
        'or KWallet) and sign in again for stronger protection.',
    };
  }
  return {
    codec: {
      kind: 'safeStorage',
      seal: (plain) => storage.encryptString(plain),
      open: (sealed) => storage.decryptString(sealed),
    },
    warning: null,
  };
}
