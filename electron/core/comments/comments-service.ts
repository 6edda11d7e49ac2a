import { randomUUID } from 'node:crypto';
import type { GuideComments, MyComment, NewComment } from '../../contract.ts';
import { commentStillEditable, commentTextProblem, COMMENT_EDIT_SECONDS } from '../../shared/comments.ts';
import type { ServerClock } from '../connection/server-clock.ts';
import { chainKey } from '../db/chains.ts';
import type { MyCommentRow } from '../db/repos/comments-repo.ts';
import type { OutboxRow } from '../db/repos/outbox-repo.ts';
import type { Store } from '../db/store.ts';
import type { Outbox } from '../outbox/outbox.ts';
import { AppFailure } from '../result.ts';
import { commentDeleteAction, commentEditAction, commentPostAction } from './comment-actions.ts';
import { commentChain } from './comments-outbox.ts';

export interface CommentsServiceDeps {
  store: Store;
  clock: Pick<ServerClock, 'stamp'>;
  outbox: Pick<Outbox, 'enqueue' | 'amend'>;
  /** The current technician's local id, or null: a comment is theirs. */
  technician: () => number | null;
  /** The site has comments (the module probe); unknown counts as yes. */
  offered: () => boolean;
  /** The guide is stored here and the technician may read it. */
  readable: (guideid: number) => boolean;
  /** The steps of the guide's stored revision (its own, not its prerequisites'). */
  stepsOf: (guideid: number) => number[];
}

/**
 * Comments written offline: each is queued in the transaction that keeps it, sent once under its
 * author's name, and until it leaves changed in place (its queued send rewritten) or withdrawn; once the
 * site has it, an edit or a delete is queued within the site's 5 minutes.
 */
export class CommentsService {
  constructor(private readonly deps: CommentsServiceDeps) {}

