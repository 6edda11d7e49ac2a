import type {
  CategoryNode,
  GuideDetail,
  GuideSummary,
  LibraryPage,
  LibraryQuery,
  SearchQuery,
  SearchResults,
  TagCount,
} from '../../contract.ts';
import { SHOWN_VARIANTS } from '../../shared/media.ts';
import { appFailureOf } from '../api/app-failure.ts';
import { classify, unknownKind } from '../api/failure.ts';
import type { ApiTransport } from '../api/transport.ts';
import { AppFailure } from '../result.ts';
import { MediaServing, type MediaAnswer, type MediaRequest } from './media-serving.ts';
import { MediaStore } from './media-store.ts';
import { StoredMedia, type StoredMediaContent } from './stored-media.ts';
import { PictureQualities } from './picture-quality.ts';
import { readGuideFromSite, SiteReadMedia } from './site-reading.ts';
import { Languages } from './languages.ts';
import { Display } from './display.ts';
import { inLanguage } from './translation.ts';
import { LibrarySearch, type SiteSearchModule } from './library-search.ts';
import type { LibraryDeps } from './library-deps.ts';
import { LibraryStorage } from './storage-settings.ts';

export type { StoredMediaContent };

export type { LibraryDeps, SiteSearchModule };

/**
 * The offline library: reading and searching what is stored; what is kept (scope) and in how much room
 * (budget) are its storage settings (storage-settings.ts). It is the site's, shared by everyone on this
 * laptop; what the current technician may not read (private guides of others) is neither listed, opened,
 * searched nor served to them.
 */
export class LibraryService {
  readonly mediaStore: MediaStore;
  /** The picture quality kept for zoom, and what each would take. */
  readonly pictures: PictureQualities;
  /** What is kept and in how much room: scope, budget, usage. */
  readonly storage: LibraryStorage;
  /** The site's languages and each technician's choice among them. */
  readonly languages: Languages;
  /** The screen videos are kept for. */
  readonly display: Display;
  readonly #siteRead = new SiteReadMedia();
  readonly #search: LibrarySearch;
  readonly #serving: MediaServing;
  readonly #stored: StoredMedia;

