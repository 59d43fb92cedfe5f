// Writing the scenario into the page's address (hash.ts's format) once the input settles.
// replaceState makes Chromium lay out the page when layout is dirty, so writing it on every slider
// step cost more than the figures themselves: a short pause, then an idle moment after the frame.

/** How long the input must rest before the address is rewritten. */
const HASH_SETTLE_MS = 250;

export class AddressWriter {
  private timer: ReturnType<typeof setTimeout> | undefined;
  private idle: number | undefined;

  /** `hash()` gives the hash for what is on screen when the write happens. */
  constructor(private readonly hash: () => string) {}

  get pending(): boolean {
    return this.timer !== undefined || this.idle !== undefined;
  }

  schedule(): void {
    this.cancel();
    this.timer = setTimeout(() => {
      this.timer = undefined;
      if (typeof requestIdleCallback === 'function') this.idle = requestIdleCallback(() => this.write(), { timeout: 1000 });
      else this.write();
    }, HASH_SETTLE_MS);
  }

  cancel(): void {
    clearTimeout(this.timer);
    this.timer = undefined;
    if (this.idle !== undefined && typeof cancelIdleCallback === 'function') cancelIdleCallback(this.idle);
    this.idle = undefined;
  }

  /** Writes now (a pending write when the page is left, so the address carries the last change). */
  write(): void {
    this.idle = undefined;
    const hash = this.hash();
    if (hash === window.location.hash || (hash === '' && window.location.hash === '')) return;
    // replaceState: moving a slider should not fill the back button's history.
    const url = `${window.location.pathname}${window.location.search}${hash}`;
    try {
      history.replaceState(history.state, '', url || '#');
    } catch {
      // Some embedders (sandboxed iframes, file:// in some browsers) refuse; the page still works.
    }
  }
}
