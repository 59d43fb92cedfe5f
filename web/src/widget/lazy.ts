// Work that is not on screen waits: it runs when its place nears the viewport, or when the
// browser is idle, whichever comes first, so the first figure paints before it.

/** How far outside the viewport a section counts as near (a screen's worth of scrolling). */
const NEAR_MARGIN = '100% 0px';

/**
 * How far outside the viewport a figure counts as on screen when an input changes it: a tenth of
 * a screen. What lies further waits until the input rests (INPUT_REST_MS), or until it comes this
 * near, whichever is first: a learner scrolling reaches it after its refresh, and an input costs
 * what is on screen.
 */
export const ON_SCREEN_MARGIN = '10% 0px';

/**
 * A figure off screen catches up once the input has rested this long (each step of a drag
 * postpones it), in the next idle moment: refreshed between two steps, its layout would land in
 * the next step's frame.
 */
export const INPUT_REST_MS = 150;

/** The longest a rested input leaves a figure off screen showing an old estimate when the browser is never idle. */
export const STALE_IDLE_TIMEOUT_MS = 300;

/** Runs `work` once, when `element` nears the viewport or the browser is idle (if `whenIdle`). Returns a cancel. */
export function whenNear(element: Element, work: () => void, options: { whenIdle?: boolean; idleTimeout?: number } = {}): () => void {
  let done = false;
  let observer: IntersectionObserver | null = null;
  let idle: number | undefined;
  let timer: ReturnType<typeof setTimeout> | undefined;
  const cancel = () => {
    done = true;
    observer?.disconnect();
    if (idle !== undefined && typeof cancelIdleCallback === 'function') cancelIdleCallback(idle);
    clearTimeout(timer);
  };
  const run = () => {
    if (done) return;
    cancel();
    work();
  };
  if (typeof IntersectionObserver === 'function') {
    observer = new IntersectionObserver(
      (entries) => {
        if (entries.some((entry) => entry.isIntersecting)) run();
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(element);
  } else {
    timer = setTimeout(run, 0);
  }
  if (options.whenIdle !== false) {
    if (typeof requestIdleCallback === 'function') idle = requestIdleCallback(run, { timeout: options.idleTimeout ?? 3000 });
    else timer = setTimeout(run, 200);
  }
  return cancel;
}

/** Resolves in a new task, so what follows paints separately from what came before. */
export function nextTask(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 0));
}

/**
 * Which elements are near the viewport now. Updates to a section far off screen can then wait for
 * an idle moment instead of lengthening the learner's input → figure time. An element not yet
 * reported on counts as near, so nothing is left stale before the observer's first report.
 */
export class NearViewport {
  private readonly near = new Set<Element>();
  private readonly reported = new Set<Element>();
  private readonly observer: IntersectionObserver | null;

  constructor(onNear: (element: Element) => void, margin = NEAR_MARGIN) {
    this.observer =
      typeof IntersectionObserver === 'function'
        ? new IntersectionObserver(
            (entries) => {
              for (const entry of entries) {
                this.reported.add(entry.target);
                if (entry.isIntersecting) {
                  this.near.add(entry.target);
                  onNear(entry.target);
                } else {
                  this.near.delete(entry.target);
                }
              }
            },
            { rootMargin: margin },
          )
        : null;
  }

  observe(element: Element): void {
    this.observer?.observe(element);
  }

  isNear(element: Element): boolean {
    return this.observer === null || !this.reported.has(element) || this.near.has(element);
  }

  disconnect(): void {
    this.observer?.disconnect();
  }
}

/** Runs `work` once `restMs` have passed, in the next idle moment (at most `timeout` later). Returns a cancel. */
export function whenRested(work: () => void, restMs: number, timeout: number): () => void {
  let cancelIdle: (() => void) | null = null;
  const timer = setTimeout(() => {
    cancelIdle = whenIdle(work, timeout);
  }, restMs);
  return () => {
    clearTimeout(timer);
    cancelIdle?.();
  };
}

/** Runs `work` when the browser is idle, but within `timeout` ms. Returns a cancel. */
export function whenIdle(work: () => void, timeout: number): () => void {
  if (typeof requestIdleCallback === 'function') {
    const handle = requestIdleCallback(work, { timeout });
    return () => cancelIdleCallback(handle);
  }
  const handle = setTimeout(work, Math.min(timeout, 50));
  return () => clearTimeout(handle);
}
