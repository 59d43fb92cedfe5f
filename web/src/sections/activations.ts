// Section 2: activations, remembered or recomputed: memory saved beside compute paid.

import { checkboxControl, radioControl } from '../controls/controls';
import { h, setAttribute, setFigure, setHidden, setText } from '../dom/dom';
import { stackedBar } from '../figures/stacked-bar';
import { termsFor, type Terms } from '../figures/term';
import { why } from '../figures/why';
import { withElements, type Translate } from '../i18n/i18n';
import type { Choice, Estimate } from '../engine/types';
import type { SectionContext, SectionView } from './context';
import { globalBatchControl } from './global-batch';
import { prose, sectionElement } from './shell';

/** Why activations cost memory, and what recomputing them buys. */
function activationsProse(t: Translate): HTMLElement {
  return prose(
    t(
      'activations.prose_1',
      'The backward pass needs what every layer computed on the way forward. Keeping all of it costs memory that grows with the batch and, for attention, with the square of the sequence length. ',
    ),
    t(
      'activations.prose_2',
      'Checkpointing keeps only a little and recomputes the rest when the backward pass asks for it: a lot of memory saved for some extra arithmetic.',
    ),
  );
}

/** The batch, the sequence and checkpointing: the inputs that set the activations. */
function activationsControls(context: SectionContext, accumulation: HTMLElement, globalBatch: HTMLElement): HTMLElement {
  const { t } = context;
  const { formatInteger } = context.units;
  return h(
    'div',
    { className: 'ts-panel-controls' },
    context.range({
      path: 'training.micro_batch',
      label: t('activations.micro_batch', 'Micro-batch (sequences per GPU per step)'),
      formatField: formatInteger,
      describe: (v) => context.units.formatSequences(v),
    }).element,
    globalBatch,
    accumulation,
    context.range({
      path: 'training.sequence',
      label: t('activations.sequence', 'Sequence length (tokens)'),
      formatField: formatInteger,
      describe: (v) => context.units.formatTokens(v),
    }).element,
    context.add(
      radioControl('training.recompute', t('controls.recompute', 'Activation checkpointing'), recomputeChoices(context), context.onValue),
    ).element,
    recomputeTerms(context, termsFor(t, context.language)),
    context.add(
      checkboxControl(
        'training.flash_attention',
        'FlashAttention',
        context.onValue,
        t('activations.flash_hint', 'never stores the attention score matrix'),
      ),
    ).element,
  );
}

function activationsWhy(t: Translate): HTMLElement {
  return why(
    t,
    t('activations.why.summary', 'Why does recomputation save so much?'),
    [
      t(
        'activations.why.body',
        'For each layer, the forward pass produces dozens of intermediate tensors the size of the input, plus attention scores that grow with the square of the sequence. Full checkpointing keeps only each layer’s input and runs the forward pass again during the backward pass: about one extra forward pass, a third more compute. Selective recomputation redoes only the attention core, which is cheap to recompute and expensive to store; FlashAttention never stores those scores in the first place.',
      ),
    ],
    t(
      'activations.why.formula',
      'per layer, 16-bit: s·b·h·(34 + 5·a·s/h) with nothing recomputed; 34·s·b·h with selective; 2·s·b·h with full (s sequence, b micro-batch, h hidden, a heads)',
    ),
    t(
      'activations.why.sources',
      'Korthikanti et al. 2022, “Reducing Activation Recomputation in Large Transformer Models”, Table 2; Dao et al. 2022, “FlashAttention”.',
    ),
  );
}

/** One labelled bar: "Keep everything 12 GB" over its bar. */
function barRow(label: string, value: HTMLElement, bar: { element: HTMLElement }): HTMLElement {
  return h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, withElements(label, { value })), bar.element);
}

