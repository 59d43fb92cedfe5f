// "Show me in the simulation": after the quiz loads a question's scenario, the page lands on the
// figure that answers it (the bank names it: docs/quiz.md, "show"), marks it, and offers the way
// back to the question. The figure is found by its data-figure name inside its section's
// data-ts-section box; nothing here reads or computes a number.

import { h } from '../dom/dom';
import type { Translate } from '../i18n/i18n';
import type { ShowMeTarget } from '../quiz/quiz';

const TARGET_CLASS = 'ts-showme-target';
const BACK_CLASS = 'ts-showme-back';
/**
 * The block a figure sits in, after which the "back to the question" row goes (the step chart's
 * peak: under the chart, outside its image).
 */
const FIGURE_BLOCK = '.ts-equation, .ts-facts, .ts-fit > p, .ts-big-number, .ts-bar-row, .ts-step-chart';
/** A headline card: the row goes inside it, under the figure, so it stays in view on a phone too. */
const FIGURE_CARD = '.ts-stat';
/** Narrower than this, a card would wrap the row's sentence word by word: the row spans the cards' grid under them. */
const NARROWEST_CARD_FOR_ROW_PX = 240;

/** Per widget root: ends the watch that keeps the last landing in view (keepInViewWhileSettling). */
const stopSettling = new WeakMap<HTMLElement, () => void>();

/** Removes the mark and the "back" row of an earlier show-me. */
export function clearShowMe(root: HTMLElement): void {
  stopSettling.get(root)?.();
  for (const marked of root.querySelectorAll<HTMLElement>(`.${TARGET_CLASS}`)) {
    marked.classList.remove(TARGET_CLASS);
    marked.removeAttribute('data-showme-question');
    if (marked.dataset.showmeTabindex === 'added') {
      marked.removeAttribute('tabindex');
      delete marked.dataset.showmeTabindex;
    }
  }
  for (const row of root.querySelectorAll(`.${BACK_CLASS}`)) row.remove();
}

/**
 * Lands on `target`'s figure in `section` (already built and showing the new scenario): marks it,
 * puts "Back to question N" beside it, scrolls it into view and moves focus to it. Without the
 * section or figure (a widget that shows only some sections), lands on `fallback`.
 * Returns the element landed on.
 */
export function landOnFigure(
  t: Translate,
  root: HTMLElement,
  section: HTMLElement | null,
  target: ShowMeTarget,
  fallback: HTMLElement | null,
): HTMLElement | null {
  clearShowMe(root);
  const figure =
    section && target.figure
      ? ([...section.querySelectorAll<HTMLElement>('[data-figure]')].find(
          (element) => element.dataset.figure === target.figure && element.getClientRects().length > 0,
        ) ?? null)
      : null;
  const landing = figure ?? section ?? fallback;
  if (!landing) return null;
  const question = { number: String(target.question) };
  const back = h(
    'button',
    { type: 'button', className: 'ts-button', 'data-action': 'back-to-question' },
    t('page.showme.back', 'Back to question {number}', question),
  );
  back.addEventListener('click', () => {
    clearShowMe(root);
    target.back();
  });
  const row = h(
    'p',
    { className: BACK_CLASS },
    h(
      'span',
      null,
      !figure
        ? t('page.showme.scenario', 'The scenario of question {number} is on screen.', question)
        : target.answerDrawn
          ? t('page.showme.figure', 'The highlighted figure answers question {number}.', question)
          : t('page.showme.figure_holds', 'The answer to question {number} is one part of the highlighted figure.', question),
    ),
    back,
  );
  if (figure) {
    figure.classList.add(TARGET_CLASS);
    figure.setAttribute('data-showme-question', String(target.question));
    const card = figure.closest<HTMLElement>(FIGURE_CARD);
    // A card too narrow for the row (a phone's run and train side by side) keeps it under the pair.
    if (card && card.getBoundingClientRect().width >= NARROWEST_CARD_FOR_ROW_PX) card.append(row);
    else if (card) (card.parentElement ?? card).append(row);
    else (figure.closest(FIGURE_BLOCK) ?? figure).after(row);
  } else {
    landing.prepend(row);
  }
  const reduceMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  const block = figure ? figureBlock(figure, row) : 'start';
  landing.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block });
  keepInViewWhileSettling(root, landing, figure ? row : null, block);
  // Focus follows the view, so keyboard and screen-reader users land where the answer is.
  if (!landing.hasAttribute('tabindex')) {
    landing.setAttribute('tabindex', '-1');
    landing.dataset.showmeTabindex = 'added';
  }
  landing.focus({ preventScroll: true });
  return landing;
}

