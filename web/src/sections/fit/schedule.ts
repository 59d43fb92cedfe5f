// When the fit section asks the engine: for a scenario it has not shown yet, once the input has
// rested, and only while the section is on screen or near it. The search costs more than a frame
// on a large cluster, so a story or a link that changes the scenario while the learner reads
// another section does not pay for it; the section catches up as it comes near.

import type { PageView } from '../context';

/** How far outside the viewport the section still counts as near. */
const NEAR_MARGIN = '25% 0px';

/**
 * Returns the section's `update`: `search(view)` runs at once for a scenario that comes after a
 * rest of `restMs` (the first one, a loaded layout, a "show me" that lands here), and `restMs`
 * after the last of a quick run of them (a slider being dragged), when near. The element carries
 * `aria-busy` while an answer is owed and `data-fit-key`, the scenario its answer is for.
 */
export function searchWhenNear(
  element: HTMLElement,
  search: (view: PageView) => void,
  restMs: number,
): { update: (view: PageView) => void; settle: () => void } {
  let shownKey = '';
  let owed: PageView | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let near = true;
  let lastAsked = -Infinity;
  const run = (evenFar = false) => {
    timer = undefined;
    if (!owed || (!near && !evenFar)) return;
    const view = owed;
    owed = null;
    search(view);
    element.setAttribute('aria-busy', 'false');
    element.setAttribute('data-fit-key', JSON.stringify(view.scenario));
  };
  if (typeof IntersectionObserver === 'function') {
    const observer = new IntersectionObserver(
      (entries) => {
        near = entries[entries.length - 1]?.isIntersecting ?? near;
        if (near && owed && timer === undefined) run();
      },
      { rootMargin: NEAR_MARGIN },
    );
    observer.observe(element);
  }
  const update = (view: PageView) => {
    const key = JSON.stringify(view.scenario);
    if (key === shownKey) return;
    const now = performance.now();
    const rested = now - lastAsked >= restMs;
    lastAsked = now;
    shownKey = key;
    owed = view;
    clearTimeout(timer);
    timer = undefined;
    element.setAttribute('aria-busy', 'true');
    if (rested) run();
    else timer = setTimeout(() => run(), restMs);
  };
  // Answers now what is owed, near or not: "show me" is about to land on this section.
  const settle = () => {
    clearTimeout(timer);
    run(true);
  };
  return { update, settle };
}
