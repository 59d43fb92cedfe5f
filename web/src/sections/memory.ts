// Section 1: running vs training, one whole copy of the model on one scale.

import { radioControl, selectControl } from '../controls/controls';
import { h, setFigure, setHidden, setText, uniqueId } from '../dom/dom';
import { gpuIcons } from '../figures/gpu-icons';
import { legend } from '../figures/legend';
import { linearAxis } from '../figures/linear-axis';
import { stackedBar } from '../figures/stacked-bar';
import { why } from '../figures/why';
import { type Part, type PartKey } from '../figures/parts';
import { withElements } from '../i18n/i18n';
import { extraParts, type PageView, type SectionContext, type SectionView } from './context';
import type { AccountingChoice } from '../engine/types';
import { offloadNote } from './offload-note';

const RUN_KEYS: readonly PartKey[] = ['weights', 'kv_cache'];
const TRAIN_KEYS: readonly PartKey[] = [
  'weights',
  'gradients',
  'master_weights',
  'optimizer_states',
  'activations',
  'logits',
  'gathered_weights',
  'temporary',
];

/** `accountingChoices`: the engine's counting conventions (any estimate lists them), for the choice's labels. */
export function memorySection(context: SectionContext, accountingChoices: readonly AccountingChoice[]): SectionView {
  const { t, parts: labels } = context;
  const { formatBytes, formatCount, formatInteger, formatNumber, formatRatio, numberFormatName } = context.units;
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
  // LoRA and QLoRA (docs/model.md §15): what is trained, how the frozen base is stored, what a run saves.
  const trainableParams = stat('trainable-params');
  const baseBytesPerParam = stat('base-bytes-per-param');
  const adapterCheckpoint = stat('adapter-checkpoint');
  const offload = offloadNote(context);
  const fineTuningMethod = h('strong');
  const fineTuning = h(
    'p',
    { className: 'ts-fine-tuning' },
    withElements(
      t(
        'memory.fine_tuning',
        '{method}: {trainable} parameters are trained; the frozen base is stored at {base} bytes per parameter, and a run saves {checkpoint}.',
      ),
      { method: fineTuningMethod, trainable: trainableParams, base: baseBytesPerParam, checkpoint: adapterCheckpoint },
    ),
  );
  const headline = h(
    'div',
    { className: 'ts-headline' },
    h(
      'div',
      { className: 'ts-stat ts-stat-run' },
      h('p', { className: 'ts-stat-label' }, t('memory.stat.run', 'To run it')),
      inferenceTotal,
      h(
        'p',
        { className: 'ts-stat-detail' },
        withElements(t('memory.stat.per_param', '{value} per parameter'), { value: inferencePerParam }),
      ),
      h('p', { className: 'ts-stat-gpus' }, inferenceIcons.element, inferenceGpus),
    ),
    h(
      'div',
      { className: 'ts-stat ts-stat-ratio' },
      ratio,
      h('p', { className: 'ts-stat-detail' }, t('memory.stat.ratio', 'more bytes per parameter to train')),
    ),
    h(
      'div',
      { className: 'ts-stat ts-stat-train' },
      h('p', { className: 'ts-stat-label' }, t('memory.stat.train', 'To train it')),
      trainingTotal,
      h(
        'p',
        { className: 'ts-stat-detail' },
        withElements(t('memory.stat.per_param_plus', '{value} per parameter, plus activations'), { value: trainingPerParam }),
      ),
      h('p', { className: 'ts-stat-gpus' }, trainingIcons.element, trainingGpus, trainingAside),
    ),
  );

  const runLabel = h('span');
  const trainLabel = h('span');
  const runBar = stackedBar(RUN_KEYS, formatBytes, labels, { marker: true });
  const trainBar = stackedBar(TRAIN_KEYS, formatBytes, labels, { marker: true, markerLabel: false });
  const axis = linearAxis((value) => formatBytes(value, 3));
  const runLegend = legend(RUN_KEYS, formatBytes, labels, t('memory.stat.run', 'To run it'), { showCaption: true });
  const trainLegend = legend(TRAIN_KEYS, formatBytes, labels, t('memory.stat.train', 'To train it'), { showCaption: true });
  const figure = h(
    'div',
    { className: 'ts-figure-body' },
    h(
      'div',
      { className: 'ts-bar-row' },
      h('p', { className: 'ts-bar-label' }, h('strong', null, t('memory.bar.run', 'Run')), ' ', runLabel),
      runBar.element,
    ),
    h(
      'div',
      { className: 'ts-bar-row' },
      h('p', { className: 'ts-bar-label' }, h('strong', null, t('memory.bar.train', 'Train')), ' ', trainLabel),
      trainBar.element,
    ),
    axis.element,
    h('div', { className: 'ts-legends' }, runLegend.element, trainLegend.element),
  );

  // The prose quotes the estimate: its bytes per parameter follow the optimizer and precision chosen.
  const runPerParamProse = h('strong', { 'data-figure': 'prose-inference-bytes-per-param' });
  const runPrecisionProse = h('span');
  const trainPerParamProse = h('strong', { 'data-figure': 'prose-training-bytes-per-param' });
  const whyDetails = why(
    t,
    t('memory.why.summary', 'Why more bytes to train than to run?'),
    [
      t(
        'memory.why.body_1',
        'Mixed-precision training computes in 16-bit numbers but keeps an FP32 (4-byte) copy of each weight, because an update of one part in a million would vanish if added to a 16-bit weight. Adam keeps two more FP32 numbers per weight: a running average of the gradient (momentum) and of its square (to scale each step).',
      ),
      t(
        'memory.why.body_2',
        'Running the model needs none of this: only the weights, and the KV cache that stores the keys and values of the text so far.',
      ),
    ],
    t('memory.why.formula_placeholder', 'training: … bytes per parameter'),
    t('memory.why.sources', 'Rajbhandari et al. 2019, “ZeRO”, §3.1; Micikevicius et al. 2018, “Mixed Precision Training”.'),
  );
  const whySummary = whyDetails.querySelector('summary') as HTMLElement;
  const whyFormula = whyDetails.querySelector('.ts-formula') as HTMLElement;

  // Why another tool says 18: each convention in the engine's words, its sum for the optimizer on screen.
  const accountingNotes = accountingChoices.map((choice) => ({ id: choice.id, text: h('span'), element: h('li', null) }));
  for (const note of accountingNotes) note.element.append(note.text);
  // The bars and their legends sit below the headline: a part of their own (SectionView.parts), so
  // that an input near the top of the page does not wait for them while they are below the fold.
  const updateFigure = ({ reference: single, scenario: resolved, narrow }: PageView) => {
    const { inference, training, gpu } = single;
    const perParam = training.bytes_per_param;
    const runParts: Part[] = [
      {
        key: 'weights',
        value: inference.weights,
        detail: t('memory.part.weights_detail', '{bytes} bytes per parameter', { bytes: formatNumber(inference.bytes_per_param) }),
      },
      {
        key: 'kv_cache',
        value: inference.kv_cache,
        detail: t('memory.part.kv_detail', '{batch} × {context} tokens', {
          batch: formatInteger(resolved.inference.batch),
          context: formatInteger(resolved.inference.context),
        }),
      },
    ];
    const trainParts: Part[] = [
      {
        key: 'weights',
        value: training.per_gpu.weights,
        detail: t('memory.part.per_param', '{bytes} B/param', { bytes: formatNumber(perParam.weights) }),
      },
      {
        key: 'gradients',
        value: training.per_gpu.gradients,
        detail: t('memory.part.per_param', '{bytes} B/param', { bytes: formatNumber(perParam.gradients) }),
      },
      {
        key: 'master_weights',
        value: training.per_gpu.master_weights,
        detail: t('memory.part.per_param', '{bytes} B/param', { bytes: formatNumber(perParam.master_weights) }),
      },
      {
        key: 'optimizer_states',
        value: training.per_gpu.optimizer_states,
        detail: t('memory.part.per_param', '{bytes} B/param', { bytes: formatNumber(perParam.optimizer_states) }),
      },
      {
        key: 'activations',
        value: training.per_gpu.activations,
        detail: t('memory.part.activations_detail', 'micro-batch {micro_batch} × {sequence} tokens', {
          micro_batch: formatInteger(resolved.training.micro_batch),
          sequence: formatInteger(resolved.training.sequence),
        }),
      },
      { key: 'logits', value: training.per_gpu.logits, detail: t('memory.part.logits_detail', 'FP32, for the loss') },
      // Held only at some moments of the step (docs/model.md §9): listed when the peak holds them.
      ...extraParts(t, training.per_gpu),
    ];
    const max = Math.max(training.per_gpu.total, inference.total, gpu.memory_bytes);
    const marker = {
      value: gpu.memory_bytes,
      label: t('memory.marker', 'one {gpu}: {memory}', { gpu: gpu.model_name, memory: formatBytes(gpu.memory_bytes) }),
    };
    setText(runLabel, formatBytes(inference.total));
    setText(trainLabel, formatBytes(training.per_gpu.total));
    runBar.update(
      runParts,
      max,
      t('memory.bar.run_label', 'Running needs {total}: weights {weights}, KV cache {kv_cache}.', {
        total: formatBytes(inference.total),
        weights: formatBytes(inference.weights),
        kv_cache: formatBytes(inference.kv_cache),
      }),
      marker,
    );
    trainBar.update(
      trainParts,
      max,
      t('memory.bar.train_label', 'Training one copy needs {total}: {parts}.', {
        total: formatBytes(training.per_gpu.total),
        parts: trainParts.map((p) => `${labels[p.key]} ${formatBytes(p.value)}`).join(', '),
      }),
      marker,
    );
    axis.update(max, narrow);
    runLegend.update(runParts);
    trainLegend.update(trainParts);
  };

  const updateFineTuning = (estimate: PageView['estimate']) => {
    offload.update(estimate);
    const tuning = estimate.training.fine_tuning;
    const shown = tuning !== undefined && tuning.method !== 'full';
    setHidden(fineTuning, !shown);
    if (!tuning || !shown) return;
    setText(fineTuningMethod, context.choices('training.method').find((choice) => choice.value === tuning.method)?.label ?? tuning.method);
    setFigure(trainableParams, formatCount(tuning.trainable_params, { short: true, significant: 3 }), tuning.trainable_params);
    setFigure(baseBytesPerParam, formatNumber(tuning.base_bytes_per_param), tuning.base_bytes_per_param);
    setFigure(adapterCheckpoint, formatBytes(tuning.checkpoint_bytes), tuning.checkpoint_bytes);
  };
  const update = ({ estimate, reference: single, scenario: resolved }: PageView) => {
    updateFineTuning(estimate);
    for (const note of accountingNotes) {
      const choice = single.training.accounting_choices?.find((candidate) => candidate.id === note.id);
      setText(note.text, choice?.explanation ?? '');
      note.element.classList.toggle('ts-current', single.training.accounting?.id === note.id);
    }
    const { inference, training, gpu } = single;
    const perParam = training.bytes_per_param;
    // The fewest GPUs to train is one engine field of the scenario on screen (docs/scenario.md), the
    // same one the sharding section quotes; -1 means the activations alone overflow one GPU.
    const trainingMinimum = estimate.training.min_gpus;
    const statesFloor = estimate.training.min_gpus_for_states ?? 0;

    setFigure(inferenceTotal, formatBytes(inference.total), inference.total);
    setText(inferencePerParam, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(inference.bytes_per_param) }));
    inferenceIcons.update(inference.min_gpus, t('memory.gpus', '{count} GPUs', { count: formatInteger(inference.min_gpus) }));
    setFigure(
      inferenceGpus,
      t('memory.gpus_of', '{count} × {gpu}', { count: formatInteger(inference.min_gpus), gpu: gpu.short_name }),
      inference.min_gpus,
    );
    setFigure(ratio, formatRatio(single.ratio_training_to_inference), single.ratio_training_to_inference);
    setFigure(trainingTotal, formatBytes(training.per_gpu.total), training.per_gpu.total);
    setFigure(trainingPerParam, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(perParam.total) }), perParam.total);
    trainingIcons.update(
      Math.max(trainingMinimum, 0),
      trainingMinimum > 0
        ? t('memory.gpus_at_least', 'at least {count} GPUs', { count: formatInteger(trainingMinimum) })
        : t('memory.gpus_none', 'no number of GPUs at this layout'),
    );
    setFigure(
      trainingGpus,
      trainingMinimum > 0
        ? t('memory.gpus_of_at_least', '≥ {count} × {gpu}', { count: formatInteger(trainingMinimum), gpu: gpu.short_name })
        : t('memory.no_fit', 'does not fit at this layout'),
      trainingMinimum,
    );
    setText(
      trainingAside,
      trainingMinimum > 0
        ? t('memory.fully_sharded', ' fully sharded')
        : t(
            'memory.activations_overflow',
            ' the activations alone overflow one GPU (the model states alone fill {count} GPUs); checkpointing below helps',
            { count: formatInteger(statesFloor) },
          ),
    );
    setText(runPerParamProse, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(inference.bytes_per_param) }));
    setText(runPrecisionProse, numberFormatName(resolved.inference.precision));
    setText(trainPerParamProse, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(perParam.total) }));
    setText(
      whySummary,
      t('memory.why.summary_numbers', 'Why {training} bytes instead of {running}?', {
        training: formatNumber(perParam.total),
        running: formatNumber(inference.bytes_per_param),
      }),
    );
    setText(
      whyFormula,
      t(
        'memory.why.formula',
        'training: {sum} bytes per parameter ({parts}); running: {running} bytes per parameter + KV cache 2 · layers · batch · context · kv_heads · head size · bytes',
        {
          sum: training.bytes_per_param_sum,
          parts: training.bytes_per_param_parts.map((part) => part.label).join(', '),
          running: formatNumber(inference.bytes_per_param),
        },
      ),
    );
  };

  const deeper = h(
    'details',
    { className: 'ts-deeper' },
    h('summary', null, t('memory.deeper.summary', 'Go deeper: precision, optimizer, serving')),
    h(
      'div',
      { className: 'ts-deeper-body ts-grid-controls' },
      context.add(
        selectControl(
          'inference.precision',
          t('memory.deeper.weights_precision', 'Weights when running'),
          [...context.choices('inference.precision')],
          context.onValue,
        ),
      ).element,
      context.add(
        selectControl(
          'inference.kv_precision',
          t('memory.deeper.kv_precision', 'KV cache precision'),
          [...context.choices('inference.kv_precision')],
          context.onValue,
        ),
      ).element,
      context.range({
        path: 'inference.batch',
        label: t('memory.deeper.batch', 'Sequences served at once'),
        formatField: formatInteger,
        describe: (v) => context.units.formatSequences(v),
      }).element,
      context.range({
        path: 'inference.context',
        label: t('memory.deeper.context', 'Context per sequence (tokens)'),
        formatField: formatInteger,
        describe: (v) => context.units.formatTokens(v),
      }).element,
      context.add(
        selectControl(
          'training.optimizer',
          t('memory.deeper.optimizer', 'Optimizer'),
          [...context.choices('training.optimizer')],
          context.onValue,
        ),
      ).element,
      context.add(
        selectControl(
          'training.precision',
          t('memory.deeper.training_precision', 'Training precision'),
          [...context.choices('training.precision')],
          context.onValue,
        ),
      ).element,
      h(
        'div',
        { className: 'ts-accounting' },
        context.add(
          radioControl(
            'training.accounting',
            t('memory.deeper.accounting', 'Counting convention (why other tools give another total)'),
            accountingChoices.map((choice) => ({ value: choice.id, label: choice.label })),
            context.onValue,
          ),
        ).element,
        h(
          'ul',
          { className: 'ts-accounting-notes' },
          accountingNotes.map((note) => note.element),
        ),
      ),
    ),
  );

  const figureElement = h(
    'figure',
    { className: 'ts-figure' },
    figure,
    h(
      'figcaption',
      null,
      t(
        'memory.caption',
        'One whole copy of the model, on one scale. The vertical line is one GPU’s memory; each bar shows how far past it the model reaches.',
      ),
    ),
  );
  const element = h(
    'section',
    { className: 'ts-section', 'aria-labelledby': headingId },
    h(
      context.headingTag(1),
      { className: 'ts-section-title', id: headingId },
      context.numbered('memory', t('memory.heading', 'Running vs training: what must sit in memory')),
    ),
    h(
      'div',
      { className: 'ts-prose' },
      h(
        'p',
        null,
        withElements(
          t(
            'memory.prose.run',
            'To run a model, a GPU holds its weights — {bytes} for each parameter in {precision} — and a key/value cache of the text it is reading. ',
          ),
          { bytes: runPerParamProse, precision: runPrecisionProse },
        ),
        t(
          'memory.prose.train',
          'To train it, every weight brings company: a gradient saying which way to nudge it, in mixed precision a full-precision master copy so that tiny nudges are not rounded away, and the optimizer’s running averages (Adam keeps two). ',
        ),
        withElements(t('memory.prose.total', 'With the choices below that is {bytes} per parameter, before any activations are stored.'), {
          bytes: trainPerParamProse,
        }),
      ),
    ),
    headline,
    fineTuning,
    offload.element,
    figureElement,
    whyDetails,
    deeper,
  );
  return { element, update, parts: [{ element: figureElement, update: updateFigure, referenceOnly: true }] };
}
