// The lesson's fourth part: training compute ≈ 6 × parameters × tokens (the engine's rule, 4 × frozen
// + 6 × adapter parameters for LoRA and QLoRA), and what it means in time
// on one GPU against the learner's GPUs. Two controls: the tokens and the GPUs.

import { h } from '../../dom/dom';
import { termsFor } from '../../figures/term';
import type { PageView, SectionContext, SectionView } from '../context';
import { gpuControl } from '../gpus';
import { prose, sectionElement } from '../shell';
import { flopsSentence, sixNDEquation, timeFigure } from '../time';
import { deeperLinks } from './deeper-link';

export function computeTimePart(context: SectionContext): SectionView {
  const { t } = context;
  const { formatCount } = context.units;
  const equation = sixNDEquation(context);
  const sentence = flopsSentence(context);
  // The equation above shows the utilisation; its prediction for a layout waits in the deeper time part.
  const figure = timeFigure(context, false);
  const tokens = context.range({
    path: 'training.tokens',
    label: t('time.tokens', 'Training tokens'),
    formatField: (v) => formatCount(v, { short: true, significant: 4 }),
    describe: (v) => context.units.formatTokens(v),
    fieldLabel: t('time.tokens_field', 'Training tokens, exact number (e.g. 15.6T)'),
  });
  const element = sectionElement(
    context,
    'compute-time',
    t('lesson.time.heading', 'Time: thousands of GPUs for months'),
    'ts-section ts-lesson-part',
    prose(
      // The engine's rule in words: 6 per parameter per token, or 4 per frozen and 6 per adapter parameter.
      sentence.element,
      t(
        'lesson.time.prose',
        'Divide that count by what the GPUs sustain — well under half their peak — to see what it means on one GPU and on many.',
      ),
    ),
    equation.element,
    equation.tokensOrigin,
    h('div', { className: 'ts-panel' }, h('div', { className: 'ts-panel-controls' }, tokens.element, gpuControl(context)), figure.element),
    deeperLinks(context, [['time-over-gpus', t('lesson.time.to_curve', 'How the time falls as GPUs are added, and your own GPU')]]),
  );
  const terms = termsFor(t, context.language);
  terms.markIn(element.querySelector('.ts-prose') ?? element, ['flops', 'utilisation']);
  // The facts' labels are written once: GPU-hours is explained where the learner first reads it.
  terms.markIn(figure.element, ['gpu_hours']);
  const update = (view: PageView) => {
    equation.update(view);
    sentence.update(view);
  };
  return { element, update, parts: [{ element: figure.element, update: figure.update }] };
}
