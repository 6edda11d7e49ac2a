import type { GuideChanges, ReleaseNote } from '../../contract.ts';
import type { Store } from '../db/store.ts';
import { AppFailure } from '../result.ts';
import { guideDiff, plainText } from './guide-diff.ts';

export interface ChangesServiceDeps {
  store: Store;
  /** The current technician's local id, or null. */
  technician: () => number | null;
  /** The guide is on this computer for the current reader. */
  readable: (guideid: number) => boolean;
  now: () => number;
}

/**
 * "This guide changed since you last used it", per technician: the revision each last read is remembered
 * and kept, and the change is computed here from it and the one stored now.
 */
export class ChangesService {
  constructor(private readonly deps: ChangesServiceDeps) {}

  changes(guideid: number): GuideChanges | null {
    const technician = this.deps.technician();
    if (technician === null || !this.deps.readable(guideid)) return null;
    const { guides, guideReads } = this.deps.store;
    const current = guides.getDetail(guideid);
    if (!current) return null;
    const read = guideReads.revisionRead(technician, guideid);
    if (read === null) {
      // The first read remembered, as the guide opens: it does not wait for the disk (a power cut may take it
      // back; the next opening remembers it again).
      this.deps.store.replaceable(() => guideReads.read(technician, guideid, current.revisionid, this.deps.now()));
      return null;
    }
    if (read === current.revisionid) return null;
    const before = guides.getRevision(guideid, read);
    const releases = this.#releases(guideid, read, current.revisionid);
    const change = { guideid, fromRevisionid: read, toRevisionid: current.revisionid, releases };
    // Kept while they had not seen the change; gone only if the data folder was repaired since.
    return { ...change, steps: before ? guideDiff(before, current) : [] };
  }

  /** The site's release notes of the revisions since the one read, as plain text (never the site's HTML). */
  #releases(guideid: number, read: number, current: number): ReleaseNote[] {
    return this.deps.store.guideReleases
      .between(guideid, read, current)
      .map((release) => ({ ...release, title: plainText(release.title), notes: plainText(release.notes) }));
  }

  seen(guideid: number): null {
    const technician = this.#me();
    const current = this.deps.store.guides.getDetail(guideid);
    if (!current || !this.deps.readable(guideid))
      throw new AppFailure('not_found', `Guide ${guideid} is not stored on this computer.`);
    this.deps.store.transaction(() =>
      this.deps.store.guideReads.read(technician, guideid, current.revisionid, this.deps.now()),
    );
    return null;
  }

  changed(): number[] {
    const technician = this.deps.technician();
    if (technician === null) return [];
    return this.deps.store.guideReads.changed(technician).filter((id) => this.deps.readable(id));
  }

  #me(): number {
    const id = this.deps.technician();
    if (id === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return id;
  }
}