  constructor(private readonly deps: LibraryDeps) {
    const { store } = deps;
    this.mediaStore = new MediaStore(deps.mediaDir, store.pictures);
    this.storage = new LibraryStorage({
      store,
      mediaStore: this.mediaStore,
      mediaDir: deps.mediaDir,
      quality: () => this.pictures.quality(),
      ...(deps.reserveBytes === undefined ? {} : { reserveBytes: deps.reserveBytes }),
    });
    this.pictures = new PictureQualities({
      store,
      transport: deps.transport,
      online: deps.online,
      budget: () => ({ budgetBytes: this.storage.disk.mediaBudget(), mediaBytes: store.media.usage().bytes }),
    });
    this.languages = new Languages({
      settings: store.settings,
      reader: deps.who ?? (() => 'public'),
      durable: (write) => store.durable(write),
    });
    this.display = new Display(store.settings, (write) => store.replaceable(write));
    this.#search = new LibrarySearch({ ...deps, reading: () => this.languages.reading() });
    const { reader, now, log } = deps;
    this.#stored = new StoredMedia({ store, mediaStore: this.mediaStore, reader, now, log });
    this.#serving = new MediaServing({
      resolve: (url) => this.resolveMedia(url),
      intact: (url, content) => this.#stored.intact(url, content),
      known: (url) => this.#siteRead.has(url) || store.media.isReferenced(url),
      online: deps.online,
      transport: deps.transport,
      onNetworkError: deps.onNetworkError,
    });
    this.mediaStore.clearPartial();
  }

  list(query: LibraryQuery): LibraryPage {
    const { store } = this.deps;
    const categories = query.category ? store.categories.withDescendants(query.category) : null;
    return store.guides.list(query, categories, this.deps.reader());
  }

  categoryTree(): CategoryNode[] {
    return this.deps.store.categories.tree(this.deps.reader());
  }

  tags(): TagCount[] {
    return this.deps.store.guides.tags(this.deps.reader());
  }

  /**
   * A stored guide; a guide kept as a summary only is read from the site while it answers (and not kept:
   * its media come through the media route, see #siteRead). Offline, or when the site does not answer,
   * the failure says so and carries `offline: 'summary'`: the renderer then shows what is kept (summary()).
   */
  async guide(guideid: number, revisionid?: number): Promise<GuideDetail> {
    const { guides } = this.deps.store;
    // A guide the site deleted under an unfinished session: the revision the session follows is still kept.
    const kept =
      revisionid !== undefined && !guides.getListItem(guideid) ? guides.getRevision(guideid, revisionid) : undefined;
    if (kept) return this.#inLanguage(kept);
    if (!guides.readable(guideid, this.deps.reader())) throw notInLibrary(guideid);
    const detail =
      (revisionid !== undefined ? guides.getRevision(guideid, revisionid) : undefined) ?? guides.getDetail(guideid);
    if (detail) return this.#inLanguage(detail);
    const summary = guides.getListItem(guideid);
    if (!summary) throw notInLibrary(guideid);
    const needsSite = { guideid, offline: 'summary' };
    const transport = this.deps.online() ? this.#signedIn() : null;
    if (transport) {
      try {
        const room = Math.max(0, this.storage.disk.mediaBudget() - this.deps.store.media.usage().bytes);
        const fit = { display: this.display.get(), roomBytes: room, short: room < this.storage.disk.mediaBudget() / 4 };
        const stored = (id: number) => guides.getDetail(id);
        const read = await readGuideFromSite(transport, guideid, { stored, langid: this.#reading(), fit });
        this.#siteRead.remember(read);
        return this.#documentsKept(read);
      } catch (error) {
        const failure = classify(error);
        switch (failure.kind) {
          case 'local':
            throw error;
          case 'gone':
            throw new AppFailure(
              'not_found',
              `The site no longer has "${summary.title}"; the next sync removes it from the library.`,
              { guideid },
            );
          case 'unreachable':
          case 'timeout':
            this.deps.onNetworkError();
            break;
          case 'busy':
          case 'site-error':
            throw new AppFailure(
              'server_error',
              `The site could not send "${summary.title}" just now (${failure.message}). ` +
                `Only its summary is kept on this computer.`,
              needsSite,
              { cause: error },
            );
          case 'signed-out':
          case 'forbidden':
          case 'not-offered':
          case 'conflict':
          case 'refused':
          case 'unexpected':
            throw appFailureOf(failure);
          default:
            return unknownKind(failure);
        }
      }
    }
    throw new AppFailure(
      'offline',
      `The whole of "${summary.title}" needs the site: only its summary is kept on this computer.`,
      needsSite,
    );
  }

  #reading(): string | null {
    return this.languages.reading();
  }

  /** A stored guide in the technician's language (translation.ts). */
  #inLanguage(detail: GuideDetail): GuideDetail {
    const langid = this.#reading();
    const shown = langid
      ? inLanguage(detail, langid, this.deps.store.translations.get(detail.guideid, langid))
      : detail;
    return this.#documentsKept(shown);
  }

  /** Each document says whether this computer has its file: one not kept opened as an error page. */
  #documentsKept(detail: GuideDetail): GuideDetail {
    const { media } = this.deps.store;
    const documents = detail.documents.map((doc) => ({ ...doc, kept: media.lookup(doc.url) !== undefined }));
    return { ...detail, documents };
  }

  /**
   * What is kept of any guide: its list entry, its summary, and its best stored picture (never one that is not here).
   */
  summary(guideid: number): GuideSummary {
    const { guides, media } = this.deps.store;
    const entry = guides.getSummary(guideid);
    if (!entry) throw notInLibrary(guideid);
    const candidates = [entry.image?.[SHOWN_VARIANTS.step], entry.image?.[SHOWN_VARIANTS.list]];
    const picture =
      candidates.find(
        (url): url is string => typeof url === 'string' && url !== '' && media.lookup(url) !== undefined,
      ) ?? null;
    return { ...entry, picture };
  }

  #signedIn(): ApiTransport | null {
    try {
      return this.deps.transport();
    } catch {
      return null; // nobody signed in: what is kept is all there is
    }
  }

  /** Search: the local index and the site's own (library-search.ts). */
  search(query: SearchQuery): Promise<SearchResults> {
    return this.#search.search(query);
  }

  /** The stored content of a media URL, for the shells' media routes; null when not downloaded (or not intact). */
  resolveMedia(url: string): StoredMediaContent | null {
    return this.#stored.resolve(url);
  }

  /**
   * After a read or a write failed as damaged: the pictures database is checked in full and made again
   * when it is the damaged one (stored-media.ts). Answers whether it was.
   */
  repairPictures(): boolean {
    return this.#stored.repairPictures();
  }

  /**
   * A media address's answer for the shells' media routes
   * (media-serving.ts): stored, from the site, or a stored stand-in.
   */
  openMedia(request: MediaRequest): Promise<MediaAnswer | null> {
    return this.#serving.open(request);
  }

  /** Forgets the library of the previous site: another site's guides never mix with this one's. */
  reset(): void {
    this.#siteRead.clear();
    this.pictures.reset();
    this.languages.reset();
    this.storage.forgetScope();
    for (const file of this.deps.store.guides.resetAll()) void this.mediaStore.remove(file);
  }
}

/**
 * A guide this computer does not list (deleted on the site, or not shared with this technician), in words: "There
 * is no guide 3 in the library" gave a day-two walk an id and no reason, from the session of a deleted guide.
 */
const notInLibrary = (guideid: number): AppFailure =>
  new AppFailure(
    'not_found',
    'This guide is not in the library: the site no longer lists it (deleted, or not shared with you).',
    { guideid },
  );
