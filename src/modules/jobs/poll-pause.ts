/** The wait between two rounds of a poll loop, which new work (or a stop) cuts short. */
export class PollPause {
  private wakeUp: (() => void) | null = null;

  constructor(private readonly ms: number) {}

  /** Resolves after the pause, or as soon as `wake()` is called. */
  wait(): Promise<void> {
    return new Promise<void>((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.wakeUp = null;
        resolve();
      };
      const timer = setTimeout(done, this.ms);
      this.wakeUp = done;
    });
  }

  /** Ends the current pause, if one is running. */
  wake(): void {
    this.wakeUp?.();
  }
}
