// A word explained where it first appears (issue 31, "Words at first sight"): the term, dotted
// underlined, is a <button> that opens a short bubble with the engine's definition (its glossary,
// engine/glossary.ts) on click, tap, Enter or Space, and closes it on Escape, on leaving it or on a
// tap elsewhere. A screen reader hears the definition as the button's description
// (aria-describedby reads the bubble even while it is hidden), and aria-expanded says whether it
// shows. Made with dom.ts (no style="…" markup: the page runs under style-src 'self'); the bubble
// is moved with CSSOM only to keep it inside the viewport on a 320 px phone. Works in a document
// and in a shadow root.
//
// For a section:
//   const terms = termsFor(context.t, context.language);
//   h('p', null, ...terms.mark(t('key', 'ZeRO shards the optimizer states'), ['zero', 'optimizer_states']));
//   terms.term('tensor_parallel', 'TP')          // one term, shown as given
//   terms.markIn(control.element, ['zero'])      // static text someone else built (labels, hints)
//   terms.key(t('key', 'The letters:'), ['tensor_parallel', 'pipeline_parallel'])  // "The letters: TP · PP"

import { type Child, h, setAttribute, setHidden, setStyle, uniqueId } from '../dom/dom';
import { glossaryIn, type Glossary, type GlossaryTerm } from '../engine/glossary';
import type { Language, Translate } from '../i18n/i18n';
import { findTerms, splitAtTerms } from './term-match';

