/**
 * Sends values one at a time, and of the values given while a send runs only the latest: every
 * edit is sent at once (spec 001 §4), yet a burst of edits costs two calls, and answers cannot
 * arrive out of order.
 */
export class LatestSender<T> {
  private running = false;
  private next: { value: T } | null = null;

  constructor(private readonly send: (value: T) => Promise<unknown>, private readonly onError: (error: unknown) => void) {}

  push(value: T): void {
    this.next = { value };
    if (!this.running) void this.drain();
  }

  private async drain(): Promise<void> {
    this.running = true;
    while (this.next) {
      const { value } = this.next;
      this.next = null;
      try {
        await this.send(value);
      } catch (error) {
        this.onError(error);
      }
    }
    this.running = false;
  }
}
