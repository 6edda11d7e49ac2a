/**
 * The App API: everything the renderer may ask of the main process, and every event it may hear, one file
 * per feature (connection, technicians, library and guide, sync, worklog, outbox, quiz), joined here.
 *
 * Types and constants only: nothing here runs. No runtime list of methods lives here: the core's
 * declarations (core/app-methods.ts) are the one list; the IPC channels, the web shell's routes and the
 * preload are derived from it, and the renderer's web bridge needs none. Every path, event name, scheme
 * and global the shells and the renderer share is a constant (shells.ts, media.ts); nobody spells one again.
 */
export * from './app-api.ts';
export * from './changes.ts';
export * from './comments.ts';
export * from './connection.ts';
export * from './events.ts';
export * from './guide.ts';
export * from './library.ts';
export * from './marks.ts';
export * from './media.ts';
export * from './outbox.ts';
export * from './quiz.ts';
export * from './result.ts';
export * from './shells.ts';
export * from './sync.ts';
export * from './technicians.ts';
export * from './worklog.ts';
