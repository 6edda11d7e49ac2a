import type { Result } from './result.ts';
import type { StepFormField } from './guide.ts';

/** The App API of work sessions: what a technician does in them, those the site knows, conflicts to settle. */

export type WorkStatus = 'started' | 'paused' | 'suspended' | 'complete' | 'cancelled';
export type WorkTransition = 'pause' | 'resume' | 'suspend' | 'assume' | 'finish' | 'cancel';

export interface StepValue {
  fieldGuid: string;
  fieldRevisionid: number;
  stepid: number;
  /** As the site stores it: text, a number as text, "1"/"0" for a checkbox, a media item id. */
  value: string | null;
  /**
   * For Image/Video/Document fields: the attached file, until and after its upload (`mime`: a photo is
   * read back for its thumbnail, a video or a document is not); `notSent`, why its upload failed (the site
   * refused it, say), until it is retried, discarded or replaced.
   */
  attachment: { id: string; name: string; mime: string; uploaded: boolean; notSent: string | null } | null;
  /**
   * Whether the site has this value (issue 28): `sent` (the site confirmed it), `waiting` (queued here),
   * `refused` (the site did not take it: a failed action, a conflict, or a session the site decided), `kept`
   * (never sent and kept on this computer only: the site's form no longer has its field, DESIGN.md §6).
   */
  site: ValueOnSite;
  /**
   * Why the site did not take this value's save (its words), while that save is refused and holds the rest
   * of the session: saving the field again replaces it. Null otherwise (a conflict says its own).
   */
  notSent: string | null;
  /**
   * Not on the site, and nothing of it waits anywhere (`site` is `refused`): no save queued or held, no failed
   * upload, no conflict. Its save (or its file's upload) was discarded, or the site decided the session. The
   * Finish review said "Everything saved so far has reached the site" over such a photo, and its field "see the
   * sync centre", where nothing of it was.
   */
  dropped: boolean;
  /**
   * The open conflict on this field (the newest), settled in the sync centre: what the site has (`theirs`),
   * whether the site's form still has the field (`offForm`: no), and the record's words. Null when none.
   */
  conflict: { id: number; theirs: string | null; offForm: boolean; message: string } | null;
  /**
   * A value the technician saved here (it reached the site) that another computer or the site replaced since: what
   * they had saved (`was`, as the site stores it) and when this computer learned it (unix seconds), until they save
   * the field again (also what they had saved when a conflict was settled with the site's value, learned then). A
   * sync followed the site's value with no word. Null otherwise.
   */
  changedElsewhere: { was: string; at: number } | null;
}

export type ValueOnSite = 'sent' | 'waiting' | 'refused' | 'kept';

/** Whom a session was taken over from: the site's user, their name when known, and when they handed it over. */
export interface TakenFrom {
  userid: number;
  name: string | null;
  /** Unix seconds (the site's clock); null when the site did not say. */
  at: number | null;
}

/**
 * A session handed over here that a colleague took over on the site and handed back (suspended again): who, when,
 * and the values they changed, as the site now has them (the session shows the site's values).
 */
export interface HandedBack {
  /** The site's user who had it. */
  userid: number;
  /** Their user name on the site; null when the site would not say. */
  name: string | null;
  /** Unix seconds on the site's clock when they handed it back; null when the site does not say. */
  at: number | null;
  /** Each field whose value the site now has differs from what this computer showed, in words. */
  changed: { label: string; was: string; now: string }[];
}

/** A stretch a running session counted with nobody at the app (unix seconds, the site's clock). */
export interface UnwatchedStretch {
  from: number;
  to: number;
}

/** The stretches a running session counted while Fieldguide was closed or the computer slept, oldest first. */
export interface RanUnwatched {
  stretches: UnwatchedStretch[];
}

