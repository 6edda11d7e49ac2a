/**
 * The App API: everything the renderer may ask of the main process, and every event it may hear.
 *
 * Both shells (Electron IPC, the web shell's HTTP routes), the preload and the renderer's bridge derive
 * their channels, routes and method lists from `APP_METHODS` and `APP_EVENTS` below, and take every path,
 * event name, scheme and global they share from the constants at the end; nobody spells one again.
 * Types and constants only: nothing here runs.
 */

export type ErrorCode =
  | 'offline'
  | 'unauthorized'
  | 'forbidden'
  | 'not_found'
  | 'conflict'
  | 'invalid_input'
  | 'invalid_transition'
  | 'server_error'
  | 'storage_full'
  /** The disk cannot be written at all (read-only or failing): nothing more is saved until Fieldguide restarts. */
  | 'storage_failed'
  /** The technician stopped it (a connect cancelled). */
  | 'cancelled'
  | 'internal';

export interface AppError {
  code: ErrorCode;
  message: string;
  details?: Record<string, unknown>;
}

/** Every method answers with a Result; thrown errors never cross the process boundary. */
export type Result<T> = { ok: true; value: T } | { ok: false; error: AppError };

export interface UserSummary {
  userid: number;
  username: string;
  uniqueUsername: string | null;
  privileges: string[];
  imageUrl: string | null;
}

export interface SiteInfo {
  /** The site's address as the technician typed it (normalised), without `/api/2.0`. */
  url: string;
  /** True for the built-in demo workshop started in-process. */
  demo: boolean;
  /** Connected by its address alone, without an account: its public guides only (`connectPublic`). */
  anonymous?: boolean;
  /**
   * Origins (`http://192.168.1.20:8081`) the technician allowed media from besides the site's own and the
   * web's https hosts: another port of this computer, the local network, plain http (`allowMediaOrigin`).
   */
  mediaOrigins?: string[];
  /**
   * The application id the site gave this app (iFixit and some Dozuki sites want one: `X-App-Id`), sent
   * with every request to the site; absent or null when the site needs none.
   */
  appId?: string | null;
}

export interface ConnectPublicInput {
  siteUrl: string;
  /** The technician confirmed a plain-http address that is not this machine (see SignInInput). */
  allowInsecure?: boolean;
  /** The site's application id for this app, when it wants one (SiteInfo.appId). */
  appId?: string;
}

export type NetworkState = 'online' | 'offline' | 'unknown';

/** The modules an API 2.0 site may or may not offer (a Dozuki site without step forms, iFixit without a work log). */
export type SiteModule =
  'step_forms' | 'quizzes' | 'work_log' | 'tags' | 'categories' | 'comments' | 'user_media' | 'search';
export const SITE_MODULES: readonly SiteModule[] = [
  'step_forms',
  'quizzes',
  'work_log',
  'tags',
  'categories',
  'comments',
  'user_media',
  'search',
];

/**
 * What the site answered when asked for a module: `offered`; `missing` (404, 403, 405 or 501: the site has
 * none); `sign_in` (401: for its members only, and nobody is signed in); `unknown` (not asked yet, or no answer).
 */
export type ModuleState = 'offered' | 'missing' | 'sign_in' | 'unknown';

export interface SiteCapabilities {
  modules: Record<SiteModule, ModuleState>;
  /** When the site was last asked (unix seconds), or null. */
  checkedAt: number | null;
}

export interface AppStatus {
  version: string;
  site: SiteInfo | null;
  /** The current technician: the one using the app now. */
  user: UserSummary | null;
  /**
   * The current technician as drafts are kept under (`site|userid`), and
   * whether drafts kept before technicians were recorded are theirs.
   */
  technician: { key: string; earlierDrafts: boolean } | null;
  network: NetworkState;
  /**
   * In the demo workshop only: the password its demo accounts share on this computer (made at install,
   * see the README), shown so another demo technician can sign in on the switch screen. Null elsewhere.
   */
  demoPassword: string | null;
  /** What the site offers, as it last answered (null before any site). */
  capabilities: SiteCapabilities | null;
  /**
   * Seconds (with their fraction) to add to this computer's clock to read the site's, learned from the
   * `Date` of its answers (0 before any). Work sessions' times are on the site's clock: a window counts a
   * running one with it.
   */
  siteClockOffset: number;
}

