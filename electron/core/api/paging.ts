import { unexpectedAnswer } from './errors.ts';

/**
 * Guards a listing read page by page against a site that ignores `offset`: it answers its first page
 * again and again, and the listing would never end. `next` takes each page's ids in turn and throws,
 * with words a technician can pass on, when a page after the first holds nothing the previous one did not.
 */
export class PagingGuard {
  #previous: ReadonlySet<number> = new Set();

  constructor(
    private readonly resource: string,
    /** What is listed, plural: "guides", "quizzes". */
    private readonly what: string,
  ) {}

  next(offset: number, ids: readonly number[]): void {
    if (offset > 0 && ids.length > 0 && ids.every((id) => this.#previous.has(id))) {
      throw unexpectedAnswer(
        this.resource,
        `The site answered the same ${this.what} again for the page after the first ` +
          `${offset.toLocaleString('en')}: it does not seem to page its list of ${this.what}, ` +
          `so reading it stopped there.`,
      );
    }
    this.#previous = new Set(ids);
  }
}
