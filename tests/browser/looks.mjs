// What a person would notice at a glance, checked in the page: text on top of other text,
// text cut off or pushed past the widget's edge or the screen, and the same figure printed twice
// in one figure or panel. Each finding names the text and its box, so a failure says what to fix.
// Works on a page or a frame (iframe), and finds widgets inside open shadow roots too.
import assert from 'node:assert/strict';

/** Units the engine writes after a figure (docs/numbers.md); a number followed by one is "a figure". */
const FIGURE_UNITS = [
  'bytes?', 'kB', 'MB', 'GB', 'TB', 'PB', 'EB',
  '[kMGTPE]?FLOP/s', 'FLOPs',
  'seconds?', 'minutes?', 'hours?', 'days?', 'weeks?', 'months?', 'years?',
  '[kMGT]?Wh', 'GPU-hours',
];

/**
 * Runs in the page. For every trainscope widget in this document (light DOM or open shadow
 * roots): overlapping text, text outside its clipping box, the widget or the viewport, a field
 * whose value is cut off, and any figure printed twice within one figure or panel.
 */
function inspect({ units }) {
  const problems = [];
  /** More than this many findings say the same thing: the rest are counted, not listed. */
  const LISTED = 12;
  const viewportWidth = document.documentElement.clientWidth;
  const round = (value) => Math.round(value * 10) / 10;
  const box = (rect) => `[${round(rect.left)}–${round(rect.right)} × ${round(rect.top)}–${round(rect.bottom)}]`;
  const quote = (text) => `“${text.replace(/\s+/g, ' ').trim().slice(0, 80)}”`;

  /** Where a text sits, in words a person can find on screen: section heading › figure or control. */
  const place = (element) => {
    const section = element.closest('section, .ts-section, header, footer');
    const heading = section?.querySelector('h1, h2, h3, h4, h5, h6, legend');
    const group = element.closest('figure, .ts-control, .ts-quiz-item, .ts-panel');
    const groupName = group?.matches('figure') ? 'figure'
      : group?.matches('.ts-control') ? `control ${quote(group.querySelector('.ts-label')?.textContent ?? group.dataset.field ?? '')}`
        : group?.matches('.ts-quiz-item') ? `question ${group.dataset.itemId}` : group ? 'panel' : '';
    return [heading ? quote(heading.textContent) : '', groupName].filter(Boolean).join(' › ');
  };

  const roots = [];
  const collectRoots = (scope) => {
    for (const root of scope.querySelectorAll('.ts-root')) roots.push(root);
    for (const element of scope.querySelectorAll('*')) if (element.shadowRoot) collectRoots(element.shadowRoot);
  };
  collectRoots(document);
  if (roots.length === 0) problems.push('no trainscope widget found');

  for (const [widgetIndex, root] of roots.entries()) {
    const widgetName = roots.length > 1 ? `widget ${widgetIndex + 1}: ` : '';
    const rootRect = root.getBoundingClientRect();
    const items = [];
    const seen = new Map();
    const hiddenStyle = (element) => {
      if (!seen.has(element)) seen.set(element, !element.checkVisibility({ visibilityProperty: true, opacityProperty: true }));
      return seen.get(element);
    };
    // The box that clips an element: the intersection of its clipping ancestors' padding boxes.
    const clippers = new Map();
    const clipBoxOf = (element) => {
      if (!element || element === root.parentNode || !(element instanceof Element)) return null;
      if (clippers.has(element)) return clippers.get(element);
      let result = clipBoxOf(element.parentElement);
      const style = getComputedStyle(element);
      if (style.overflowX !== 'visible' || style.overflowY !== 'visible') {
        const rect = element.getBoundingClientRect();
        const left = rect.left + element.clientLeft;
        const top = rect.top + element.clientTop;
        const own = { left, right: left + element.clientWidth, top, bottom: top + element.clientHeight, element };
        result = result ? {
          left: Math.max(result.left, own.left), right: Math.min(result.right, own.right),
          top: Math.max(result.top, own.top), bottom: Math.min(result.bottom, own.bottom),
          element: own.right - own.left <= result.right - result.left ? own.element : result.element,
        } : own;
      }
      clippers.set(element, result);
      return result;
    };
    const walker = document.createTreeWalker(root, NodeFilter.SHOW_TEXT);
    for (let node = walker.nextNode(); node; node = walker.nextNode()) {
      const text = node.textContent;
      const start = text.search(/\S/);
      if (start < 0) continue;
      const element = node.parentElement;
      if (!element || element.closest('script, style, select, option, noscript, template, .ts-visually-hidden')) continue;
      if (hiddenStyle(element)) continue;
      const end = text.length - (text.length - text.trimEnd().length);
      const range = document.createRange();
      range.setStart(node, start);
      range.setEnd(node, end);
      for (const rect of range.getClientRects()) {
        if (rect.width < 1 || rect.height < 1) continue;
        // Lines a box hides on purpose (a two-line clamp with its ellipsis) are not on screen.
        const clip = clipBoxOf(element);
        if (clip && (rect.bottom <= clip.top + 0.5 || rect.top >= clip.bottom - 0.5)) continue;
        items.push({ text: text.trim(), element, rect });
      }
    }
    // Fields and lists show text too (their value), and a label must not sit on them.
    for (const control of root.querySelectorAll('input, select, textarea, button')) {
      if (control.matches('input[type="hidden"]') || control.getClientRects().length === 0 || hiddenStyle(control)) continue;
      const rect = control.getBoundingClientRect();
      if (rect.width < 1 || rect.height < 1) continue;
      const isText = control.matches('input[type="text"], input:not([type]), textarea');
      if (isText && control.scrollWidth > control.clientWidth + 1) {
        problems.push(`${widgetName}${place(control)}: the field's value ${quote(control.value)} is cut off (${control.scrollWidth}px of text in ${control.clientWidth}px)`);
      }
      if (control.matches('button')) continue; // its text nodes are already in the list
      items.push({ text: `[${control.tagName.toLowerCase()}${control.type ? ` ${control.type}` : ''}${control.value ? ` ${control.value}` : ''}]`, element: control, rect, control: true });
    }

    // A block held in view over the page (position sticky or fixed: "What fits"' answer at the foot
    // of the screen) covers what scrolls under it on purpose, with its own background.
    const overlays = new Map();
    const overlayOf = (element) => {
      if (!element || element === root || !(element instanceof Element)) return null;
      if (!overlays.has(element)) {
        const position = getComputedStyle(element).position;
        overlays.set(element, position === 'sticky' || position === 'fixed' ? element : overlayOf(element.parentElement));
      }
      return overlays.get(element);
    };
    // Overlaps: any two boxes from different nodes whose interiors meet by more than a hairline
    // (glyph boxes of wrapped lines may touch; real collisions share pixels both ways).
    items.sort((a, b) => a.rect.left - b.rect.left);
    for (let i = 0; i < items.length; i += 1) {
      const a = items[i];
      for (let j = i + 1; j < items.length && items[j].rect.left < a.rect.right - 1; j += 1) {
        const b = items[j];
        if (a.element === b.element && !a.control) continue;
        if (a.element.contains(b.element) || b.element.contains(a.element)) continue;
        if (overlayOf(a.element) !== overlayOf(b.element)) continue;
        const across = Math.min(a.rect.right, b.rect.right) - Math.max(a.rect.left, b.rect.left);
        const down = Math.min(a.rect.bottom, b.rect.bottom) - Math.max(a.rect.top, b.rect.top);
        const tolerance = Math.max(2, 0.25 * Math.min(a.rect.height, b.rect.height));
        if (across > 1 && down > tolerance) {
          problems.push(`${widgetName}${place(a.element)}: ${quote(a.text)} ${box(a.rect)} overlaps ${quote(b.text)} ${box(b.rect)}${place(b.element) !== place(a.element) ? ` (${place(b.element)})` : ''}`);
        }
      }
    }

    // Cut off or pushed out: past the widget's sides, the viewport, or a clipping ancestor.
    const reported = new Set();
    for (const item of items) {
      if (item.control) continue;
      const { rect } = item;
      const where = `${widgetName}${place(item.element)}: ${quote(item.text)} ${box(rect)}`;
      let problem = null;
      if (rect.left < -0.5 || rect.right > viewportWidth + 0.5) problem = `${where} is off screen (viewport 0–${viewportWidth})`;
      else if (rect.left < rootRect.left - 0.5 || rect.right > rootRect.right + 0.5) problem = `${where} leaves the widget (${round(rootRect.left)}–${round(rootRect.right)})`;
      else {
        const clip = clipBoxOf(item.element);
        if (clip && (rect.left < clip.left - 0.5 || rect.right > clip.right + 0.5)) {
          problem = `${where} is cut off by <${clip.element.tagName.toLowerCase()} class="${clip.element.className}"> (${round(clip.left)}–${round(clip.right)})`;
        }
      }
      if (problem && !reported.has(item.element)) {
        reported.add(item.element);
        problems.push(problem);
      }
    }

    // The same figure twice in one figure: a person reads it as two things, or as noise. (A quiz
    // answer and its worked explanation end on the same figure on purpose: that is not a figure.)
    const figurePattern = new RegExp(`(?:\\$\\s?)?\\d[\\d,.]*(?:\\s?×\\s?10[⁰¹²³⁴⁵⁶⁷⁸⁹⁻]+)?(?:\\s?(?:thousand|million|billion|trillion))?\\s?(?:${units.join('|')})(?![\\w/])`, 'g');
    const visibleElements = new Set(items.filter((item) => !item.control).map((item) => item.element));
    /** The group's visible text, and for each character the data-figure name (if any) of its element. */
    const textOf = (group) => {
      let text = '';
      const names = [];
      const groupWalker = document.createTreeWalker(group, NodeFilter.SHOW_TEXT);
      for (let node = groupWalker.nextNode(); node; node = groupWalker.nextNode()) {
        const element = node.parentElement;
        if (!node.textContent.trim() || !visibleElements.has(element)) continue;
        // A legend names each of its values (weights and gradients may both be 141 GB).
        if (element.closest('.ts-legend')) continue;
        // Axis marks are a scale, not figures (the caption may name them too).
        if (element.closest('.ts-tick, figcaption')) continue;
        const name = element.closest('[data-figure]')?.dataset.figure ?? null;
        const piece = `${node.textContent} `;
        text += piece;
        for (let k = 0; k < piece.length; k += 1) names.push(name);
      }
      return { text, names };
    };
    for (const group of root.querySelectorAll('figure')) {
      if (group.getClientRects().length === 0) continue;
      const { text, names } = textOf(group);
      const occurrences = new Map();
      for (const match of text.matchAll(figurePattern)) {
        const figure = match[0].replace(/\s+/g, ' ').trim();
        if (/^\$?0(?:\s|$)/.test(figure)) continue; // "0 bytes saved", "logits add 0 bytes": nothing, not a figure
        if (!occurrences.has(figure)) occurrences.set(figure, []);
        occurrences.get(figure).push(names[match.index]);
      }
      for (const [figure, named] of occurrences) {
        // Two figures the page names differently (data-figure) are two quantities that happen to agree.
        const distinct = named.every((name) => name !== null) && new Set(named).size === named.length;
        if (named.length > 1 && !distinct) {
          problems.push(`${widgetName}${place(group)}: ${quote(figure)} is shown ${named.length} times in one figure`);
        }
      }
    }
  }

  if (document.documentElement.scrollWidth > document.documentElement.clientWidth) {
    problems.push(`the page scrolls sideways: ${document.documentElement.scrollWidth}px of content in a ${document.documentElement.clientWidth}px viewport`);
  }
  const unique = [...new Set(problems)];
  return unique.length > LISTED ? [...unique.slice(0, LISTED), `… and ${unique.length - LISTED} more`] : unique;
}

