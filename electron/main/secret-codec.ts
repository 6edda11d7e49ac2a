import path from 'node:path';
import { app, safeStorage } from 'electron';
import { chooseTokenSealing, type TokenSealing } from './keychain.ts';

/** The API token at rest: the OS keychain through safeStorage, or a key file where there is none (keychain.ts). */
export function tokenSealing(): TokenSealing {
  return chooseTokenSealing(
    safeStorage,
    process.platform,
    path.join(app.getPath('appData'), 'Fieldguide Keys', 'token.key'),
  );
}
