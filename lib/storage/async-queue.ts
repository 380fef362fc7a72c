/**
 * An unbounded single-consumer queue of pushed items, read either as an AsyncIterable (one
 * promise per item) or synchronously with `take()` by a consumer that `onReadable` tells when to
 * look (a writer that batches several items into one socket write). `close()` ends the stream
 * after the buffered items are consumed. A consumer uses one of the two ways, not both.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<T>) => void) | null = null;
  private readable: (() => void) | null = null;
  private closed = false;

  /** Number of buffered, not yet consumed items. */
  get length(): number {
    return this.items.length - this.head;
  }

  get isClosed(): boolean {
    return this.closed;
  }

  /** Adds an item; ignored after close. */
  push(item: T): void {
    if (this.closed) return;
    if (this.waiter) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: item, done: false });
      return;
    }
    this.items.push(item);
    this.readable?.();
  }

  /** Ends the stream once buffered items are drained; `discard` drops them (the stream ends at once). */
  close(discard = false): void {
    if (discard) {
      this.items = [];
      this.head = 0;
    }
    if (this.closed) return;
    this.closed = true;
    if (this.waiter && this.length === 0) {
      const w = this.waiter;
      this.waiter = null;
      w({ value: undefined as T, done: true });
    }
    this.readable?.();
  }

  /**
   * Takes the next item without waiting: the item; `undefined` when none is buffered yet; `null`
   * once the queue is closed and drained (nothing more will come).
   */
  take(): T | undefined | null {
    if (this.head < this.items.length) return this.shift();
    return this.closed ? null : undefined;
  }

  /**
   * Sets the one function told, synchronously from `push` and `close`, that `take()` may have
   * something new (an item or the end). It must not push to this queue.
   */
  onReadable(cb: () => void): void {
    this.readable = cb;
  }

  /** Removes the head item (there is one), compacting the array now and then. */
  private shift(): T {
    const value = this.items[this.head++]!;
    if (this.head > 1024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return value;
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) return Promise.resolve({ value: this.shift(), done: false });
    if (this.closed) return Promise.resolve({ value: undefined as T, done: true });
    return new Promise((resolve) => {
      this.waiter = resolve;
    });
  }

  [Symbol.asyncIterator](): AsyncIterator<T> {
    return {
      next: () => this.next(),
      return: () => {
        this.close();
        this.items = [];
        this.head = 0;
        return Promise.resolve({ value: undefined as T, done: true });
      },
    };
  }
}