/**
 * How a technician's sign-in stands on this laptop. `kept`: their token is kept (sealed), so their work is
 * sent in the background under their name even while someone else works; `signed_out`: they signed out,
 * their work waits until they sign in again; `refused`: the site refused their token, likewise.
 */
export type TechnicianSignIn = 'kept' | 'signed_out' | 'refused';

/** Someone who used this laptop for the current site, as the switch screen lists them. */
export interface TechnicianEntry {
  /** `site|userid`. */
  key: string;
  userid: number;
  username: string;
  /** Known when they signed in with e-mail and password: they sign in again with their password. */
  email: string | null;
  current: boolean;
  signIn: TechnicianSignIn;
  /** Their actions not on the site yet (waiting, being sent or refused), and their open conflicts. */
  unsent: number;
  failed: number;
  conflicts: number;
}

/** Another technician's work waiting on this laptop: counts only, never the work itself. */
export interface OthersWork {
  key: string;
  username: string;
  unsent: number;
  conflicts: number;
  signIn: TechnicianSignIn;
}

/**
 * Signs a technician in on the current site: e-mail and password
 * (checked here offline while their sign-in is kept), or an API token.
 */
export type SwitchTechnicianInput = { email: string; password: string } | { token: string };

export interface ConnectWithTokenInput {
  siteUrl: string;
  token: string;
  /** The technician confirmed a plain-http address that is not this machine (see SignInInput). */
  allowInsecure?: boolean;
  /** The site's application id for this app, when it wants one (SiteInfo.appId). */
  appId?: string;
}

export interface SignInInput {
  siteUrl: string;
  email: string;
  password: string;
  /**
   * The technician confirmed sending the sign-in without encryption to a plain-http address that is not
   * this machine. Without it such an address is refused with `invalid_input` and `details.needs: 'insecure'`.
   */
  allowInsecure?: boolean;
  /** The site's application id for this app, when it wants one (SiteInfo.appId): iFixit refuses a sign-in without. */
  appId?: string;
}

/** URL variants of one image (reference 2.2); the renderer asks the shell for the local copy by URL. */
export interface ImageVariants {
  id: number;
  thumbnail?: string;
  standard?: string;
  medium?: string;
  large?: string;
  original?: string;
}

export type GuideType =
  'replacement' | 'installation' | 'repair' | 'disassembly' | 'teardown' | 'technique' | 'maintenance';

export interface GuideListItem {
  guideid: number;
  title: string;
  category: string;
  subject: string;
  type: string;
  image: ImageVariants | null;
  flags: string[];
  modifiedDate: number;
  /** `full`: the whole guide, its forms, quizzes and media are on this computer; `summary`: only this entry. */
  offline: 'full' | 'summary';
  /**
   * Its list picture is on this computer. A list shows the picture only then (a plain tile otherwise),
   * so it never asks the media route for one that is not there; rows are read again as pictures land.
   */
  thumbnailStored: boolean;
}

/** What the library keeps of every guide, whole or not: its list entry, its summary and a stored picture. */
export interface GuideSummary extends GuideListItem {
  summary: string;
  /** The best stored picture of the guide (its step size, else its thumbnail), or null when none is here. */
  picture: string | null;
}

export interface LibraryQuery {
  /** A category name; guides of its subcategories are included. */
  category?: string;
  type?: string;
  tag?: string;
  offlineOnly?: boolean;
  /** Only these guides (summary or whole): a picker naming the guides it holds. */
  guideids?: number[];
  offset?: number;
  limit?: number;
}

export interface LibraryPage {
  total: number;
  items: GuideListItem[];
}

/** A tag of the stored guides, with how many carry it (the library's tag filter suggests these). */
export interface TagCount {
  tag: string;
  guides: number;
}

export interface CategoryNode {
  name: string;
  title: string;
  /** Guides in this category and below. */
  guideCount: number;
  children: CategoryNode[];
}

export interface GuideFlag {
  flagid: string;
  title: string;
  text: string;
}

export interface GuideItem {
  text: string;
  quantity: number;
  url: string | null;
  notes: string | null;
  thumbnail: string | null;
  /** Not needed for every repair (the site's `isoptional`). */
  optional: boolean;
}

export interface GuideLine {
  lineid: number | null;
  bullet: string;
  level: number;
  /** Server HTML: the renderer shows it only through DOMPurify. */
  textRendered: string;
}

export interface VideoEncoding {
  url: string;
  format: string;
  width: number | null;
  height: number | null;
  /** Its size in bytes, when the site says. */
  bytes?: number;
}

