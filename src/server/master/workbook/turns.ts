/**
 * Turns for work that must not run too many at once: `parallel` run, up to `waiting` wait in
 * order, and more are refused (`take` answers false) rather than queued without end.
 */
export class Turns {
  #running = 0;
  readonly #queue: (() => void)[] = [];

  constructor(
    readonly parallel: number,
    readonly waiting: number,
  ) {}

  /** Waits for a turn; false when too many already wait. Every true must be followed by `give`. */
  async take(): Promise<boolean> {
    if (this.#running < this.parallel) {
      this.#running++;
      return true;
    }
    if (this.#queue.length >= this.waiting) return false;
    await new Promise<void>((resolve) => this.#queue.push(resolve));
    return true;
  }

  /** Ends a turn: the next waiting one runs in its place. */
  give(): void {
    const next = this.#queue.shift();
    if (next) next();
    else this.#running--;
  }
}
