// What every section of the widget opens with: the section labelled by its numbered title, and a
// paragraph of prose.

import { type Child, h, uniqueId } from '../dom/dom';
import type { NumberedSection, SectionContext } from './context';

/** A section: its title, numbered among the sections shown, as the heading that labels it; then its content. */
export function sectionElement(
  context: SectionContext,
  section: NumberedSection,
  title: string,
  className: string,
  ...content: Child[]
): HTMLElement {
  const headingId = uniqueId('heading');
  return h(
    'section',
    { className, 'aria-labelledby': headingId },
    h(context.headingTag(1), { className: 'ts-section-title', id: headingId }, context.numbered(section, title)),
    ...content,
  );
}

/** A section's prose: one paragraph of sentences. */
export function prose(...sentences: Child[]): HTMLElement {
  return h('div', { className: 'ts-prose' }, h('p', null, ...sentences));
}
