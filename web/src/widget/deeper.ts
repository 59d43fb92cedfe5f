// The deeper parts' frame: a "Go deeper" group after the quiz, one disclosure per tool, each
// built the first time it is opened; and the landing a story or a lesson part's link makes on a
// part (scrolled to, marked for a moment, its heading focused for screen readers and keyboards).

import { h, uniqueId } from '../dom/dom';
import type { Translate } from '../i18n/i18n';
import type { HeadingTag } from '../sections/context';
import type { DeeperPart } from './parts-plan';

/** How long a landed part stays marked. */
const LANDED_MS = 2400;

/** Each deeper part's section, by the name its data-ts-section carries (the quiz's show-me and the tests find them by it). */
export const DEEPER_SECTION_NAMES: Readonly<Record<DeeperPart, string>> = {
  layouts: 'sharding',
  step: 'step',
  activations: 'activations',
  'time-over-gpus': 'time',
  fit: 'fit',
  precision: 'precision',
  'your-model': 'config',
};

/** A deeper part's name and what it holds, in the widget's language. */
function deeperWords(t: Translate, part: DeeperPart): { title: string; teaser: string } {
  switch (part) {
    case 'layouts':
      return {
        title: t('deeper.layouts.title', 'Cluster layouts and communication'),
        teaser: t('deeper.layouts.teaser', 'Tensor, pipeline, context and expert parallelism, and how Meta laid out Llama 3 405B.'),
      };
    case 'step':
      return {
        title: t('deeper.step.title', 'One training step, moment by moment'),
        teaser: t('deeper.step.teaser', 'Play a step and watch what one GPU holds at each moment.'),
      };
    case 'activations':
      return {
        title: t('deeper.activations.title', 'Activations in detail'),
        teaser: t('deeper.activations.teaser', 'Micro-batch, sequence length, global batch and FlashAttention.'),
      };
    case 'time-over-gpus':
      return {
        title: t('deeper.time.title', 'Time over GPUs, and your own GPU'),
        teaser: t('deeper.time.teaser', 'When adding GPUs stops paying, GPU types, utilisation and price.'),
      };
    case 'fit':
      return {
        title: t('deeper.fit.title', 'What fits on my GPUs?'),
        teaser: t('deeper.fit.teaser', 'Your GPUs and your goal: the layouts that fit, LoRA, QLoRA and offload.'),
      };
    case 'precision':
      return {
        title: t('deeper.precision.title', 'Precision, optimizer and serving'),
        teaser: t('deeper.precision.teaser', 'Other precisions and optimizers, the key/value cache, and how other tools count.'),
      };
    case 'your-model':
      return {
        title: t('deeper.config.title', 'Your own model'),
        teaser: t('deeper.config.teaser', 'Paste a Hugging Face config.json and see it run and train.'),
      };
  }
}

export interface DeeperDisclosure {
  readonly element: HTMLDetailsElement;
  /** Opens the part, building it first if it never was. */
  open(): void;
}

/** A deeper part behind its disclosure: `build` fills its body the first time it opens (by the learner or a link). */
export function deeperDisclosure(t: Translate, part: DeeperPart, build: (body: HTMLElement) => void): DeeperDisclosure {
  const { title, teaser } = deeperWords(t, part);
  const body = h('div', { className: 'ts-deeper-part-body' });
  const element = h(
    'details',
    { className: 'ts-deeper-part', id: `ts-deeper-${part}`, 'data-ts-deeper': part },
    h('summary', null, h('span', { className: 'ts-deeper-part-title' }, title), h('span', { className: 'ts-deeper-part-teaser' }, teaser)),
    body,
  ) as HTMLDetailsElement;
  let built = false;
  const ensureBuilt = () => {
    if (built) return;
    built = true;
    build(body);
  };
  element.addEventListener('toggle', () => {
    if (element.open) ensureBuilt();
  });
  return {
    element,
    open: () => {
      if (!element.open) element.open = true;
      ensureBuilt();
    },
  };
}

/** The group after the quiz: a heading and a line when some parts wait behind disclosures, then every deeper part. */
export function deeperParts(t: Translate, headingTag: HeadingTag, items: HTMLElement[], anyClosed: boolean): HTMLElement {
  if (!anyClosed) return h('div', { className: 'ts-deeper-parts' }, items);
  const headingId = uniqueId('heading');
  return h(
    'section',
    { className: 'ts-deeper-parts', 'aria-labelledby': headingId },
    h(headingTag, { className: 'ts-section-title', id: headingId }, t('deeper.heading', 'Go deeper')),
    h(
      'p',
      { className: 'ts-deeper-parts-lede' },
      t('deeper.lede', 'The tools behind the lesson, for when you want to try your own settings. Each opens where it is.'),
    ),
    items,
  );
}

/** Brings a part into view, marks it for a moment and moves focus to its heading (or the part). */
export function landOnPart(part: HTMLElement): void {
  const reduced = typeof matchMedia === 'function' && matchMedia('(prefers-reduced-motion: reduce)').matches;
  part.scrollIntoView({ behavior: reduced ? 'auto' : 'smooth', block: 'start' });
  part.classList.add('ts-landed');
  setTimeout(() => part.classList.remove('ts-landed'), LANDED_MS);
  const heading = part.querySelector<HTMLElement>('.ts-section-title, summary') ?? part;
  if (!heading.hasAttribute('tabindex') && heading.tagName !== 'SUMMARY') heading.setAttribute('tabindex', '-1');
  heading.focus({ preventScroll: true });
}