/** Activations held without and with recomputation, on one scale, and what that saves. */
function memoryCard(context: SectionContext) {
  const { t, parts: labels } = context;
  const { formatBytes } = context.units;
  const withoutValue = h('strong', { 'data-figure': 'activations-without-recompute' });
  const withValue = h('strong', { 'data-figure': 'activations' });
  const withoutBar = stackedBar(['activations'], formatBytes, labels);
  const withBar = stackedBar(['activations'], formatBytes, labels);
  const savedValue = h('span');
  const saved = h(
    'p',
    { className: 'ts-big-number', 'data-figure': 'activations-saved' },
    savedValue,
    h('span', null, t('activations.saved', ' saved on each GPU')),
  );
  // Written once with its two figures in place, so that "logits" is a word a term can mark.
  const perLayer = h('span');
  const logits = h('span');
  const perLayerText = h(
    'p',
    { className: 'ts-card-detail' },
    withElements(t('activations.per_layer', '{per_layer} per layer; logits add {logits}.'), { per_layer: perLayer, logits }),
  );
  const card = h(
    'div',
    { className: 'ts-card' },
    h(context.headingTag(2), { className: 'ts-subsection-title' }, t('activations.memory_saved', 'Memory saved')),
    h('p', { className: 'ts-card-detail' }, t('activations.held', 'Activations held by each GPU')),
    barRow(t('activations.keep_everything', 'Keep everything {value}'), withoutValue, withoutBar),
    barRow(t('activations.your_choice', 'Your choice {value}'), withValue, withBar),
    saved,
    perLayerText,
  );
  return { card, withoutValue, withValue, withoutBar, withBar, savedValue, saved, perLayer, logits };
}

/** The arithmetic with and without recomputation, on one scale, and the overhead. */
function computeCard(context: SectionContext) {
  const { t, parts: labels } = context;
  const { formatScientific } = context.units;
  // FLOPs keep their own formatter and their own colours (model FLOPs, hardware FLOPs).
  const modelFlops = h('strong');
  const hardwareFlops = h('strong');
  const modelBar = stackedBar(['model_flops'], formatScientific, labels);
  const hardwareBar = stackedBar(['hardware_flops'], formatScientific, labels);
  const overheadValue = h('span');
  const overhead = h(
    'p',
    { className: 'ts-big-number', 'data-figure': 'recompute-overhead' },
    overheadValue,
    h('span', null, t('activations.extra_compute', ' extra compute')),
  );
  const card = h(
    'div',
    { className: 'ts-card' },
    h(context.headingTag(2), { className: 'ts-subsection-title' }, t('activations.compute_paid', 'Compute paid')),
    h('p', { className: 'ts-card-detail' }, t('activations.arithmetic', 'Arithmetic for the whole run')),
    barRow(t('activations.model_flops', 'Model FLOPs {value}'), modelFlops, modelBar),
    barRow(t('activations.with_recompute', 'With recomputation {value}'), hardwareFlops, hardwareBar),
    overhead,
  );
  return { card, modelFlops, hardwareFlops, modelBar, hardwareBar, overheadValue, overhead };
}

/** Memory saved beside compute paid: two cards of two bars each. */
function activationsFigure(context: SectionContext) {
  const memory = memoryCard(context);
  const compute = computeCard(context);
  const figure = h('div', { className: 'ts-figure-body ts-two-up' }, memory.card, compute.card);
  return { ...memory, ...compute, figure };
}

type FigureParts = ReturnType<typeof activationsFigure>;

/** Activations held without and with recomputation, and what that saves. */
function updateMemory(parts: FigureParts, estimate: Estimate, { t, units }: SectionContext): void {
  const { formatBytes } = units;
  const { withoutValue, withValue, withoutBar, withBar, savedValue, saved, perLayer, logits } = parts;
  const { training } = estimate;
  const memoryMax = Math.max(training.activations_without_recompute, training.per_gpu.activations);
  setFigure(withoutValue, formatBytes(training.activations_without_recompute), training.activations_without_recompute);
  withoutBar.update(
    [{ key: 'activations', value: training.activations_without_recompute }],
    memoryMax,
    t('activations.without_label', 'Without recomputation: {bytes}', { bytes: formatBytes(training.activations_without_recompute) }),
  );
  setFigure(withValue, formatBytes(training.per_gpu.activations), training.per_gpu.activations);
  withBar.update(
    [{ key: 'activations', value: training.per_gpu.activations }],
    memoryMax,
    t('activations.with_label', 'With your settings: {bytes}', { bytes: formatBytes(training.per_gpu.activations) }),
  );
  const savedBytes = training.activations_saved_by_recompute;
  setHidden(saved, savedBytes === undefined);
  if (savedBytes !== undefined) {
    setText(savedValue, formatBytes(savedBytes));
    setAttribute(saved, 'data-value', String(savedBytes));
  }
  setText(perLayer, formatBytes(training.activations_per_layer));
  setText(logits, formatBytes(training.per_gpu.logits));
}