/** An opening bracket or quotation mark that ends a text and so must stay on the line of the term after it. */
const OPENING_AT_END = /[([{«„“‘"']$/u;

/** Space kept between the bubble and the viewport's edge, in CSS pixels. */
const EDGE = 8;

export interface Terms {
  /** One term as a toggletip showing `shown` (its abbreviation, else its name, by default); plain text for an unknown id. */
  term(id: string, shown?: string): Node;
  /** `text` with the first mention of each of `ids` as a toggletip (the glossary's forms in this language); unmentioned ids are skipped. */
  mark(text: string, ids: readonly string[]): Child[];
  /**
   * Marks, in place, the first mention of each of `ids` in the text of `root` (a control's label and
   * hints built elsewhere). Only for text that is never rewritten: a setter that replaces it would
   * drop the marks. Skips buttons, form fields, <summary> and terms already marked.
   */
  markIn(root: Element, ids: readonly string[]): void;
  /**
   * A line of terms for words that first appear where a button cannot go (a radio's label, an
   * option, a card rewritten on every answer): "{label} TP · PP · DP", each a toggletip showing
   * `shown(term)` (its abbreviation, else its name, by default).
   */
  key(label: string, ids: readonly string[], shown?: (term: GlossaryTerm) => string): HTMLElement;
}

/** Closes on Escape, on focus leaving, and on a press outside (a tap does not always move focus). */
function toggletipBehaviour(wrapper: HTMLElement, button: HTMLButtonElement, bubble: HTMLElement): void {
  const outside = (event: Event) => {
    if (!event.composedPath().includes(wrapper)) show(false);
  };
  const show = (open: boolean) => {
    setAttribute(button, 'aria-expanded', String(open));
    setHidden(bubble, !open);
    // The widget's own root (its shadow root, or the document): presses there see the wrapper in their path.
    const root = wrapper.getRootNode() as Document | ShadowRoot;
    if (open) {
      root.addEventListener('pointerdown', outside, true);
      keepInView(bubble);
    } else root.removeEventListener('pointerdown', outside, true);
  };
  button.addEventListener('click', (event) => {
    // Inside a <label>, a click must not also choose the labelled option.
    event.preventDefault();
    show(button.getAttribute('aria-expanded') !== 'true');
  });
  wrapper.addEventListener('keydown', (event) => {
    if (event.key !== 'Escape' || button.getAttribute('aria-expanded') !== 'true') return;
    event.stopPropagation();
    show(false);
    button.focus();
  });
  wrapper.addEventListener('focusout', (event) => {
    const next = (event as FocusEvent).relatedTarget as Node | null;
    if (!next || !wrapper.contains(next)) show(false);
  });
  // A click on the definition (inside a <label>) must not choose the labelled option either.
  bubble.addEventListener('click', (event) => event.preventDefault());
}

/** Shifts the open bubble left or right so that it stays inside the viewport (a 320 px phone). */
function keepInView(bubble: HTMLElement): void {
  setStyle(bubble, 'left', '');
  const view = bubble.ownerDocument.documentElement.clientWidth || window.innerWidth;
  const box = bubble.getBoundingClientRect();
  let shift = 0;
  if (box.right > view - EDGE) shift = view - EDGE - box.right;
  if (box.left + shift < EDGE) shift = EDGE - box.left;
  setStyle(bubble, 'left', shift === 0 ? '' : `${Math.round(shift)}px`);
}

function bubbleFor(t: Translate, term: GlossaryTerm, id: string): HTMLElement {
  const title = term.abbreviation ? `${term.abbreviation}: ${term.name}` : term.name;
  const bubble = h(
    'span',
    { className: 'ts-term-bubble', id },
    h('strong', { className: 'ts-term-name' }, title),
    ' ',
    h('span', { className: 'ts-term-definition' }, term.definition),
    term.source ? h('span', { className: 'ts-term-source' }, t('term.source', 'Source: {source}', { source: term.source })) : null,
  );
  bubble.hidden = true;
  return bubble;
}

/** One term as a toggletip: the dotted button and its bubble, side by side in a span. */
export function termElement(t: Translate, term: GlossaryTerm, shown: string): HTMLElement {
  const bubbleId = uniqueId('term');
  const bubble = bubbleFor(t, term, bubbleId);
  const button = h(
    'button',
    {
      type: 'button',
      className: 'ts-term-button',
      'aria-expanded': 'false',
      'aria-controls': bubbleId,
      'aria-describedby': bubbleId,
      'data-term': term.id,
    },
    shown,
  );
  const wrapper = h('span', { className: 'ts-term' }, button, bubble);
  toggletipBehaviour(wrapper, button, bubble);
  return wrapper;
}

/** Text nodes under `root` that may be marked: not inside a control, a summary or a term. */
function markableTextNodes(root: Element): Text[] {
  const skip = 'button, select, option, textarea, input, summary, h1, h2, h3, h4, h5, h6, .ts-term, svg';
  const nodes: Text[] = [];
  const walker = root.ownerDocument.createTreeWalker(root, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode()) {
    if (node.parentElement?.closest(skip)) continue;
    if ((node as Text).data.trim()) nodes.push(node as Text);
  }
  return nodes;
}

function termsFrom(t: Translate, glossary: Glossary): Terms {
  const known = (ids: readonly string[]) => ids.map((id) => glossary.term(id)).filter((term): term is GlossaryTerm => term !== undefined);
  const pieces = (text: string, terms: readonly GlossaryTerm[]): Child[] => {
    const children: Child[] = [];
    for (const piece of splitAtTerms(text, findTerms(text, terms))) {
      if (typeof piece === 'string') {
        children.push(piece);
        continue;
      }
      const term = termElement(t, glossary.term(piece.id) as GlossaryTerm, piece.text);
      // A term is a button, which a line may break before even after "(": the bracket joins it.
      const before = children[children.length - 1];
      const opening = typeof before === 'string' ? OPENING_AT_END.exec(before) : null;
      if (opening === null) {
        children.push(term);
        continue;
      }
      children[children.length - 1] = (before as string).slice(0, opening.index);
      children.push(h('span', { className: 'ts-term-join' }, opening[0], term));
    }
    return children.filter((child) => child !== '');
  };
  return {
    term(id, shown) {
      const term = glossary.term(id);
      const text = shown ?? (term?.abbreviation || term?.name || id);
      return term ? termElement(t, term, text) : document.createTextNode(text);
    },
    mark: (text, ids) => pieces(text, known(ids)),
    key(label, ids, shown = (term) => term.abbreviation || term.name) {
      const items = known(ids).flatMap((term, index) => [index > 0 ? ' · ' : null, termElement(t, term, shown(term))]);
      return h('p', { className: 'ts-terms-key' }, label, ' ', items);
    },
    markIn(root, ids) {
      let left = known(ids);
      for (const node of markableTextNodes(root)) {
        if (left.length === 0) return;
        const spans = findTerms(node.data, left);
        if (spans.length === 0) continue;
        const found = new Set(spans.map((span) => span.id));
        left = left.filter((term) => !found.has(term.id));
        const fragment = root.ownerDocument.createDocumentFragment();
        fragment.append(...pieces(node.data, known([...found])).map((child) => (typeof child === 'string' ? child : (child as Node))));
        node.replaceWith(fragment);
      }
    },
  };
}

/** The terms of the widget's language, explained by its engine's glossary, written with its translator. */
export function termsFor(t: Translate, language: Language): Terms {
  return termsFrom(t, glossaryIn(language));
}