/**
 * A step's picture, video or embed. A video's encodings are in the order this laptop prefers them: the
 * first is the one the sync keeps (shared/media.ts, fittingEncoding). An embed is shown as its title and a
 * link (`url`, http or https), never inside the app: it needs the network.
 */
export type StepMedia =
  | { type: 'image'; images: ImageVariants[] }
  | { type: 'video'; poster: ImageVariants | null; encodings: VideoEncoding[] }
  | { type: 'embed'; html: string; title: string | null; url: string | null }
  | { type: 'none' };

export type StepFieldType =
  'Text Input' | 'Text Area' | 'Numeric Input' | 'Checkbox' | 'Radios' | 'Select' | 'Image' | 'Video' | 'Document';

export interface StepFormField {
  /** Stable across revisions of the field. */
  fieldGuid: string;
  /** Changes with each revision; work data is keyed by it on the wire. */
  fieldRevisionid: number;
  type: StepFieldType;
  label: string;
  placeholder: string;
  textarea: string;
  options: string[];
}

export interface StepForm {
  formRevisionid: number;
  stepid: number;
  fields: StepFormField[];
}

export interface GuideStep {
  stepid: number;
  /**
   * The guide the step belongs to: the guide's own id, or a prerequisite guide's for the steps shown
   * first, under "Before you begin: <its title>" (GuideDetail.prerequisites names it).
   */
  guideid: number;
  revisionid: number;
  /** Its place within its own guide (a prerequisite's steps count within the prerequisite). */
  orderby: number;
  title: string;
  lines: GuideLine[];
  media: StepMedia;
  form: StepForm | null;
}

export interface GuideDocument {
  id: number | null;
  title: string;
  /** The file: what the sync keeps, and what opens offline. */
  url: string;
  /** The site's page that shows it (`view_url`), opened online; null when the site has none. */
  viewUrl: string | null;
  /** Its pages, when the site says. */
  pages: number | null;
}

export interface QuizRef {
  quizid: number;
  quizRevisionid: number;
  title: string;
  passingScore: number | null;
}

export interface GuideDetail {
  guideid: number;
  revisionid: number;
  title: string;
  category: string;
  subject: string;
  type: string;
  difficulty: string | null;
  timeRequired: string | null;
  /** The time the work takes, in seconds, when the site says (`time_required_min`/`_max`). */
  timeRange: { min: number; max: number } | null;
  author: string | null;
  image: ImageVariants | null;
  /** Server HTML: shown only through DOMPurify. */
  introductionRendered: string;
  conclusionRendered: string;
  flags: GuideFlag[];
  parts: GuideItem[];
  tools: GuideItem[];
  /**
   * Guides to follow first, in order: each is kept as a guide of its own, and its steps open `steps`
   * (nested prerequisites before the guide that needs them), each named by its own `guideid`.
   */
  prerequisites: { guideid: number; title: string }[];
  documents: GuideDocument[];
  /** The prerequisites' steps first, in their order, then the guide's own steps in its order. */
  steps: GuideStep[];
  tags: string[];
  quizzes: QuizRef[];
  modifiedDate: number;
  url: string | null;
  /**
   * True for a guide outside the offline scope read from the site just now: not kept on this computer
   * (no forms, quizzes or work sessions offline); its media come from the site through the media route.
   */
  readFromSite?: boolean;
  /**
   * The language this text is in (`langid`), and whether it is the site's default shown because the guide
   * has no translation into the technician's language (`fallback`); null when the site does not say.
   */
  language?: { langid: string; fallback: boolean } | null;
}

/** A language the site's guides are read in. */
export interface SiteLanguage {
  /** Two letters (`en`, `de`). */
  langid: string;
  /** Its name in its own words (`Deutsch`), from the laptop's language names. */
  name: string;
}

/** The site's languages, and the one the current technician reads guides in. */
export interface LanguageState {
  languages: SiteLanguage[];
  /** The site's own language: what guides without a translation are shown in; null before a sync. */
  siteDefault: string | null;
  /** The technician's choice; null: the site's own. */
  chosen: string | null;
}

export interface QuizRevision {
  quizid: number;
  quizRevisionid: number;
  title: string;
  /** SurveyJS JSON (DESIGN.md §7). */
  survey: unknown;
  /** The quiz's own passing score (percent). */
  passingScore: number | null;
  /** Course stages of this technician that hold the quiz; a stage's passing score applies over the quiz's. */
  stages: QuizStage[];
}