export interface WorkSession {
  /** Local id: the session exists before the site knows it. */
  id: string;
  entryid: number | null;
  guideid: number;
  guideRevisionid: number;
  guideTitle: string;
  workorderid: string;
  userid: number;
  status: WorkStatus;
  /** Unix seconds, when the technician acted. */
  startedAt: number;
  endedAt: number | null;
  /** When the current pause or suspension began. */
  pausedAt: number | null;
  /** Pause time before the current pause, in seconds. */
  pauseSeconds: number;
  activeStepid: number | null;
  values: StepValue[];
  pendingActions: number;
  failedActions: number;
  openConflicts: number;
  /** The technician's sign-off at Finish (issue 28); null until signed, and for sessions ended elsewhere. */
  signOff: SignOff | null;
  /** Taken over here: from whom (their name when known) and when they handed it over; null otherwise. */
  takenFrom: TakenFrom | null;
  /**
   * Handed over here, then had by a colleague on the site who handed it back, as the last sync learned; null
   * otherwise, and once the technician takes it back.
   */
  handedBack: HandedBack | null;
  /**
   * What the site decided of this session (taken over, cancelled or finished there), in the words of its newest
   * record, settled or not: its screen and report still say who took it over once its card is settled (they
   * said "another technician"), and say it at once, not after a second look at the conflicts. Null otherwise.
   */
  siteDecided: Pick<ConflictRecord, 'label' | 'theirs' | 'message'> | null;
  /**
   * When this computer learned that the site no longer has the session (its entry was deleted there), unix
   * seconds; null while it has it. The session is kept here read-only, with its values, and nothing more is sent
   * for it: it stayed "Handed over", and its Take it back went to an entry the site no longer had.
   */
  removedOnSite: number | null;
  /**
   * When this computer took the session's state from the site (paused, resumed or handed over on another computer
   * or on the site: adopt.ts followOwnEntry), unix seconds; null once its technician changes its state here. Its
   * row and header say so: a session running here was paused with no word of why.
   */
  stateFromSite: number | null;
  /**
   * The session ran on while Fieldguide was closed or the computer slept (a night it was left running): each
   * stretch from the last sign of life to when it came back, until the technician says whether that was work
   * (a second night unanswered is a second stretch). Null otherwise.
   */
  ranUnwatched: RanUnwatched | null;
  /**
   * The session's last change of state done here (its start, a pause, the finish…) that has not reached the
   * site yet, and why: `waiting` to be sent, `held` behind an action of the session the site refused, `refused`
   * by the site itself; null once the site has it. A report said "Complete" and "Nothing waits to be sent" over
   * a finish that waited.
   */
  stateNotOnSite: { action: 'start' | WorkTransition; because: 'waiting' | 'held' | 'refused' } | null;
  /**
   * This computer has a newer revision of the guide than the one the session follows (the site revised it
   * after the session began): the session goes on following its own, and says so.
   */
  guideRevised: boolean;
  /**
   * The guide revision the site keeps the session's entry on, as its last answer that said (a start, a change, a
   * listed entry); null while none has. Another than `guideRevisionid`: the start reached the site after the guide
   * was revised there, and whoever reads the entry on the site sees the revised steps and fields, not the ones the
   * technician worked from (the session says so: siteOnOtherRevision).
   */
  siteGuideRevisionid: number | null;
  /**
   * When the App API read this copy, in the order of its reads (larger is later; it grows with every read,
   * changed or not). A command's answer and a `session` event can reach a window in either order (the web
   * shell carries them on two connections): the window keeps the later copy, never an older one over it.
   */
  readOrder: number;
}

/** What Finish asks for (issue 28): a typed confirmation (the technician's name) or a drawn signature. */
export interface SignOffInput {
  how: 'typed' | 'drawn';
  /** The name as typed, for `typed`. */
  typed?: string;
  /** The drawing as a PNG, base64, for `drawn`. */
  drawingPng?: string;
}