  ofGuide(guideid: number): GuideComments {
    const offered = this.deps.offered();
    const technician = this.deps.technician();
    if (!offered || technician === null) return { offered, mine: [] };
    return { offered, mine: this.deps.store.comments.ofGuide(technician, guideid).map((row) => this.#view(row)) };
  }

  write(input: NewComment): MyComment {
    const technician = this.#me();
    this.#checkOffered();
    const text = this.#checkedText(input.text);
    if (!this.deps.readable(input.guideid))
      throw new AppFailure('not_found', `Guide ${input.guideid} is not stored on this computer.`);
    if (input.context === 'guide' && input.contextid !== input.guideid)
      throw new AppFailure('invalid_input', 'A comment on a guide names that guide.');
    if (input.context === 'step' && !this.deps.stepsOf(input.guideid).includes(input.contextid))
      throw new AppFailure('not_found', `Step ${input.contextid} is not a step of this guide on this computer.`);
    const id = randomUUID();
    const stamp = this.deps.clock.stamp();
    this.deps.store.transaction(() => {
      this.deps.store.comments.insert({
        id,
        technician,
        guideid: input.guideid,
        context: input.context,
        contextid: input.contextid,
        parentid: input.parentid ?? null,
        text,
        writtenAt: stamp.at,
      });
      const at = { chain: commentChain(id), actedAt: stamp.at, technician, stamp };
      this.deps.outbox.enqueue(commentPostAction, { commentId: id, text }, at);
    });
    return this.#view(this.deps.store.comments.get(id)!);
  }

  edit(id: string, newText: string): MyComment {
    const comment = this.#mine(id);
    const text = this.#checkedText(newText);
    const tail = this.#tail(id);
    const stamp = this.deps.clock.stamp();
    const { outbox } = this.deps;
    this.deps.store.transaction(() => {
      this.deps.store.comments.setText(id, text);
      const queued = tail && tail.state !== 'in_flight' ? commentPostAction.parse(tail) : null;
      if (tail && queued?.ok) {
        // Not left yet: the queued send is rewritten and only the new text goes. One that may have landed
        // keeps the texts it went with, to be looked for by them.
        const { tried = [], text: before } = queued.payload;
        const payload = { commentId: id, text, tried: tail.unknownOutcome ? [...tried, before] : tried };
        outbox.amend(tail.id, commentPostAction, payload, { actedAt: tail.actedAt });
        // The site refused the text it had: the new one is tried.
        if (tail.state === 'failed' && !tail.unknownOutcome) this.deps.store.outbox.retry(tail.id);
      } else if (tail && tail.state !== 'in_flight' && tail.kind === commentEditAction.name)
        outbox.amend(tail.id, commentEditAction, { commentId: id, text }, { actedAt: stamp.at, stamp });
      else {
        this.#checkWindow(comment, stamp.at, 'changed');
        const at = { chain: commentChain(id), actedAt: stamp.at, technician: comment.technician, stamp };
        outbox.enqueue(commentEditAction, { commentId: id, text }, at);
      }
    });
    return this.#view(this.deps.store.comments.get(id)!);
  }

  /** Null when the comment never left and is gone; else the comment, its delete queued. */
  delete(id: string): MyComment | null {
    const comment = this.#mine(id);
    const { outbox, comments } = this.deps.store;
    const chain = chainKey(commentChain(id));
    const tail = this.#tail(id);
    const neverLeft = tail && tail.state !== 'in_flight' && !tail.unknownOutcome;
    if (comment.commentid === null && neverLeft && outbox.chainLength(chain) === 1) {
      this.deps.store.transaction(() => {
        outbox.remove(tail.id);
        comments.remove(id);
      });
      return null;
    }
    const stamp = this.deps.clock.stamp();
    this.deps.store.transaction(() => {
      this.#checkWindow(comment, stamp.at, 'deleted');
      comments.markDeleted(id);
      // An edit that has not left is pointless now (a PATCH that may have landed is harmless).
      if (tail && tail.state !== 'in_flight' && tail.kind === commentEditAction.name) outbox.remove(tail.id);
      const at = { chain: commentChain(id), actedAt: stamp.at, technician: comment.technician, stamp };
      this.deps.outbox.enqueue(commentDeleteAction, { commentId: id }, at);
    });
    return this.#view(comments.get(id)!);
  }

  #view(row: MyCommentRow): MyComment {
    const unsentCount = this.deps.store.outbox.chainLength(chainKey(commentChain(row.id)));
    return {
      id: row.id,
      guideid: row.guideid,
      context: row.context,
      contextid: row.contextid,
      parentid: row.parentid,
      text: row.text,
      state: row.deleted ? 'deleted' : row.commentid === null ? 'waiting' : 'sent',
      unsent: unsentCount > 0,
      commentid: row.commentid,
      writtenAt: row.writtenAt,
      editableUntil: row.postedAt === null ? null : row.postedAt + COMMENT_EDIT_SECONDS,
    };
  }

  #tail(id: string): OutboxRow | undefined {
    return this.deps.store.outbox.tail(chainKey(commentChain(id)));
  }

  /** A sent comment is changed only within the site's 5 minutes (one not sent yet gets them when it lands). */
  #checkWindow(comment: MyCommentRow, now: number, what: string): void {
    if (comment.deleted) throw new AppFailure('invalid_input', 'This comment is already deleted.');
    if (comment.postedAt !== null && !commentStillEditable(comment.postedAt, now))
      throw new AppFailure(
        'invalid_input',
        `This comment can no longer be ${what}: the site allows it for 5 minutes after it took the comment.`,
      );
  }

  #mine(id: string): MyCommentRow {
    const technician = this.#me();
    const comment = this.deps.store.comments.get(id);
    // Another technician's comment is not this one's to change: it is as if it were not there.
    if (!comment || comment.technician !== technician) throw new AppFailure('not_found', 'No such comment here.');
    return comment;
  }

  #checkedText(text: string): string {
    const problem = commentTextProblem(text);
    if (problem) throw new AppFailure('invalid_input', problem);
    return text.trim();
  }

  #checkOffered(): void {
    if (!this.deps.offered()) throw new AppFailure('not_found', 'This site has no comments.');
  }

  #me(): number {
    const id = this.deps.technician();
    if (id === null) throw new AppFailure('unauthorized', 'Sign in to a site first.');
    return id;
  }
}