/**
 * Where the figure should sit so that it and the "back" row below it are both in view: centred
 * when the row is close, at the top (under its scroll margin) when the row is further down, and
 * centred again when nothing shows both (the figure matters more).
 */
function figureBlock(figure: HTMLElement, row: HTMLElement): ScrollLogicalPosition {
  const viewHeight = figure.ownerDocument.defaultView?.innerHeight ?? 0;
  const span = row.getBoundingClientRect().bottom - figure.getBoundingClientRect().top;
  if (span <= viewHeight / 2) return 'center';
  return span <= viewHeight - 120 ? 'start' : 'center';
}

/** How long after landing the page may still move the figure (sections above finishing their build, fonts). */
const SETTLE_MS = 2500;
/** A scroll this recent is still running: a resize waits for it to end. */
const SCROLL_QUIET_MS = 150;

/**
 * Sections above the figure may still grow after the scroll began (a part built when it came near,
 * a narrow redraw), pushing the figure and its way back off screen. Until the page settles, each
 * change of the widget's size and the scroll's end bring them back into view, unless the learner
 * scrolls or types first (then the page is theirs).
 */
function keepInViewWhileSettling(root: HTMLElement, landing: HTMLElement, row: HTMLElement | null, block: ScrollLogicalPosition): void {
  const view = root.ownerDocument.defaultView;
  if (!view || typeof ResizeObserver !== 'function') return;
  const inView = (element: HTMLElement) => {
    const rect = element.getBoundingClientRect();
    return rect.top >= 0 && rect.bottom <= view.innerHeight;
  };
  const check = () => {
    if (!landing.isConnected) return stop();
    if (!inView(landing) || (row && row.isConnected && !inView(row))) landing.scrollIntoView({ behavior: 'auto', block });
  };
  // While the smooth scroll runs, its end decides (scrollend); a resize after it corrects at once.
  let lastScroll = performance.now();
  const onScroll = () => {
    lastScroll = performance.now();
  };
  let pending: ReturnType<typeof setTimeout> | undefined;
  const onResize = () => {
    clearTimeout(pending);
    pending = setTimeout(() => (performance.now() - lastScroll >= SCROLL_QUIET_MS ? check() : onResize()), SCROLL_QUIET_MS);
  };
  let first = true;
  const observer = new ResizeObserver(() => {
    // The observer reports the size it starts with: not a change.
    if (first) first = false;
    else onResize();
  });
  const learnerMoves = ['wheel', 'touchstart', 'keydown', 'pointerdown'] as const;
  const stop = () => {
    if (stopSettling.get(root) === stop) stopSettling.delete(root);
    observer.disconnect();
    clearTimeout(timer);
    clearTimeout(pending);
    view.removeEventListener('scroll', onScroll);
    view.removeEventListener('scrollend', check);
    for (const type of learnerMoves) view.removeEventListener(type, stop, true);
  };
  const timer = setTimeout(stop, SETTLE_MS);
  stopSettling.set(root, stop);
  observer.observe(root);
  view.addEventListener('scroll', onScroll, { passive: true });
  view.addEventListener('scrollend', check);
  for (const type of learnerMoves) view.addEventListener(type, stop, { capture: true, passive: true });
}