export interface QuizStage {
  courseStageid: number;
  title: string;
  passingScore: number | null;
}

export interface QuizAttemptInput {
  quizRevisionid: number;
  /** SurveyJS answers by question name. */
  answers: Record<string, unknown>;
  /** Unix seconds, when the technician opened the quiz. */
  startedAt: number;
  courseStageid?: number;
}

export interface QuizAttempt {
  /** Local id: the attempt exists before the site knows it. */
  id: string;
  quizid: number;
  quizRevisionid: number;
  title: string;
  courseStageid: number | null;
  answers: Record<string, unknown>;
  score: number;
  passed: boolean;
  passingScore: number | null;
  questions: { name: string; title: string; given: unknown; expected: unknown; correct: boolean }[];
  startedAt: number;
  finishedAt: number;
  sync: 'pending' | 'sent' | 'failed';
  syncError: string | null;
  siteAttemptid: number | null;
}

export interface SearchQuery {
  text: string;
  /** `auto`: the site's search when online, the local index otherwise. */
  where?: 'auto' | 'local' | 'site';
  limit?: number;
  offset?: number;
}

export interface SearchResults {
  source: 'local' | 'site';
  total: number;
  items: (GuideListItem & { snippet: string | null })[];
  /** Why local results stand where the site's were asked (its search failed, is missing, or is away), in calm words. */
  note?: string | null;
}

export interface OfflineScope {
  /** `all`: every guide is kept whole; `selected`: only these categories (and below) and guides. */
  mode: 'all' | 'selected';
  categories: string[];
  guideids: number[];
}

/**
 * Which variant of each step picture is kept for zoom, on top of the thumbnail and standard size the
 * lists and steps show: `standard` nothing more, `large` the site's `<original>.large`, `original` the original.
 */
export type PictureQuality = 'standard' | 'large' | 'original';

export interface PictureQualityOption {
  quality: PictureQuality;
  /** Step pictures of the guides kept offline that this quality adds (0 for `standard`). */
  pictures: number;
  /** How many of them are on this computer already. */
  stored: number;
  /** The room they take, all of them: an estimate (`basis`), null while nothing is known of their size. */
  bytes: number | null;
  /**
   * Where the size comes from: pictures of this quality already
   * kept, sizes the site reported for a few, or nothing yet.
   */
  basis: 'stored' | 'site' | 'unknown';
}

export interface PictureQualityState {
  quality: PictureQuality;
  options: PictureQualityOption[];
}

export type SyncPhase =
  'idle' | 'categories' | 'listing' | 'deletions' | 'guides' | 'media' | 'done' | 'failed' | 'cancelled';

export interface SyncProgress {
  phase: SyncPhase;
  done: number;
  total: number;
  bytes: number;
  message: string | null;
}

export interface StorageUsage {
  mediaBytes: number;
  mediaFiles: number;
  pendingMedia: number;
  databaseBytes: number;
  budgetBytes: number;
  /** Free space on the data folder's disk (null when the OS does not say). */
  diskFreeBytes: number | null;
  /** Space the media never take: kept free for the technician's work. */
  reserveBytes: number;
  /** The budget the media get now, when the disk's free space (less the reserve) is below `budgetBytes`; else null. */
  budgetLimitedTo: number | null;
}

/**
 * The database was found damaged at a start, and what was done: the work put back from the work journal,
 * or the file moved aside (never deleted) and the technician's data copied row by row into a fresh one.
 */
export interface DatabaseRepair {
  /**
   * `salvaged`: the damaged file was set aside and the technician's data copied into a fresh one (the
   * library synced again). `log-cut`: the write-ahead log ended part-way through a write (a crash or a full
   * disk while writing); SQLite kept every complete change and dropped the unfinished one, which had not
   * been confirmed; a copy of the log is kept aside (`movedTo`, empty when the disk had no room for it).
   * `restored`: the log or the work's rows were damaged (or the log lost), and the work was put back from
   * the work journal (`restored`); `movedTo` is the copy of a damaged log, or empty.
   */
  kind: 'salvaged' | 'log-cut' | 'restored';
  /** When (unix seconds). */
  at: number;
  /** What was wrong, in words. */
  cause: string;
  /** Where the damaged file was moved (or the cut log copied). */
  movedTo: string;
  /** Rows recovered, by table (technicians, work_sessions, work_values, outbox, conflicts, ...). */
  recovered: Record<string, number>;
  /** Rows put back from the work journal (or removed as it records), by table. */
  restored: Record<string, number>;
  /** Tables, or parts of them, that could not be read: what may be lost (still in the file moved aside). */
  unreadable: string[];
}

