import type { GuideMarkKind, GuideMarks, MyGuide, MyGuides } from '../../contract.ts';
import { GUIDEIDS_PER_REQUEST, listedLocales } from '../api/guides-api.ts';
import { fetchCompletions, fetchFavorites, type SiteMark } from '../api/marks-api.ts';
import type { ApiTransport } from '../api/transport.ts';
import type { ServerClock } from '../connection/server-clock.ts';
import { chainKey } from '../db/chains.ts';
import type { GuideReader } from '../db/repos/guide-row.ts';
import type { MarkedGuide } from '../db/repos/guide-marks-repo.ts';
import type { Store } from '../db/store.ts';
import type { Outbox } from '../outbox/outbox.ts';
import { AppFailure } from '../result.ts';
import { completedAction, favoriteAction, markChain } from './mark-actions.ts';

export interface MarksServiceDeps {
  store: Store;
  outbox: Pick<Outbox, 'enqueue' | 'amend'>;
  clock: Pick<ServerClock, 'stamp'>;
  /** The current technician's local id, or null: a mark is theirs. */
  technician: () => number | null;
  /** Who reads: a private guide they may not read is not listed for them. */
  reader: () => GuideReader | null;
  /** The site's own language as the sync learned it (library/languages.ts `siteDefault`). */
  library?: { languages: { state: () => { siteDefault: string | null } } };
}

const KINDS = { favorite: favoriteAction, completed: completedAction } as const;
/** How many guides "recently used" shows. */
const RECENT = 20;

/**
 * A technician's favourites and completions: set here at once, queued for the site under their name (one
 * chain per guide: a toggle not yet tried replaces the one before, so the latest wins and is sent once),
 * and read back from the site at each sync, where a toggle still waiting keeps what the technician chose.
 */
export class MarksService {
  constructor(private readonly deps: MarksServiceDeps) {}

  of(guideid: number): GuideMarks {
    const me = this.#me();
    const { marks } = this.deps.store;
    return {
      guideid,
      favorite: marks.has(me, 'favorite', guideid),
      completed: marks.has(me, 'completed', guideid),
      waiting: { favorite: this.#waiting(me, 'favorite', guideid), completed: this.#waiting(me, 'completed', guideid) },
    };
  }

  set(guideid: number, mark: GuideMarkKind, on: boolean): GuideMarks {
    const me = this.#me();
    const { store } = this.deps;
    if (!store.guides.getListItem(guideid) || !store.guides.readable(guideid, this.deps.reader()))
      throw new AppFailure('not_found', `Guide ${guideid} is not in the library on this computer.`, { guideid });
    const stamp = this.deps.clock.stamp();
    const kind = KINDS[mark];
    store.transaction(() => {
      store.marks.set(me, mark, guideid, on, stamp.at);
      const chain = markChain(mark, me, guideid);
      const tail = store.outbox.tail(chainKey(chain));
      // PUT and DELETE are idempotent: a waiting action (even one tried, that may have landed) takes the
      // latest toggle, so one request carries it; only one on its way goes before a new one.
      if (tail && tail.state === 'pending')
        this.deps.outbox.amend(tail.id, kind, { guideid, on }, { actedAt: stamp.at, stamp });
      else this.deps.outbox.enqueue(kind, { guideid, on }, { chain, actedAt: stamp.at, technician: me, stamp });
    });
    return this.of(guideid);
  }

  favoriteIds(): number[] {
    const reader = this.deps.reader();
    return this.deps.store.marks
      .list(this.#me(), 'favorite')
      .map((row) => row.guideid)
      .filter((guideid) => this.deps.store.guides.readable(guideid, reader));
  }

  /** Remembered for "recently used": a guide of the library this technician may read, nothing else. */
  opened(guideid: number): null {
    const me = this.deps.technician();
    const { guides, marks } = this.deps.store;
    if (me === null || !guides.getListItem(guideid) || !guides.readable(guideid, this.deps.reader())) return null;
    // A note for "recently used", not the technician's work: it does not wait for the disk (a power cut may
    // take the last one back), as every guide opened would otherwise.
    this.deps.store.replaceable(() => marks.set(me, 'opened', guideid, true, this.deps.clock.stamp().at));
    return null;
  }

  mine(): MyGuides {
    const me = this.#me();
    const { marks } = this.deps.store;
    return {
      favorites: this.#listed(marks.list(me, 'favorite')),
      recent: this.#listed(marks.recentlyUsed(me, RECENT)),
      completed: this.#listed(marks.list(me, 'completed')),
    };
  }

  /**
   * The pull of the technician who works now, for a sync that starts now with their transport: the site's
   * favourites and completions replace theirs here, but for the guides with a toggle of theirs still
   * waiting (those stay as they chose). Theirs whoever works when it runs: a switch of technician while a
   * sync reads the site does not give them to the next one. Nobody signed in: nothing to read.
   */
  pullFor(): (transport: ApiTransport, signal?: AbortSignal) => Promise<void> {
    const technician = this.deps.technician();
    return (transport, signal) => this.#pull(technician, transport, signal);
  }

  async #pull(technician: number | null, transport: ApiTransport, signal?: AbortSignal): Promise<void> {
    if (technician === null) return;
    const favorites = await fetchFavorites(transport, signal);
    const favoritesUnlisted = await this.#unlistable(technician, 'favorite', favorites, transport, signal);
    this.#merge(technician, 'favorite', favorites, favoritesUnlisted);
    const held = this.deps.store.marks.list(technician, 'completed').map((row) => row.guideid);
    const completions = await fetchCompletions(transport, signal, held);
    const completedUnlisted = await this.#unlistable(technician, 'completed', completions, transport, signal);
    this.#merge(technician, 'completed', completions, completedUnlisted);
  }

  /**
   * The technician's marks here the site's list leaves out because of their language, not because they were
   * taken off: iFixit lists favourites and completions in the site's own language only, without the guides
   * it has in none but another (its OpenAPI description). The site's guide list says each left-out guide's
   * language; one listed in another than the list's own keeps its mark. One the site no longer lists, or
   * lists in its own language, was taken off. Nothing is asked while the list's language is not known (nor
   * the site's, as the sync learned it).
   */
  async #unlistable(
    technician: number,
    mark: GuideMarkKind,
    site: readonly SiteMark[],
    transport: ApiTransport,
    signal?: AbortSignal,
  ): Promise<Set<number>> {
    // A list in several languages is of a site that lists them all: what it leaves out was taken off.
    const locales = new Set(site.flatMap((entry) => (entry.locale ? [entry.locale] : [])));
    if (locales.size > 1) return new Set();
    const language = [...locales][0] ?? this.deps.library?.languages.state().siteDefault ?? null;
    const listed = new Set(site.map((entry) => entry.guideid));
    const left = this.deps.store.marks
      .list(technician, mark)
      .map((row) => row.guideid)
      .filter((guideid) => !listed.has(guideid));
    const kept = new Set<number>();
    if (language === null) return kept;
    for (let i = 0; i < left.length; i += GUIDEIDS_PER_REQUEST) {
      const said = await listedLocales(transport, left.slice(i, i + GUIDEIDS_PER_REQUEST), { signal });
      for (const [guideid, locale] of said) if (locale !== null && locale !== language) kept.add(guideid);
    }
    return kept;
  }