export interface SignOff {
  /** The signed-in technician's name, from the sign-in, whatever was typed. */
  name: string;
  how: 'typed' | 'drawn';
  typed: string | null;
  drawingPng: string | null;
  /** Unix seconds, on the site's clock. */
  at: number;
  /**
   * Where it went: `step-data` into the form field named `field` (sent with the session's other values),
   * or `kept-here` when the guide's forms have no sign-off field (it is then only in the report).
   */
  sentAs: 'step-data' | 'kept-here';
  field: string | null;
}

export interface StartSessionInput {
  guideid: number;
  workorderid: string;
  stepid?: number;
}

export interface TransitionInput {
  sessionId: string;
  transition: WorkTransition;
  /** Finish only: the technician's sign-off, recorded with the finish. */
  signOff?: SignOffInput;
}

export interface SaveStepDataInput {
  sessionId: string;
  stepid: number;
  values: { fieldGuid: string; value: string | null }[];
}

export interface AttachFileInput {
  sessionId: string;
  stepid: number;
  fieldGuid: string;
  name: string;
  mime: string;
  /** The file's bytes, base64 (both shells carry JSON-safe values). */
  dataBase64: string;
}

/** A file attached to a step field, as kept on this computer. */
export interface AttachmentData {
  name: string;
  mime: string;
  dataBase64: string;
}

/** An attached file of a session that cannot be sent: gone from this computer, or damaged on its disk. */
export interface UnreadableAttachment {
  attachmentId: string;
  stepid: number;
  fieldGuid: string;
  /** Why, in the technician's words. */
  problem: string;
  /**
   * The site refused its upload (the problem gives the site's words and what to do); else it cannot be read
   * back from this computer (gone, or damaged on its disk).
   */
  refused: boolean;
}

export interface ConflictRecord {
  id: number;
  sessionId: string;
  guideTitle: string;
  workorderid: string;
  /**
   * `field`: a value changed on both sides, to settle; `transition`: the site decided the session's state;
   * `notice`: something Fieldguide did on the site for the technician (a second copy a slow site made,
   * removed), to read.
   */
  kind: 'transition' | 'field' | 'notice';
  fieldGuid: string | null;
  stepid: number | null;
  label: string;
  mine: string | null;
  theirs: string | null;
  base: string | null;
  message: string;
  createdAt: number;
  /**
   * Keep mine can send the value: a `field` conflict of a session still open here, whose field the guide's form
   * still has. False for a field a revised form removed, a deleted guide's or an ended session's (there the
   * value can only be copied: Keep mine closed the card and sent nothing), and for the other kinds.
   */
  keepable: boolean;
  /**
   * The field's type (a checkbox's `1` is said "Yes"): on the guide's form, else on the session's revision of it;
   * null for other kinds.
   */
  fieldType: StepFormField['type'] | null;
  /**
   * A `field` conflict whose field the guide's form on the site no longer has (a revision dropped it, or the
   * guide was deleted): there is no site's value to show, and the value stays on this computer.
   */
  offForm: boolean;
  /** The step as the session knew it (its revision): its number in the run and its title; null if not kept. */
  step: { number: number; title: string } | null;
  /** The session's attached file the value is (a photo, say): shown, and saved as a copy; null for other values. */
  attachment: { id: string; name: string; mime: string } | null;
}

/** A session another technician handed over (suspended on the site), that this technician may take over. */
export interface HandedOverSession {
  entryid: number;
  guideid: number;
  guideTitle: string;
  workorderid: string;
  /** The site's user who handed it over. */
  userid: number;
  /** Their user name on the site; null when the site would not say. */
  handedOverBy: string | null;
  /** Unix seconds on the site's clock when it was suspended; null when the site does not say. */
  handedOverAt: number | null;
  startedAt: number;
}

/** Suspended sessions as the site listed them. */
export interface SuspendedList {
  sessions: HandedOverSession[];
  /** Entries the site listed in a shape this version cannot read: not shown, said (0 as a rule). */
  unreadable: number;
}

