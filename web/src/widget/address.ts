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
    changeHistory('replace', history.state, hash);
  }

  /**
   * "Show me": the question's scenario in a new history entry (the learner's own is written in
   * the entry before it first: write()), so the browser's Back brings the learner's back.
   * Returns whether the entry was added (a sandboxed page may refuse).
   */
  pushShowMe(): boolean {
    this.cancel();
    return changeHistory('push', { [SHOW_ME_STATE]: true }, this.hash());
  }

  /** A new history entry for what is on screen (a loaded layout); false when the page refuses. */
  push(): boolean {
    this.cancel();
    return changeHistory('push', null, this.hash());
  }

  /** Whether the entry on screen is the one pushShowMe added. */
  static onShowMeEntry(): boolean {
    const state: unknown = history.state;
    return typeof state === 'object' && state !== null && (state as Record<string, unknown>)[SHOW_ME_STATE] === true;
  }
}

/** Marks the history entry "show me" adds. */
const SHOW_ME_STATE = 'trainscopeShowMe';

function changeHistory(how: 'push' | 'replace', state: unknown, hash: string): boolean {
  const url = `${window.location.pathname}${window.location.search}${hash}`;
  try {
    if (how === 'push') history.pushState(state, '', url || '#');
    else history.replaceState(state, '', url || '#');
    return true;
  } catch {
    // Some embedders (sandboxed iframes, file:// in some browsers) refuse; the page still works.
    return false;
  }
}