/** The arithmetic with and without recomputation, and the overhead. */
function updateCompute(parts: FigureParts, estimate: Estimate, { t, units }: SectionContext): void {
  const { formatPercent, formatScientific } = units;
  const { modelFlops, hardwareFlops, modelBar, hardwareBar, overheadValue, overhead } = parts;
  const { compute } = estimate;
  const computeMax = Math.max(compute.flops, compute.hardware_flops);
  setText(modelFlops, formatScientific(compute.flops));
  modelBar.update(
    [{ key: 'model_flops', value: compute.flops }],
    computeMax,
    t('activations.model_flops_label', 'Model FLOPs {flops}', { flops: formatScientific(compute.flops) }),
  );
  setText(hardwareFlops, formatScientific(compute.hardware_flops));
  hardwareBar.update(
    [{ key: 'hardware_flops', value: compute.hardware_flops }],
    computeMax,
    t('activations.hardware_flops_label', 'Hardware FLOPs {flops}', { flops: formatScientific(compute.hardware_flops) }),
  );
  setText(overheadValue, `+${formatPercent(compute.recompute_overhead > 0 ? compute.recompute_overhead : 0)}`);
  setAttribute(overhead, 'data-value', String(compute.recompute_overhead));
}

export function activationSection(context: SectionContext): SectionView {
  const { t } = context;
  const { formatInteger } = context.units;
  const parts = activationsFigure(context);
  // Gradient accumulation in the engine's count: how many micro-batches one optimizer step adds up.
  const accumulation = h('p', { className: 'ts-hint', 'data-figure': 'micro-batches', 'aria-live': 'off' });
  const globalBatch = globalBatchControl(context);
  const update: SectionView['update'] = ({ estimate }) => {
    globalBatch.update(estimate);
    const microBatches = estimate.step.micro_batches ?? 1;
    setFigure(
      accumulation,
      microBatches === 1
        ? t('activations.micro_batches_one', 'One micro-batch per GPU per step: the optimizer steps after each.')
        : t('activations.micro_batches', '{count} micro-batches per GPU per step: their gradients add up before one optimizer step.', {
            count: formatInteger(microBatches),
          }),
      microBatches,
    );
  };
  // The figure is a part of its own (SectionView.parts): with the step section's checkpointing
  // control in the middle of the screen, this section's figure lies above the fold and waits
  // until the input rests, while the micro-batch line (beside the controls) follows at once.
  const updateFigure: SectionView['update'] = ({ estimate }) => {
    updateMemory(parts, estimate, context);
    updateCompute(parts, estimate, context);
  };
  const figure = h(
    'figure',
    { className: 'ts-figure' },
    parts.figure,
    h(
      'figcaption',
      null,
      t(
        'activations.caption',
        'Activation memory on each GPU, without and with your checkpointing choice, beside the arithmetic paid for it.',
      ),
    ),
  );

  const whyElement = activationsWhy(t);
  const element = sectionElement(
    context,
    'activations',
    t('activations.heading', 'Activations: remember, or recompute'),
    'ts-section',
    activationsProse(t),
    h('div', { className: 'ts-panel' }, activationsControls(context, accumulation, globalBatch.element), figure),
    whyElement,
  );
  // Words at first sight (figures/term.ts): the recomputation choices are explained in "why?", not on the radio labels a tap must choose.
  const terms = termsFor(t, context.language);
  terms.markIn(element, ['activation_checkpointing', 'micro_batch', 'global_batch', 'logits']);
  terms.markIn(whyElement, ['full_recompute', 'selective_recompute']);
  return { element, update, parts: [{ element: figure, update: updateFigure }] };
}

/**
 * Selective and full recomputation explained beside their radio, whose labels a tap must choose:
 * "The choices: Selective · Full", in the engine's words for the choices (figures/term.ts).
 */
export function recomputeTerms(context: Pick<SectionContext, 't' | 'choices'>, terms: Terms): HTMLElement {
  const ids: Record<string, string> = { selective: 'selective_recompute', full: 'full_recompute' };
  const labels = new Map(
    recomputeChoices(context).flatMap((choice) => (ids[String(choice.value)] ? [[ids[String(choice.value)], choice.label]] : [])),
  );
  return terms.key(
    context.t('activations.recompute_terms', 'The choices:'),
    [...labels.keys()],
    (term) => labels.get(term.id) ?? term.name,
  );
}

/** The checkpointing choices (the engine's), shown in this section and the step's. */
export function recomputeChoices(context: Pick<SectionContext, 'choices'>): Choice[] {
  return [...context.choices('training.recompute')];
}
