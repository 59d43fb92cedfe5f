// The widget's own words around the sections: the header (kicker, title, lede, units) and the
// footer's caveat. Which ones show depends on the sections the host asked for.

import { h } from '../dom/dom';
import type { Translate } from '../i18n/i18n';
import type { HeadingTag } from '../sections/context';

export interface PageParts {
  memory: boolean;
  time: boolean;
  /** The widget's own title and introduction (the embeds leave them to their course page). */
  header: boolean;
  /** The scenario is kept in the address. */
  syncHash: boolean;
  titleTag: HeadingTag;
}

function unitsNote(t: Translate): HTMLElement {
  return h(
    'p',
    { className: 'ts-units' },
    t(
      'page.units',
      'Units: memory in decimal gigabytes and terabytes (1 GB = 10⁹ bytes, 1 TB = 10¹² bytes); compute in FLOPs (floating-point operations).',
    ),
  );
}

/** The header's one sentence: the lesson's question, or, for a quiz alone, what it checks. */
function lede(t: Translate, { memory, time }: PageParts): string {
  if (memory || time)
    return t(
      'page.lede.one',
      'A model that answers questions fits on a GPU or two, but training it took thousands: here is where that gap comes from, in numbers you can move.',
    );
  return t(
    'page.lede.quiz',
    'Check what you know below: the trainscope engine, running in this page as WebAssembly, works out every answer.',
  );
}

export function pageHeader(t: Translate, parts: PageParts): HTMLElement | null {
  if (!parts.header) return null;
  return h(
    'header',
    { className: 'ts-header' },
    h('p', { className: 'ts-kicker' }, t('page.kicker', 'Interactive · trainscope')),
    h(parts.titleTag, { className: 'ts-title' }, t('page.title', 'Why training needs far more hardware than running a model')),
    h('p', { className: 'ts-lede' }, lede(t, parts)),
  );
}

/** The caveat and the units belong to the figures, below them: the header keeps to the title and one sentence. */
export function pageFooter(t: Translate, parts: PageParts): HTMLElement | null {
  if (!parts.memory && !parts.time) return null;
  return h(
    'footer',
    { className: 'ts-footer' },
    unitsNote(t),
    h(
      'p',
      null,
      // The engine's memory is checked against measured runs (docs/validation.md); what the lesson
      // leaves out is what a framework adds, which the precision part counts "as run".
      t(
        'page.footer.estimates_as_run',
        'Estimates, not measurements: the lesson counts what training itself holds; a real run also holds the CUDA context, the allocator’s reserve and its framework’s buffers. ',
      ),
      parts.syncHash ? t('page.footer.link', 'The scenario is in this page’s address, so a link shares exactly what you see.') : '',
    ),
  );
}
