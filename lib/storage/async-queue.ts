/**
 * An unbounded single-consumer async queue used to turn pushed events into an AsyncIterable.
 * `close()` ends iteration after the buffered items are consumed.
 */
export class AsyncQueue<T> implements AsyncIterable<T> {
  private items: T[] = [];
  private head = 0;
  private waiter: ((r: IteratorResult<T>) => void) | null = null;
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
  }

  private next(): Promise<IteratorResult<T>> {
    if (this.head < this.items.length) {
      const value = this.items[this.head++]!;
      if (this.head > 1024 && this.head * 2 > this.items.length) {
        this.items = this.items.slice(this.head);
        this.head = 0;
      }
      return Promise.resolve({ value, done: false });
    }
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
