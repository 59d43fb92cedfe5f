// The lesson's second part: what training's extra bytes per weight hold (gradients, the FP32
// master copy, the optimizer's states), on one scale with running, and the optimizer that sets them.

import { h } from '../../dom/dom';
import { termsFor } from '../../figures/term';
import { choiceSelect, fineTuningSentence, memoryBars, memoryWhy, trainingExtrasSentence } from '../memory';
import { offloadNote } from '../offload-note';
import type { PageView, SectionContext, SectionView } from '../context';
import { sectionElement } from '../shell';
import { deeperLinks } from './deeper-link';

export function trainingExtrasPart(context: SectionContext): SectionView {
  const { t } = context;
  const sentence = trainingExtrasSentence(context);
  // With LoRA, QLoRA or offload (set in "What fits"), what is trained and where the states live.
  const fineTuning = fineTuningSentence(context);
  const offload = offloadNote(context);
  const bars = memoryBars(context);
  const whyDetails = memoryWhy(context);
  const terms = termsFor(t, context.language);
  // The bars' legends name the KV cache, the logits and the micro-batch; legends stay plain text
  // (their names are read as figures), so their words have a line of their own under the figure.
  const barWords = terms.key(t('lesson.extras.terms', 'In the bars:'), ['kv_cache', 'logits', 'micro_batch'], (term) => term.name);
  const optimizer = choiceSelect(context, 'training.optimizer', t('memory.deeper.optimizer', 'Optimizer'));
  const element = sectionElement(
    context,
    'training-extras',
    t('lesson.extras.heading', 'What each weight brings to training'),
    'ts-section ts-lesson-part',
    sentence.element,
    fineTuning.element,
    offload.element,
    h('div', { className: 'ts-lesson-controls' }, optimizer),
    bars.element,
    barWords,
    whyDetails.element,
    deeperLinks(context, [
      ['precision', t('lesson.extras.to_precision', 'Other precisions and optimizers, serving, and why other tools count another total')],
    ]),
  );
  // Words at first sight, in the part's sentence (the legends keep their names plain: figures are read from them).
  terms.markIn(sentence.element, ['gradients', 'master_copy', 'optimizer_states', 'activations']);
  const update = (view: PageView) => {
    sentence.update(view);
    fineTuning.update(view);
    offload.update(view.estimate);
    whyDetails.update(view);
  };
  return { element, update, parts: [{ element: bars.element, update: bars.update, referenceOnly: true }] };
}