export interface SyncError {
  message: string;
  /** What was being fetched or stored, e.g. `GET /guides/12`. */
  resource: string | null;
  at: number;
  /** A media address refused for where it leads: the origin the technician may allow (`allowMediaOrigin`). */
  mediaOrigin?: string;
}

/** A guide the last syncs could not store: named, with the site's own message and when it is tried again. */
export interface FailedGuide {
  guideid: number;
  title: string;
  /** The site's message (or what went wrong reading its answer). */
  message: string;
  /** What was asked, e.g. `GET /guides/12`. */
  resource: string | null;
  attempts: number;
  failedAt: number;
  /** When a sync may try it again (unix seconds, like failedAt); null: not until Retry or a change on the site. */
  nextAttemptAt: number | null;
}

/**
 * A site holds more guides than a first sync takes whole: their summaries are on this computer, and the
 * technician chooses what to keep whole (setOfflineScope, categories show their guide counts) first.
 */
export interface ScopeChoice {
  /** Guides the site lists. */
  guides: number;
  /** The most a first sync downloads whole without asking. */
  limit: number;
}

export interface SyncState {
  running: boolean;
  /** Guides that could not be stored, most recent failure first. */
  failedGuides: FailedGuide[];
  progress: SyncProgress;
  lastSyncAt: number | null;
  lastError: SyncError | null;
  scope: OfflineScope;
  storage: StorageUsage;
  guides: { total: number; offline: number };
  /** Set while a big site waits for the technician to choose what to keep whole; null otherwise. */
  scopeChoice: ScopeChoice | null;
  /** The last repair of a damaged database, shown in the sync centre; null when there was none. */
  repair: DatabaseRepair | null;
  /**
   * Origins of media the last sync did not fetch for where they lead (another port of this computer, the
   * local network, plain http) and the technician has not allowed (`allowMediaOrigin`).
   */
  refusedMediaOrigins: string[];
}

export interface SyncOutcome {
  status: 'complete' | 'failed' | 'cancelled';
  changed: number;
  deleted: number;
  mediaDownloaded: number;
  requests: number;
  error: SyncError | null;
  failedGuides: FailedGuide[];
}

export type WorkStatus = 'started' | 'paused' | 'suspended' | 'complete' | 'cancelled';
export type WorkTransition = 'pause' | 'resume' | 'suspend' | 'assume' | 'finish' | 'cancel';

export interface StepValue {
  fieldGuid: string;
  fieldRevisionid: number;
  stepid: number;
  /** As the site stores it: text, a number as text, "1"/"0" for a checkbox, a media item id. */
  value: string | null;
  /** For Image/Video/Document fields: the attached file, until and after its upload. */
  attachment: { id: string; name: string; uploaded: boolean } | null;
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
}

export interface StartSessionInput {
  guideid: number;
  workorderid: string;
  stepid?: number;
}

export interface TransitionInput {
  sessionId: string;
  transition: WorkTransition;
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

export type OutboxActionKind = 'start' | WorkTransition | 'stepData' | 'upload' | 'quizAttempt';

export interface OutboxAction {
  id: number;
  sessionId: string;
  kind: OutboxActionKind;
  /** In a technician's words: "Pause", "Save step 3 (2 fields)". */
  summary: string;
  actedAt: number;
  state: 'pending' | 'in_flight' | 'failed';
  /** Failed because the site kept failing (5xx) past the bound, not because it refused it: retry when it is back. */
  stuck: boolean;
  attempts: number;
  nextAttemptAt: number | null;
  error: string | null;
}

/** The current technician's work not on the site yet, and, apart, what waits for the others. */
export interface OutboxSummary {
  pending: number;
  inFlight: number;
  failed: number;
  conflicts: number;
  /** Other technicians with work waiting on this laptop (counts only). */
  others: OthersWork[];
  /** Actions of an earlier version whose maker is not known: kept here, never sent under anyone's name. */
  heldAside: number;
}

export interface OutboxView {
  summary: OutboxSummary;
  actions: OutboxAction[];
}

/** A file attached to a step field, as kept on this computer. */
export interface AttachmentData {
  name: string;
  mime: string;
  dataBase64: string;
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
}

export interface AppApi {
  getStatus(): Promise<Result<AppStatus>>;
  /** Starts the built-in demo workshop (the reference server on a loopback port) and signs in to it. */
  connectDemo(): Promise<Result<AppStatus>>;
  connectWithToken(input: ConnectWithTokenInput): Promise<Result<AppStatus>>;
  /** Connects to a public site by its address alone: its public guides are read offline, nobody is signed in. */
  connectPublic(input: ConnectPublicInput): Promise<Result<AppStatus>>;
  signIn(input: SignInInput): Promise<Result<AppStatus>>;
  /** Stops a sign-in or token connect that is waiting for the site: it then fails with `cancelled`. */
  cancelConnect(): Promise<Result<null>>;
  /**
   * Signs the current technician out: their token is forgotten;
   * their unsent work stays, waiting for them. Works offline.
   */
  signOut(): Promise<Result<AppStatus>>;
  /**
   * Allows media of the current site from an origin that is not the site's own nor a host of the web over
   * https (another port of this computer, the local network, plain http): the site's own media server.
   */
  allowMediaOrigin(origin: string): Promise<Result<AppStatus>>;
  /** Everyone who used this laptop for the current site: name, how their sign-in stands, their unsent work. */
  listTechnicians(): Promise<Result<TechnicianEntry[]>>;
  /**
   * Another technician (or the same again) starts working here; the
   * one before stays signed in. Never re-downloads the library.
   */
  switchTechnician(input: SwitchTechnicianInput): Promise<Result<AppStatus>>;