export interface HandedOverList extends SuspendedList {
  /** Null: as the site answered now; else when this computer last learned the list (the site did not answer). */
  learnedAt: number | null;
  /** Sessions of this technician's another technician took over on this computer, newest first (this computer's). */
  takenFromYou: TakenHere[];
  /**
   * Null: the site listed them across guides. Else it lists them per guide only: `asked` guides were asked (those
   * worked on or kept here, at most 50), of `known`; one handed over on another guide shows on that guide's page.
   */
  byGuide: { asked: number; known: number } | null;
}

/** Another technician's open session of a work order on this computer: asked about before a second is made. */
export interface OthersOpenSession {
  /** Their user name on the site. */
  username: string;
  /** The work order as they typed it. */
  workorderid: string;
  status: Exclude<WorkStatus, 'complete' | 'cancelled'>;
  /** Unix seconds. */
  startedAt: number;
}

/** A session handed over and taken over on this computer, as its first technician is told. */
export interface TakenHere {
  workorderid: string;
  guideTitle: string;
  /** The user name of who took it over. */
  takenBy: string;
  /** Unix seconds when it was taken over here. */
  at: number;
}

export interface WorklogApi {
  /** Starts a work session; accepted offline, replayed to the site later. */
  startSession(input: StartSessionInput): Promise<Result<WorkSession>>;
  transitionSession(input: TransitionInput): Promise<Result<WorkSession>>;
  /** Saves values of one step's form (unsent saves of the same step are coalesced). */
  saveStepData(input: SaveStepDataInput): Promise<Result<WorkSession>>;
  /** Attaches a file to an Image, Video or Document field: the upload is queued before the value. */
  attachFile(input: AttachFileInput): Promise<Result<WorkSession>>;
  /**
   * The technician's sessions (of one guide), newest first: every open one, and the `ended` newest ended
   * (all when not given; none with 0).
   */
  listSessions(filter: { guideid?: number; ended?: number }): Promise<Result<WorkSession[]>>;
  getSession(sessionId: string): Promise<Result<WorkSession>>;
  /** A file attached to one of the technician's sessions, read from this computer (the session report). */
  getAttachment(attachmentId: string): Promise<Result<AttachmentData>>;
  /**
   * The session's attached files not yet uploaded that can no longer be read back as saved (the Finish
   * review lists them: an ended session takes no file to replace them).
   */
  checkAttachments(sessionId: string): Promise<Result<UnreadableAttachment[]>>;
  /**
   * Other technicians' open sessions of this guide under this work order on this computer (a shared laptop):
   * the start form asks before a second entry of the same job is made.
   */
  othersOpen(input: { guideid: number; workorderid: string }): Promise<Result<OthersOpenSession[]>>;
  /**
   * The technician's answer about the time a session ran with Fieldguide closed (`ranUnwatched`): work (kept
   * as it counted), or not (a pause from its start to its end is queued, so the site counts it as one).
   */
  answerRanUnwatched(input: { sessionId: string; work: boolean }): Promise<Result<WorkSession>>;
  /** Sessions of a guide suspended on the site, with who and when (needs the network). */
  listSuspended(guideid: number): Promise<Result<SuspendedList>>;
  /** Sessions others handed over, across guides: from the site, or what this laptop last learned offline. */
  listHandedOver(): Promise<Result<HandedOverList>>;
  /** Continues here a session of yours that the site knows (started on another computer). */
  openSession(entryid: number): Promise<Result<WorkSession>>;
  /** Takes over a suspended session of the site: the `assume` is queued like any action. */
  assumeSession(entryid: number): Promise<Result<WorkSession>>;
  listConflicts(): Promise<Result<ConflictRecord[]>>;
  settleConflict(input: { conflictId: number; keep: 'mine' | 'theirs' }): Promise<Result<ConflictRecord[]>>;
}
