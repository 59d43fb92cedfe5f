// Section 1: running vs training, one whole copy of the model on one scale.

import { radioControl, rangeControl, selectControl } from '../controls';
import { h, setText, uniqueId } from '../dom';
import { gpuIcons, legend, linearAxis, PART_LABELS, setFigure, stackedBar, why, type Part, type PartKey } from '../figures';
import { formatBytes, formatInteger, formatNumber, formatRatio, numberFormatLabel, numberFormatName, sliderScale } from '../units';
import { extraParts, gpuModel, shortGpu, type SectionContext, type SectionView } from './context';
import type { AccountingChoice } from '../types';

const RUN_KEYS: readonly PartKey[] = ['weights', 'kv_cache'];
const TRAIN_KEYS: readonly PartKey[] = ['weights', 'gradients', 'master_weights', 'optimizer_states', 'activations', 'logits', 'gathered_weights', 'temporary'];

/** `accountingChoices`: the engine's counting conventions (any estimate lists them), for the choice's labels. */
export function memorySection(context: SectionContext, accountingChoices: readonly AccountingChoice[]): SectionView {
  const headingId = uniqueId('heading');
  const stat = (figure: string) => h('span', { 'data-figure': figure });

  const inferenceTotal = h('p', { className: 'ts-stat-value', 'data-figure': 'inference-total' });
  const inferencePerParam = stat('inference-bytes-per-param');
  const inferenceIcons = gpuIcons(40);
  const inferenceGpus = stat('inference-min-gpus');
  const ratio = h('p', { className: 'ts-stat-value', 'data-figure': 'ratio' });
  const trainingTotal = h('p', { className: 'ts-stat-value', 'data-figure': 'training-total' });
  const trainingPerParam = stat('training-bytes-per-param');
  const trainingIcons = gpuIcons(40);
  const trainingGpus = stat('training-min-gpus');
  const trainingAside = h('span', { className: 'ts-stat-aside' });
  const headline = h('div', { className: 'ts-headline' },
    h('div', { className: 'ts-stat ts-stat-run' },
      h('p', { className: 'ts-stat-label' }, 'To run it'), inferenceTotal,
      h('p', { className: 'ts-stat-detail' }, inferencePerParam, ' per parameter'),
      h('p', { className: 'ts-stat-gpus' }, inferenceIcons.element, inferenceGpus)),
    h('div', { className: 'ts-stat ts-stat-ratio' }, ratio, h('p', { className: 'ts-stat-detail' }, 'more bytes per parameter to train')),
    h('div', { className: 'ts-stat ts-stat-train' },
      h('p', { className: 'ts-stat-label' }, 'To train it'), trainingTotal,
      h('p', { className: 'ts-stat-detail' }, trainingPerParam, ' per parameter, plus activations'),
      h('p', { className: 'ts-stat-gpus' }, trainingIcons.element, trainingGpus, trainingAside)));

  const runLabel = h('span');
  const trainLabel = h('span');
  const runBar = stackedBar(RUN_KEYS, formatBytes, { marker: true });
  const trainBar = stackedBar(TRAIN_KEYS, formatBytes, { marker: true, markerLabel: false });
  const axis = linearAxis((value) => formatBytes(value, 3));
  const runLegend = legend(RUN_KEYS, formatBytes, 'To run it', { showCaption: true });
  const trainLegend = legend(TRAIN_KEYS, formatBytes, 'To train it', { showCaption: true });
  const figure = h('div', { className: 'ts-figure-body' },
    h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, h('strong', null, 'Run'), ' ', runLabel), runBar.element),
    h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, h('strong', null, 'Train'), ' ', trainLabel), trainBar.element),
    axis.element,
    h('div', { className: 'ts-legends' }, runLegend.element, trainLegend.element));

  // The prose quotes the estimate: its bytes per parameter follow the optimizer and precision chosen.
  const runPerParamProse = h('strong', { 'data-figure': 'prose-inference-bytes-per-param' });
  const runPrecisionProse = h('span');
  const trainPerParamProse = h('strong', { 'data-figure': 'prose-training-bytes-per-param' });
  const whyDetails = why('Why more bytes to train than to run?', [
      'Mixed-precision training computes in 16-bit numbers but keeps an FP32 (4-byte) copy of each weight, because an update of one part in a million would vanish if added to a 16-bit weight. Adam keeps two more FP32 numbers per weight: a running average of the gradient (momentum) and of its square (to scale each step).',
      'Running the model needs none of this: only the weights, and the KV cache that stores the keys and values of the text so far.',
  ], 'training: … bytes per parameter', 'Rajbhandari et al. 2019, “ZeRO”, §3.1; Micikevicius et al. 2018, “Mixed Precision Training”.');
  const whySummary = whyDetails.querySelector('summary') as HTMLElement;
  const whyFormula = whyDetails.querySelector('.ts-formula') as HTMLElement;

  // Why another tool says 18: each convention in the engine's words, its sum for the optimizer on screen.
  const accountingNotes = accountingChoices.map((choice) => ({ id: choice.id, text: h('span'), element: h('li', null) }));
  for (const note of accountingNotes) note.element.append(note.text);
  const update = (estimate: Parameters<SectionView['update']>[0], single: Parameters<SectionView['update']>[1]) => {
    const resolved = context.resolved();
    for (const note of accountingNotes) {
      const choice = single.training.accounting_choices?.find((candidate) => candidate.id === note.id);
      setText(note.text, choice?.explanation ?? '');
      note.element.classList.toggle('ts-current', single.training.accounting?.id === note.id);
    }
    const { inference, training, gpu } = single;
    const perParam = training.bytes_per_param;
    const runParts: Part[] = [
      { key: 'weights', value: inference.weights, detail: `${formatNumber(inference.bytes_per_param)} bytes per parameter` },
      { key: 'kv_cache', value: inference.kv_cache, detail: `${formatInteger(resolved.inference.batch)} × ${formatInteger(resolved.inference.context)} tokens` },
    ];
    const trainParts: Part[] = [
      { key: 'weights', value: training.per_gpu.weights, detail: `${formatNumber(perParam.weights)} B/param` },
      { key: 'gradients', value: training.per_gpu.gradients, detail: `${formatNumber(perParam.gradients)} B/param` },
      { key: 'master_weights', value: training.per_gpu.master_weights, detail: `${formatNumber(perParam.master_weights)} B/param` },
      { key: 'optimizer_states', value: training.per_gpu.optimizer_states, detail: `${formatNumber(perParam.optimizer_states)} B/param` },
      { key: 'activations', value: training.per_gpu.activations, detail: `micro-batch ${formatInteger(resolved.training.micro_batch)} × ${formatInteger(resolved.training.sequence)} tokens` },
      { key: 'logits', value: training.per_gpu.logits, detail: 'FP32, for the loss' },
      // Held only at some moments of the step (docs/model.md §9): listed when the peak holds them.
      ...extraParts(training.per_gpu),
    ];
    const max = Math.max(training.per_gpu.total, inference.total, gpu.memory_bytes);
    const marker = { value: gpu.memory_bytes, label: `one ${gpuModel(gpu.name)}: ${formatBytes(gpu.memory_bytes)}` };
    // The fewest GPUs to train is one engine field of the scenario on screen (docs/scenario.md), the
    // same one the sharding section quotes; -1 means the activations alone overflow one GPU.
    const trainingMinimum = estimate.training.min_gpus;
    const statesFloor = estimate.training.min_gpus_for_states ?? 0;

    setFigure(inferenceTotal, formatBytes(inference.total), inference.total);
    setText(inferencePerParam, `${formatNumber(inference.bytes_per_param)} bytes`);
    inferenceIcons.update(inference.min_gpus, `${formatInteger(inference.min_gpus)} GPUs`);
    setFigure(inferenceGpus, `${formatInteger(inference.min_gpus)} × ${shortGpu(gpu.name)}`, inference.min_gpus);
    setFigure(ratio, formatRatio(single.ratio_training_to_inference), single.ratio_training_to_inference);
    setFigure(trainingTotal, formatBytes(training.per_gpu.total), training.per_gpu.total);
    setFigure(trainingPerParam, `${formatNumber(perParam.total)} bytes`, perParam.total);
    trainingIcons.update(Math.max(trainingMinimum, 0), trainingMinimum > 0 ? `at least ${formatInteger(trainingMinimum)} GPUs` : 'no number of GPUs at this layout');
    setFigure(trainingGpus, trainingMinimum > 0 ? `≥ ${formatInteger(trainingMinimum)} × ${shortGpu(gpu.name)}` : 'does not fit at this layout', trainingMinimum);
    setText(trainingAside, trainingMinimum > 0 ? ' fully sharded'
      : ` the activations alone overflow one GPU (the model states alone fill ${formatInteger(statesFloor)}); checkpointing below helps`);
    setText(runPerParamProse, `${formatNumber(inference.bytes_per_param)} bytes`);
    setText(runPrecisionProse, numberFormatName(resolved.inference.precision));
    setText(trainPerParamProse, `${formatNumber(perParam.total)} bytes`);
    setText(whySummary, `Why ${formatNumber(perParam.total)} bytes instead of ${formatNumber(inference.bytes_per_param)}?`);
    setText(whyFormula, `training: ${training.bytes_per_param_sum} bytes per parameter (${training.bytes_per_param_parts.map((part) => part.label).join(', ')}); running: ${formatNumber(inference.bytes_per_param)} bytes per parameter + KV cache 2 · layers · batch · context · kv_heads · head size · bytes`);

    setText(runLabel, formatBytes(inference.total));
    setText(trainLabel, formatBytes(training.per_gpu.total));
    runBar.update(runParts, max, `Running needs ${formatBytes(inference.total)}: weights ${formatBytes(inference.weights)}, KV cache ${formatBytes(inference.kv_cache)}.`, marker);
    trainBar.update(trainParts, max, `Training one copy needs ${formatBytes(training.per_gpu.total)}: ${trainParts.map((p) => `${PART_LABELS[p.key]} ${formatBytes(p.value)}`).join(', ')}.`, marker);
    axis.update(max, context.narrow());
    runLegend.update(runParts);
    trainLegend.update(trainParts);
  };

  const precisionChoices = ['bf16', 'fp16', 'fp32', 'fp8', 'int8', 'int4'].map((value) => ({ value, label: numberFormatLabel(value) }));
  const deeper = h('details', { className: 'ts-deeper' },
    h('summary', null, 'Go deeper: precision, optimizer, serving'),
    h('div', { className: 'ts-deeper-body ts-grid-controls' },
      context.add(selectControl('inference.precision', 'Weights when running', precisionChoices, context.onValue)).element,
      context.add(selectControl('inference.kv_precision', 'KV cache precision', precisionChoices.filter((c) => c.value !== 'int4'), context.onValue)).element,
      context.add(rangeControl({
        path: 'inference.batch', label: 'Sequences served at once', scale: sliderScale('inference.batch'), formatField: formatInteger, describe: (v) => `${formatInteger(v)} sequences`,
      }, context.onValue)).element,
      context.add(rangeControl({
        path: 'inference.context', label: 'Context per sequence (tokens)', scale: sliderScale('inference.context'), formatField: formatInteger, describe: (v) => `${formatInteger(v)} tokens`,
      }, context.onValue)).element,
      context.add(selectControl('training.optimizer', 'Optimizer', [
        { value: 'adamw', label: 'AdamW (two states per weight)' }, { value: 'adam', label: 'Adam' },
        { value: 'sgd_momentum', label: 'SGD with momentum (one state)' }, { value: 'sgd', label: 'Plain SGD (no state)' },
        { value: 'adam_8bit', label: '8-bit Adam' }, { value: 'adafactor', label: 'Adafactor (factored)' },
      ], context.onValue)).element,
      context.add(selectControl('training.precision', 'Training precision', [
        { value: 'bf16', label: 'BF16 mixed precision (FP32 master copy)' }, { value: 'fp16', label: 'FP16 mixed precision (FP32 master copy)' },
        { value: 'fp32', label: 'FP32 throughout' },
      ], context.onValue)).element,
      h('div', { className: 'ts-accounting' },
        context.add(radioControl('training.accounting', 'Counting convention (why other tools give another total)',
          accountingChoices.map((choice) => ({ value: choice.id, label: choice.label })), context.onValue)).element,
        h('ul', { className: 'ts-accounting-notes' }, accountingNotes.map((note) => note.element)))));

  const element = h('section', { className: 'ts-section', 'aria-labelledby': headingId },
    h(context.headingTag(1), { className: 'ts-section-title', id: headingId }, context.numbered('memory', 'Running vs training: what must sit in memory')),
    h('div', { className: 'ts-prose' },
      h('p', null, 'To run a model, a GPU holds its weights — ', runPerParamProse, ' for each parameter in ', runPrecisionProse, ' — and a key/value cache of the text it is reading. ',
        'To train it, every weight brings company: a gradient saying which way to nudge it, in mixed precision a full-precision master copy so that tiny nudges are not rounded away, and the optimizer’s running averages (Adam keeps two). ',
        'With the choices below that is ', trainPerParamProse, ' per parameter, before any activations are stored.')),
    headline,
    h('figure', { className: 'ts-figure' }, figure,
      h('figcaption', null, 'One whole copy of the model, on one scale. The vertical line is one GPU’s memory; each bar shows how far past it the model reaches.')),
    whyDetails, deeper);
  return { element, update };
}
