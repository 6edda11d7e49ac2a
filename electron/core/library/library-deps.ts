import type { ApiTransport } from '../api/transport.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { Store } from '../db/store.ts';
import type { SiteSearchModule } from './library-search.ts';

/** What the library is built with (library-service.ts). */
export interface LibraryDeps {
  store: Store;
  mediaDir: string;
  /** The signed-in transport; throws `unauthorized` when nobody is signed in. */
  transport: () => ApiTransport;
  online: () => boolean;
  /** Who reads (the current technician, or null): a private guide is only for admins and its author. */
  reader: () => GuideReader | null;
  onNetworkError: () => void;
  log: (message: string) => void;
  now: () => number;
  /** Disk kept free for the technician's work: the media budget never takes it (default 200 MB). */
  reserveBytes?: number;
  /** Who reads now, as their language choice is kept (the technician's key; languages.ts). */
  who?: () => string;
  /** The site's search, learned like a module (sync/site-modules.ts): whether it has one, and at which endpoint. */
  search?: SiteSearchModule;
}
