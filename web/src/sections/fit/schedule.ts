// When the fit section asks the engine: for a scenario it has not shown yet, once the input has
// rested, and only while the section is on screen or near it. The search costs more than a frame
// on a large cluster, so a story or a link that changes the scenario while the learner reads
// another section does not pay for it; the section catches up as it comes near.

import type { PageView } from '../context';

/** How far outside the viewport the section still counts as near. */
const NEAR_MARGIN = '25% 0px';

/**
 * Returns the section's `update`: `search(view)` runs at once the first time (the section is built
 * near the viewport), then `restMs` after the last new scenario, when near. The element carries
 * `aria-busy` while an answer is owed and `data-fit-key`, the scenario its answer is for.
 */
export function searchWhenNear(element: HTMLElement, search: (view: PageView) => void, restMs: number): (view: PageView) => void {
  let shownKey = '';
  let owed: PageView | null = null;
  let timer: ReturnType<typeof setTimeout> | undefined;
  let near = true;
  const run = () => {
    timer = undefined;
    if (!owed || !near) return;
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
  return (view) => {
    const key = JSON.stringify(view.scenario);
    if (key === shownKey) return;
    const first = shownKey === '';
    shownKey = key;
    owed = view;
    clearTimeout(timer);
    timer = undefined;
    element.setAttribute('aria-busy', 'true');
    if (first) run();
    else timer = setTimeout(run, restMs);
  };
}
