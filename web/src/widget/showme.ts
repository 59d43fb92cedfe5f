// "Show me in the simulation": after the quiz loads a question's scenario, the page lands on the
// figure that answers it (the bank names it: docs/quiz.md, "show"), marks it, and offers the way
// back to the question. The figure is found by its data-figure name inside its section's
// data-ts-section box; nothing here reads or computes a number.

import { h } from '../dom/dom';
import type { Translate } from '../i18n/i18n';
import type { ShowMeTarget } from '../quiz/quiz';

const TARGET_CLASS = 'ts-showme-target';
const BACK_CLASS = 'ts-showme-back';
/** The block a figure sits in, after which the "back to the question" row goes. */
const FIGURE_BLOCK = '.ts-equation, .ts-facts, .ts-fit > p, .ts-big-number, .ts-bar-row';
/** A headline card: the row goes inside it, under the figure, so it stays in view on a phone too. */
const FIGURE_CARD = '.ts-stat';

/** Removes the mark and the "back" row of an earlier show-me. */
export function clearShowMe(root: HTMLElement): void {
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
      figure
        ? t('page.showme.figure', 'The highlighted figure answers question {number}.', question)
        : t('page.showme.scenario', 'The scenario of question {number} is on screen.', question),
    ),
    back,
  );
  if (figure) {
    figure.classList.add(TARGET_CLASS);
    figure.setAttribute('data-showme-question', String(target.question));
    const card = figure.closest(FIGURE_CARD);
    if (card) card.append(row);
    else (figure.closest(FIGURE_BLOCK) ?? figure).after(row);
  } else {
    landing.prepend(row);
  }
  const reduceMotion = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  landing.scrollIntoView({ behavior: reduceMotion ? 'auto' : 'smooth', block: figure ? figureBlock(figure, row) : 'start' });
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
