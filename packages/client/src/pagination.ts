import type { OperationSpec } from './spec.js';

/** One page of a list as the transport reads it: the answer, its items and where the next page is. */
export interface Page<P, I> {
  page: P;
  items: I[];
  hasMore: boolean;
  nextCursor: string | null;
}

type Query = Record<string, unknown>;
type FetchPage<P, I> = (query: Query) => Promise<Page<P, I>>;

/** Where a sync starts: a moment (a Date or an ISO 8601 text), or the `cursor` an earlier sync ended with. */
export type SyncFrom = Date | string | { cursor: string };

/** The query of the page after `page`, or null at the end of the list. */
function nextQuery(spec: OperationSpec, query: Query, page: Page<unknown, unknown>): Query | null {
  if (!page.hasMore) return null;
  if (page.nextCursor && page.nextCursor !== query.startingAfter) {
    const { page: _number, ...rest } = query;
    return { ...rest, startingAfter: page.nextCursor };
  }
  // A search of contacts has no cursor: it pages by number.
  if (spec.list?.byPage) return { ...query, page: (typeof query.page === 'number' ? query.page : 1) + 1 };
  throw new Error(`${spec.id}: the answer says more records follow but gives no way to them`);
}

/**
 * A list call. Awaited, it is the first page as the service answers it; iterated with `for await`, it is
 * every item of every page, each page asked for when the previous one is used up (by cursor: a walk
 * lists each record once even while others are created or deleted). `pages()` iterates the answers.
 */
export class ListCall<P, I> implements PromiseLike<P>, AsyncIterable<I> {
  private first: Promise<P> | undefined;

  constructor(
    private readonly spec: OperationSpec,
    private readonly query: object,
    private readonly fetchPage: FetchPage<P, I>,
  ) {}

  // biome-ignore lint/suspicious/noThenProperty: a list call is awaited for its first page, by design.
  then<A = P, B = never>(
    onFulfilled?: ((page: P) => A | PromiseLike<A>) | null,
    onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null,
  ): Promise<A | B> {
    this.first ??= this.fetchPage({ ...this.query }).then((p) => p.page);
    return this.first.then(onFulfilled, onRejected);
  }

  /** The first page's failure, as a promise's `catch`. */
  catch<B = never>(onRejected?: ((reason: unknown) => B | PromiseLike<B>) | null): Promise<P | B> {
    return this.then(undefined, onRejected);
  }

  /** Every answer, page after page. */
  async *pages(): AsyncGenerator<P, void, undefined> {
    for await (const page of this.walk()) yield page.page;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<I, void, undefined> {
    for await (const page of this.walk()) yield* page.items;
  }

  private async *walk(): AsyncGenerator<Page<P, I>, void, undefined> {
    let query: Query | null = { ...this.query };
    while (query) {
      const page: Page<P, I> = await this.fetchPage(query);
      yield page;
      query = nextQuery(this.spec, query, page);
    }
  }
}

/**
 * A sync: what a list holds that was created or changed since a moment, oldest change first, page after
 * page. `cursor` is the list's `nextCursor` once all the items of a page were taken: keep it, and start
 * the next sync from it (`{cursor}`) to get only what changed since. Stopping inside a page keeps the
 * cursor before it, so a resumed sync may repeat a few records, never skip one.
 */
export class SyncCall<I> implements AsyncIterable<I> {
  cursor: string | undefined;

  constructor(
    private readonly spec: OperationSpec,
    private readonly query: object,
    private readonly from: SyncFrom,
    private readonly fetchPage: FetchPage<unknown, I>,
  ) {
    this.cursor = typeof from === 'object' && !(from instanceof Date) ? from.cursor : undefined;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<I, void, undefined> {
    const from = this.from;
    let query: Query | null =
      typeof from === 'object' && !(from instanceof Date)
        ? { ...this.query, startingAfter: from.cursor }
        : { ...this.query, updatedSince: from instanceof Date ? from.toISOString() : from };
    while (query) {
      const page = await this.fetchPage(query);
      yield* page.items;
      if (page.nextCursor) this.cursor = page.nextCursor;
      // The cursor carries the moment: the pages after the first ask with it alone.
      const { updatedSince: _since, ...rest } = query;
      query = nextQuery(this.spec, rest, page);
    }
  }
}
