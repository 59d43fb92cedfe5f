// "Why?" on demand: a closed <details> with the idea, the formula and the source.

import { h } from '../dom/dom';
import type { Translate } from '../i18n/i18n';

/** "Why?" on demand: the idea in a sentence or two, the formula, the source. */
export function why(t: Translate, summary: string, paragraphs: Array<string | Node>, formula: string | null, source: string): HTMLElement {
  return h(
    'details',
    { className: 'ts-why' },
    h('summary', null, summary),
    h(
      'div',
      { className: 'ts-why-body' },
      paragraphs.map((paragraph) => h('p', null, paragraph)),
      formula ? h('p', { className: 'ts-formula' }, formula) : null,
      h('p', { className: 'ts-source' }, h('span', { className: 'ts-source-label' }, t('figures.why.source', 'Source: ')), source),
    ),
  );
}
