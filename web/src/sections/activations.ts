// Section 2: activations, remembered or recomputed: memory saved beside compute paid.

import { checkboxControl, radioControl, rangeControl } from '../controls';
import { h, setText, uniqueId } from '../dom';
import { setAttribute, setFigure, setHidden, stackedBar, why } from '../figures';
import { formatBytes, formatInteger, formatPercent, formatScientific, sliderScale } from '../units';
import type { SectionContext, SectionView } from './context';

export function activationSection(context: SectionContext): SectionView {
  const headingId = uniqueId('heading');
  const withoutValue = h('strong', { 'data-figure': 'activations-without-recompute' });
  const withValue = h('strong', { 'data-figure': 'activations' });
  const withoutBar = stackedBar(['activations'], formatBytes);
  const withBar = stackedBar(['activations'], formatBytes);
  const savedValue = h('span');
  const saved = h('p', { className: 'ts-big-number', 'data-figure': 'activations-saved' }, savedValue, h('span', null, ' saved on each GPU'));
  const perLayer = h('p', { className: 'ts-card-detail' });
  // FLOPs keep their own formatter and their own colours (model FLOPs, hardware FLOPs).
  const modelFlops = h('strong');
  const hardwareFlops = h('strong');
  const modelBar = stackedBar(['model_flops'], formatScientific);
  const hardwareBar = stackedBar(['hardware_flops'], formatScientific);
  const overheadValue = h('span');
  const overhead = h('p', { className: 'ts-big-number', 'data-figure': 'recompute-overhead' }, overheadValue, h('span', null, ' extra compute'));
  const figure = h('div', { className: 'ts-figure-body ts-two-up' },
    h('div', { className: 'ts-card' },
      h(context.headingTag(2), { className: 'ts-subsection-title' }, 'Memory saved'),
      h('p', { className: 'ts-card-detail' }, 'Activations held by each GPU'),
      h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, 'Keep everything ', withoutValue), withoutBar.element),
      h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, 'Your choice ', withValue), withBar.element),
      saved, perLayer),
    h('div', { className: 'ts-card' },
      h(context.headingTag(2), { className: 'ts-subsection-title' }, 'Compute paid'),
      h('p', { className: 'ts-card-detail' }, 'Arithmetic for the whole run'),
      h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, 'Model FLOPs ', modelFlops), modelBar.element),
      h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, 'With recomputation ', hardwareFlops), hardwareBar.element),
      overhead));

  // Gradient accumulation in the engine's count: how many micro-batches one optimizer step adds up.
  const accumulation = h('p', { className: 'ts-hint', 'data-figure': 'micro-batches', 'aria-live': 'off' });
  const update: SectionView['update'] = (estimate) => {
    const { training, compute } = estimate;
    const microBatches = estimate.step.micro_batches ?? 1;
    setFigure(accumulation, microBatches === 1
      ? 'One micro-batch per GPU per step: the optimizer steps after each.'
      : `${formatInteger(microBatches)} micro-batches per GPU per step: their gradients add up before one optimizer step.`, microBatches);
    const memoryMax = Math.max(training.activations_without_recompute, training.per_gpu.activations);
    const computeMax = Math.max(compute.flops, compute.hardware_flops);
    setFigure(withoutValue, formatBytes(training.activations_without_recompute), training.activations_without_recompute);
    withoutBar.update([{ key: 'activations', value: training.activations_without_recompute }], memoryMax, `Without recomputation: ${formatBytes(training.activations_without_recompute)}`);
    setFigure(withValue, formatBytes(training.per_gpu.activations), training.per_gpu.activations);
    withBar.update([{ key: 'activations', value: training.per_gpu.activations }], memoryMax, `With your settings: ${formatBytes(training.per_gpu.activations)}`);
    const savedBytes = training.activations_saved_by_recompute;
    setHidden(saved, savedBytes === undefined);
    if (savedBytes !== undefined) {
      setText(savedValue, formatBytes(savedBytes));
      setAttribute(saved, 'data-value', String(savedBytes));
    }
    setText(perLayer, `${formatBytes(training.activations_per_layer)} per layer; logits add ${formatBytes(training.per_gpu.logits)}.`);
    setText(modelFlops, formatScientific(compute.flops));
    modelBar.update([{ key: 'model_flops', value: compute.flops }], computeMax, `Model FLOPs ${formatScientific(compute.flops)}`);
    setText(hardwareFlops, formatScientific(compute.hardware_flops));
    hardwareBar.update([{ key: 'hardware_flops', value: compute.hardware_flops }], computeMax, `Hardware FLOPs ${formatScientific(compute.hardware_flops)}`);
    setText(overheadValue, compute.recompute_overhead > 0 ? `+${formatPercent(compute.recompute_overhead)}` : '+0%');
    setAttribute(overhead, 'data-value', String(compute.recompute_overhead));
  };

  const element = h('section', { className: 'ts-section', 'aria-labelledby': headingId },
    h(context.headingTag(1), { className: 'ts-section-title', id: headingId }, context.numbered('activations', 'Activations: remember, or recompute')),
    h('div', { className: 'ts-prose' },
      h('p', null, 'The backward pass needs what every layer computed on the way forward. Keeping all of it costs memory that grows with the batch and, for attention, with the square of the sequence length. ',
        'Checkpointing keeps only a little and recomputes the rest when the backward pass asks for it: a lot of memory saved for some extra arithmetic.')),
    h('div', { className: 'ts-panel' },
      h('div', { className: 'ts-panel-controls' },
        context.add(rangeControl({
          path: 'training.micro_batch', label: 'Micro-batch (sequences per GPU per step)', scale: sliderScale('training.micro_batch'), formatField: formatInteger, describe: (v) => `${formatInteger(v)} sequences`,
        }, context.onValue)).element,
        context.add(rangeControl({
          path: 'training.global_batch', label: 'Global batch (sequences per optimizer step; 0: the fewest)', scale: sliderScale('training.global_batch'), formatField: formatInteger,
          describe: (v) => (v === 0 ? 'the fewest micro-batches' : `${formatInteger(v)} sequences`),
        }, context.onValue)).element,
        accumulation,
        context.add(rangeControl({
          path: 'training.sequence', label: 'Sequence length (tokens)', scale: sliderScale('training.sequence'), formatField: formatInteger, describe: (v) => `${formatInteger(v)} tokens`,
        }, context.onValue)).element,
        context.add(radioControl('training.recompute', 'Activation checkpointing', [
          { value: 'none', label: 'None', hint: 'keep everything' },
          { value: 'selective', label: 'Selective', hint: 'recompute attention' },
          { value: 'full', label: 'Full', hint: 'keep layer inputs only' },
        ], context.onValue)).element,
        context.add(checkboxControl('training.flash_attention', 'FlashAttention', context.onValue, 'never stores the attention score matrix')).element),
      h('figure', { className: 'ts-figure' }, figure,
        h('figcaption', null, 'Activation memory on each GPU, without and with your checkpointing choice, beside the arithmetic paid for it.'))),
    why('Why does recomputation save so much?', [
      'For each layer, the forward pass produces dozens of intermediate tensors the size of the input, plus attention scores that grow with the square of the sequence. Full checkpointing keeps only each layer’s input and runs the forward pass again during the backward pass: about one extra forward pass, a third more compute. Selective recomputation redoes only the attention core, which is cheap to recompute and expensive to store; FlashAttention never stores those scores in the first place.',
    ], 'per layer, 16-bit: s·b·h·(34 + 5·a·s/h) with nothing recomputed; 34·s·b·h with selective; 2·s·b·h with full (s sequence, b micro-batch, h hidden, a heads)',
    'Korthikanti et al. 2022, “Reducing Activation Recomputation in Large Transformer Models”, Table 2; Dao et al. 2022, “FlashAttention”.'));
  return { element, update };
}