  listGuides(query: LibraryQuery): Promise<Result<LibraryPage>>;
  getCategories(): Promise<Result<CategoryNode[]>>;
  /** Tags of the guides stored whole, most used first. */
  listTags(): Promise<Result<TagCount[]>>;
  /**
   * The stored guide; with `revisionid`, that revision when it is kept (a session pins the one it began on).
   * A guide kept as a summary only is read from the site while it answers (`readFromSite`); otherwise
   * the answer is `offline` with `details.offline === 'summary'` (getGuideSummary has what is kept).
   */
  getGuide(guideid: number, revisionid?: number): Promise<Result<GuideDetail>>;
  /** What is kept of any guide of the library, whole or not: its summary, and a picture when one is stored. */
  getGuideSummary(guideid: number): Promise<Result<GuideSummary>>;
  getQuiz(quizRevisionid: number): Promise<Result<QuizRevision>>;
  search(query: SearchQuery): Promise<Result<SearchResults>>;
  /** The site's languages and the current technician's choice. */
  getLanguages(): Promise<Result<LanguageState>>;
  /** The current technician reads guides in `langid` (null: the site's own); a sync then fetches them in it. */
  setLanguage(langid: string | null): Promise<Result<LanguageState>>;
  /** The window's screen in device pixels: the sync keeps the video encoding that fits it. */
  setDisplay(display: { width: number; height: number }): Promise<Result<null>>;

  /** Runs a sync now (or joins the one running) and answers when it ends. Progress comes as events. */
  syncNow(): Promise<Result<SyncOutcome>>;
  cancelSync(): Promise<Result<SyncState>>;
  /** Tries failed guides again at once (all of them without `guideids`), then syncs. */
  retryGuides(guideids?: number[]): Promise<Result<SyncOutcome>>;
  getSyncState(): Promise<Result<SyncState>>;
  setOfflineScope(scope: OfflineScope): Promise<Result<SyncState>>;
  setStorageBudget(bytes: number): Promise<Result<SyncState>>;
  /** The picture quality kept for zoom, with the room each would take (estimates). */
  getPictureQuality(): Promise<Result<PictureQualityState>>;
  /** Chooses the picture quality; a sync then downloads it (within the storage budget). */
  setPictureQuality(quality: PictureQuality): Promise<Result<PictureQualityState>>;

