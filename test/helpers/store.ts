import path from 'node:path';
import { Store } from '../../electron/core/db/store.ts';

/** A Store on real files in `dir`: its database, and its pictures database beside it in `media/`. */
export function openTestStore(dir: string, log: (message: string) => void = () => {}): Store {
  return new Store({
    file: path.join(dir, 'fieldguide.sqlite'),
    picturesFile: path.join(dir, 'media', 'pictures.sqlite'),
    log,
  });
}
