// Work that is not on screen waits: it runs when its place nears the viewport, or when the
// browser is idle, whichever comes first, so the first figure paints before it.

/** How far outside the viewport a section counts as near (a screen's worth of scrolling). */
const NEAR_MARGIN = '100% 0px';

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
    observer = new IntersectionObserver((entries) => {
      if (entries.some((entry) => entry.isIntersecting)) run();
    }, { rootMargin: NEAR_MARGIN });
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
