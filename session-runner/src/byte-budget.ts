/**
 * A semaphore counted in bytes: outbound media in flight on one runner (R6 of whatsapp-review-3). A
 * taker waits until its bytes fit under the capacity; one larger than the whole capacity goes when
 * nothing else is in flight, so it never waits forever. First come, first served: a large file is
 * not passed over for ever by a stream of small ones.
 */
export class ByteBudget {
  private used = 0;
  private queue: { bytes: number; admit: () => void }[] = [];

  constructor(readonly capacity: number) {}

  /** bytes taken and not yet released */
  get inFlight() {
    return this.used;
  }

  /** takers waiting for room */
  get waiting() {
    return this.queue.length;
  }

  /** Resolves once `bytes` fit, with the function that gives them back (once; later calls do nothing). */
  async take(bytes: number): Promise<() => void> {
    if (!this.queue.length && this.fits(bytes)) this.used += bytes;
    else await new Promise<void>((admit) => this.queue.push({ bytes, admit }));
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.used -= bytes;
      this.admit();
    };
  }

  private fits(bytes: number) {
    return this.used === 0 || this.used + bytes <= this.capacity;
  }

  private admit() {
    while (this.queue.length && this.fits(this.queue[0]!.bytes)) {
      const next = this.queue.shift()!;
      this.used += next.bytes;
      next.admit();
    }
  }
}