/** What a person would notice wrong in `target` (a Page or Frame), as sentences; [] when it looks right. */
export function lookProblems(target) {
  return target.evaluate(inspect, { units: FIGURE_UNITS });
}

/** Fails with every finding, labelled with `where` (person, width, theme, step). */
export async function assertLooksRight(target, where) {
  // Sections far off screen catch up with a drag when the browser is idle (web/src/widget/widget.ts): look
  // at the page as the learner finds it once they stop, not halfway through a catch-up.
  await target.evaluate(() => new Promise((resolve) => requestIdleCallback(() => requestAnimationFrame(() => resolve()), { timeout: 1000 })));
  const problems = await lookProblems(target);
  assert.deepEqual(problems, [], `${where}:\n  ${problems.join('\n  ')}`);
}

/**
 * Sections off screen skip rendering (content-visibility: auto), so a full-page screenshot shows
 * them blank. A constructed stylesheet (which a strict CSP allows) renders everything, in the
 * document and in every open shadow root.
 */
export function renderEverything(target) {
  return target.evaluate(() => {
    const css = '.ts-section { content-visibility: visible !important; }';
    const adopt = (scope) => {
      if (scope.tsRenderEverything) return;
      const sheet = new CSSStyleSheet();
      sheet.replaceSync(css);
      scope.adoptedStyleSheets = [...scope.adoptedStyleSheets, sheet];
      scope.tsRenderEverything = true;
    };
    adopt(document);
    const visit = (scope) => {
      for (const element of scope.querySelectorAll('*')) {
        if (!element.shadowRoot) continue;
        adopt(element.shadowRoot);
        visit(element.shadowRoot);
      }
    };
    visit(document);
  });
}

/** Two animation frames: ResizeObservers and layout-dependent labels have run. */
export function settle(target) {
  return target.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))));
}