  /** Starts a work session; accepted offline, replayed to the site later. */
  startSession(input: StartSessionInput): Promise<Result<WorkSession>>;
  transitionSession(input: TransitionInput): Promise<Result<WorkSession>>;
  /** Saves values of one step's form (unsent saves of the same step are coalesced). */
  saveStepData(input: SaveStepDataInput): Promise<Result<WorkSession>>;
  /** Attaches a file to an Image, Video or Document field: the upload is queued before the value. */
  attachFile(input: AttachFileInput): Promise<Result<WorkSession>>;
  listSessions(filter: { guideid?: number }): Promise<Result<WorkSession[]>>;
  getSession(sessionId: string): Promise<Result<WorkSession>>;
  /** A file attached to one of the technician's sessions, read from this computer (the session report). */
  getAttachment(attachmentId: string): Promise<Result<AttachmentData>>;
  /** Sessions of a guide that others suspended (needs the network). */
  listSuspended(guideid: number): Promise<Result<WorkSession[]>>;
  /** Continues here a session of yours that the site knows (started on another computer). */
  openSession(entryid: number): Promise<Result<WorkSession>>;
  /** Takes over a suspended session of the site: the `assume` is queued like any action. */
  assumeSession(entryid: number): Promise<Result<WorkSession>>;
  getOutbox(): Promise<Result<OutboxView>>;
  /** Replays what can be replayed now; answers when nothing more can go. */
  flushOutbox(): Promise<Result<OutboxSummary>>;
  retryAction(actionId: number): Promise<Result<OutboxView>>;
  discardAction(actionId: number): Promise<Result<OutboxView>>;
  listConflicts(): Promise<Result<ConflictRecord[]>>;
  settleConflict(input: { conflictId: number; keep: 'mine' | 'theirs' }): Promise<Result<ConflictRecord[]>>;

