import { z } from 'zod';
import { orAbsent, wireInt, wireNumber, wireText } from './lenient.ts';

// Dozuki's guide release (dozuki-api-2.0.md §2.6): releaseid, guideid, langid, revisionid, user, status,
// title, init_date, release_date, notes, type, href, version. Only what the changes banner shows is read;
// a release of status `removed` was taken back and is not one.

const releaseUser = z.object({ username: wireText.nullish() }).loose();

export const releaseWire = z
  .object({
    releaseid: wireInt,
    /** The guide it is of, when the site says: another guide's is not this guide's news. */
    guideid: orAbsent(wireInt),
    revisionid: wireInt,
    status: wireText.nullish(),
    title: orAbsent(wireText),
    notes: orAbsent(wireText),
    release_date: orAbsent(wireNumber),
    init_date: orAbsent(wireNumber),
    user: orAbsent(releaseUser),
  })
  .loose();

export const releaseListWire = z.array(releaseWire);
