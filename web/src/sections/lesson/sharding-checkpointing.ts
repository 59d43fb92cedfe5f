// The lesson's third part: sharding spreads the model states over many GPUs, checkpointing trades
// extra arithmetic for activation memory. Whether training fits, what one GPU holds, the fewest
// GPUs that train it; three controls (the ZeRO stage, the GPUs, checkpointing). The engine's notes
// sit here, under the controls they name, and never above this part.

import { radioControl } from '../../controls/controls';
import { h, setFigure, setHidden } from '../../dom/dom';
import { withElements } from '../../i18n/i18n';
import { termsFor } from '../../figures/term';
import { recomputeChoices, recomputeTerms } from '../activations';
import type { PageView, SectionContext, SectionView } from '../context';
import { gpuControl } from '../gpus';
import { fitStatus, gpuChips, zeroStageTerms } from '../sharding';
import { prose, sectionElement } from '../shell';
import { deeperLinks } from './deeper-link';

/** What checkpointing costs on screen: the engine's recompute overhead, shown while it is paid. */
function recomputeCost(context: SectionContext) {
  const { t } = context;
  const overhead = h('strong', { 'data-figure': 'lesson-recompute-overhead' });
  const element = h(
    'p',
    { className: 'ts-hint' },
    withElements(t('lesson.fit.recompute_cost', 'Checkpointing costs {overhead} more arithmetic per step.'), { overhead }),
  );
  const update = ({ estimate }: PageView) => {
    const cost = estimate.compute.recompute_overhead;
    setHidden(element, !(cost > 0));
    setFigure(overhead, context.units.formatPercent(cost), cost);
  };
  return { element, update };
}

export function shardingCheckpointingPart(context: SectionContext, notes: HTMLElement[]): SectionView {
  const { t } = context;
  const terms = termsFor(t, context.language);
  const status = fitStatus(context, notes.length > 0);
  const chips = gpuChips(context);
  const cost = recomputeCost(context);
  const zero = context.add(
    radioControl(
      'parallel.zero_stage',
      t('controls.zero', 'Sharding (ZeRO stage)'),
      [...context.choices('parallel.zero_stage')],
      context.onValue,
    ),
  );
  const recompute = context.add(
    radioControl('training.recompute', t('controls.recompute', 'Activation checkpointing'), recomputeChoices(context), context.onValue),
  );
  const intro = prose(
    t(
      'lesson.fit.prose',
      'No GPU holds a terabyte. Sharding (ZeRO, or PyTorch’s FSDP) gives each GPU only its slice of the weights’ company; checkpointing keeps few activations and recomputes the rest in the backward pass, trading arithmetic for memory.',
    ),
  );
  const element = sectionElement(
    context,
    'sharding-checkpointing',
    t('lesson.fit.heading', 'Sharding and checkpointing make it fit'),
    'ts-section ts-lesson-part',
    intro,
    h(
      'div',
      { className: 'ts-panel' },
      h(
        'div',
        { className: 'ts-panel-controls' },
        zero.element,
        zeroStageTerms(context, terms),
        gpuControl(context),
        recompute.element,
        recomputeTerms(context, terms),
        cost.element,
      ),
      h('figure', { className: 'ts-figure' }, status.element, chips.element),
    ),
    notes,
    deeperLinks(context, [
      ['layouts', t('lesson.fit.to_layouts', 'See how Meta split Llama 3 405B over 16,384 GPUs')],
      ['step', t('lesson.fit.to_step', 'Watch one training step, moment by moment')],
      ['activations', t('lesson.fit.to_activations', 'What the activations grow with')],
      ['fit', t('lesson.fit.to_fit', 'What fits on your own GPUs?')],
    ]),
  );
  // Words at first sight: in the part's sentence and the figure's words, never inside a radio's label
  // (a tap there chooses; the stages' and choices' lines beside the radios explain those).
  terms.markIn(intro, ['zero', 'fsdp', 'activation_checkpointing']);
  terms.markIn(status.element, ['optimizer_states', 'master_copy']);
  const update = (view: PageView) => {
    status.update(view);
    chips.update(view);
    cost.update(view);
  };
  return { element, update };
}
