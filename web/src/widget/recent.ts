// The engine's last few answers, by the scenario asked. A learner comparing two or three settings
// (a check box on and off, the three checkpointing choices) asks the same scenarios again and
// again; a slider's new positions miss and cost what they always did.

/** At most `capacity` results, the most recently used kept. */
export class RecentResults<T> {
  private readonly entries: Array<{ key: string; value: T }> = [];

  constructor(private readonly capacity: number) {}

  /** The result for `key`, computed by `compute` only when it is not among the recent ones. */
  get(key: string, compute: () => T): T {
    const index = this.entries.findIndex((entry) => entry.key === key);
    if (index >= 0) {
      const [entry] = this.entries.splice(index, 1);
      this.entries.unshift(entry);
      return entry.value;
    }
    const value = compute();
    this.entries.unshift({ key, value });
    this.entries.length = Math.min(this.entries.length, this.capacity);
    return value;
  }
}