  /** Guides anyone on this computer holds as a favourite: the sync keeps them whole whatever the scope. */
  kept(): number[] {
    return this.deps.store.marks.anyonesFavorites();
  }

  #merge(technician: number, mark: GuideMarkKind, site: SiteMark[], unlistable: ReadonlySet<number>): void {
    const { store } = this.deps;
    const now = this.deps.clock.stamp().at;
    // The site's marks, which it gives again: a commit that does not wait for the disk (the marks still to
    // send wait in the outbox, whose commits do).
    store.replaceable(() => {
      const known = new Map(store.marks.list(technician, mark).map((row) => [row.guideid, row.at]));
      const rows = [
        ...site.map(({ guideid, at }) => ({ guideid, at: at ?? known.get(guideid) ?? now })),
        ...[...unlistable].flatMap((guideid) => (known.has(guideid) ? [{ guideid, at: known.get(guideid)! }] : [])),
      ];
      const waiting = new Set<number>();
      for (const guideid of new Set([...known.keys(), ...rows.map((row) => row.guideid)])) {
        if (this.#waiting(technician, mark, guideid)) waiting.add(guideid);
      }
      store.marks.replaceFromSite(technician, mark, rows, waiting);
    });
  }

  #waiting(technician: number, mark: GuideMarkKind, guideid: number): boolean {
    return this.deps.store.outbox.chainLength(chainKey(markChain(mark, technician, guideid))) > 0;
  }

  #listed(rows: MarkedGuide[]): MyGuide[] {
    const reader = this.deps.reader();
    const { guides } = this.deps.store;
    return rows
      .filter((row) => guides.readable(row.guideid, reader) || !guides.getListItem(row.guideid))
      .map((row) => ({ guideid: row.guideid, guide: guides.getListItem(row.guideid) ?? null, at: row.at }));
  }

  #me(): number {
    const id = this.deps.technician();
    if (id === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return id;
  }
}