  /** Scores an attempt here (no network needed) and queues it for the site. */
  submitQuizAttempt(input: QuizAttemptInput): Promise<Result<QuizAttempt>>;
  listQuizAttempts(filter: { quizid?: number }): Promise<Result<QuizAttempt[]>>;
  /** The quizzes stored on this computer, with their course stages (each may set its own pass mark). */
  listQuizzes(): Promise<Result<(QuizRef & { guideids: number[]; stages: QuizStage[] })[]>>;
}

export type AppMethod = keyof AppApi;

/** Events pushed from the main process, by name. */
export interface AppEvents {
  status: AppStatus;
  network: NetworkState;
  syncProgress: SyncProgress;
  /** The sync finished (or failed, or was cancelled): the library may have changed. */
  syncState: SyncState;
  outbox: OutboxSummary;
  /** A session changed (locally, or by a replay answer). */
  session: WorkSession;
  conflict: ConflictRecord;
  quizAttempt: QuizAttempt;
}

export type AppEventName = keyof AppEvents;
export type AppEvent = { [K in AppEventName]: { name: K; payload: AppEvents[K] } }[AppEventName];

/**
 * The single runtime list of methods. `satisfies Record<AppMethod, true>` makes a method missing here,
 * or listed here but absent from AppApi, a type error.
 */
const methodSet = {
  getStatus: true,
  connectDemo: true,
  connectWithToken: true,
  connectPublic: true,
  signIn: true,
  cancelConnect: true,
  signOut: true,
  allowMediaOrigin: true,
  listTechnicians: true,
  switchTechnician: true,
  listGuides: true,
  getCategories: true,
  listTags: true,
  getGuide: true,
  getGuideSummary: true,
  getQuiz: true,
  search: true,
  getLanguages: true,
  setLanguage: true,
  setDisplay: true,
  syncNow: true,
  cancelSync: true,
  retryGuides: true,
  getSyncState: true,
  setOfflineScope: true,
  setStorageBudget: true,
  getPictureQuality: true,
  setPictureQuality: true,
  startSession: true,
  transitionSession: true,
  saveStepData: true,
  attachFile: true,
  listSessions: true,
  getSession: true,
  getAttachment: true,
  listSuspended: true,
  assumeSession: true,
  openSession: true,
  getOutbox: true,
  flushOutbox: true,
  retryAction: true,
  discardAction: true,
  listConflicts: true,
  settleConflict: true,
  submitQuizAttempt: true,
  listQuizAttempts: true,
  listQuizzes: true,
} as const satisfies Record<AppMethod, true>;

const eventSet = {
  status: true,
  network: true,
  syncProgress: true,
  syncState: true,
  outbox: true,
  session: true,
  conflict: true,
  quizAttempt: true,
} as const satisfies Record<AppEventName, true>;

export const APP_METHODS = Object.freeze(Object.keys(methodSet)) as readonly AppMethod[];
export const APP_EVENTS = Object.freeze(Object.keys(eventSet)) as readonly AppEventName[];

export function isAppMethod(name: string): name is AppMethod {
  return Object.prototype.hasOwnProperty.call(methodSet, name);
}

/** IPC channel of a method (Electron); the web shell serves the same method at `rpcPath(method)`. */
export const methodChannel = (method: AppMethod): string => `fieldguide:call:${method}`;
/** The one IPC channel events travel on. */
export const EVENT_CHANNEL = 'fieldguide:event';

/** The web shell's App API: `POST /rpc/<method>`, the arguments as `{args: [...]}`, a Result back. */
export const RPC_PREFIX = '/rpc/';
export const rpcPath = (method: AppMethod): string => `${RPC_PREFIX}${method}`;
/** The web shell's event stream (server-sent events); each App API event is one SSE event of this name. */
export const EVENTS_PATH = '/events';
export const SSE_EVENT = 'app';

/**
 * The web shell's launch secret. It comes once, in the address the shell prints (`?launch=`); the page
 * keeps it in its own origin's storage (`LAUNCH_STORAGE_KEY`), which no other port of this computer can
 * read (a cookie would be sent to every port of 127.0.0.1), and sends it as `LAUNCH_HEADER` with every App
 * API call. `POST LAUNCH_ROUTE` with the header answers `{readKey}`: what the event stream's and media
 * addresses carry (`?key=`), since a browser adds no header to those; it reads, it never calls the App API.
 */
export const LAUNCH_PARAM = 'launch';
export const LAUNCH_HEADER = 'x-fieldguide-launch';
export const LAUNCH_ROUTE = '/launch';
export const LAUNCH_STORAGE_KEY = 'fieldguide.launch';
export const READ_KEY_PARAM = 'key';

/**
 * Local media, by the site URL they were downloaded from: `fg-media://media/<encoded URL>` in the desktop
 * app, `/media/<encoded URL>` in the web shell. Both serve what the library downloaded, and two things more
 * the address may ask for:
 * - `?or=<URL>` (repeatable): alternatives, tried in order when the first is not stored (the lightbox asks
 *   for the original, then the large variant, then the step size: it gets the best one stored);
 * - `?live=1`: the first URL may come from the site while it answers, when it is not stored. Only media
 *   the library knows are fetched (every variant of a stored guide's pictures, the media of a guide read
 *   from the site): the route is never a way to reach any other address;
 * - `?download=1`: the answer is an attachment (a guide's documents are saved or opened by the system's
 *   viewer, never shown as a page of the app).
 * Media are data: only pictures, video, PDF and plain text keep their type; everything else is answered
 * as opaque bytes, as an attachment; every answer is sandboxed, nosniff and same-origin only.
 * The renderer never fetches the site itself: its Content-Security-Policy allows only its own shell.
 */
export const MEDIA_SCHEME = 'fg-media';
export const MEDIA_HOST = 'media';
export const MEDIA_ROUTE = '/media/';
export const MEDIA_OR_PARAM = 'or';
export const MEDIA_LIVE_PARAM = 'live';
export const MEDIA_DOWNLOAD_PARAM = 'download';
export const DESKTOP_MEDIA_PREFIX = `${MEDIA_SCHEME}://${MEDIA_HOST}/`;

/** What a media address asks for beyond its first URL. */
export interface MediaOptions {
  or?: readonly string[];
  live?: boolean;
  /** Saved as a file, never shown as a page (a guide's documents). */
  download?: boolean;
  /** The web shell's read key (LAUNCH_ROUTE); the desktop app needs none. */
  key?: string;
}

const mediaQuery = (options: MediaOptions | undefined): string => {
  const params = (options?.or ?? []).map((url) => `${MEDIA_OR_PARAM}=${encodeURIComponent(url)}`);
  if (options?.live) params.push(`${MEDIA_LIVE_PARAM}=1`);
  if (options?.download) params.push(`${MEDIA_DOWNLOAD_PARAM}=1`);
  if (options?.key) params.push(`${READ_KEY_PARAM}=${encodeURIComponent(options.key)}`);
  return params.length > 0 ? `?${params.join('&')}` : '';
};
export const desktopMediaUrl = (siteUrl: string, options?: MediaOptions): string =>
  `${DESKTOP_MEDIA_PREFIX}${encodeURIComponent(siteUrl)}${mediaQuery(options)}`;
export const webMediaUrl = (siteUrl: string, options?: MediaOptions): string =>
  `${MEDIA_ROUTE}${encodeURIComponent(siteUrl)}${mediaQuery(options)}`;

/** Name of the object the preload exposes on `window`. */
export const BRIDGE_GLOBAL = 'fieldguide';

/** What the preload exposes: the App API plus a subscription to events. */
export type BridgeApi = AppApi & {
  onEvent(listener: (event: AppEvent) => void): () => void;
};
