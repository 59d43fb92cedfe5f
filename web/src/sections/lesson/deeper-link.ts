// A lesson part's way into its deeper tool: a link that opens the deeper part (built when first
// opened) and brings it into view. Shown only where the widget has that part.

import { h } from '../../dom/dom';
import type { DeeperLink, SectionContext } from '../context';

/** One link per deeper part the widget shows, in a row under the part; null when none leads anywhere. */
export function deeperLinks(context: SectionContext, links: ReadonlyArray<readonly [DeeperLink, string]>): HTMLElement | null {
  const shown = links.filter(([part]) => context.hasDeeper(part));
  if (shown.length === 0) return null;
  return h(
    'p',
    { className: 'ts-deeper-links' },
    shown.map(([part, text]) =>
      h(
        'a',
        {
          href: `#ts-deeper-${part}`,
          className: 'ts-deeper-link',
          'data-deeper': part,
          onclick: (event: Event) => {
            event.preventDefault();
            context.openDeeper(part);
          },
        },
        text,
      ),
    ),
  );
}
