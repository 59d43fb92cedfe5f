// Running vs training, one whole copy of the model on one scale: the figures the lesson path's first
// two parts show (sections/lesson/), and the deeper part with precision, optimizer and serving.

import { checkboxControl, radioControl, selectControl } from '../controls/controls';
import { type Child, h, setAttribute, setFigure, setHidden, setText } from '../dom/dom';
import { gpuIcons } from '../figures/gpu-icons';
import { legend } from '../figures/legend';
import { linearAxis } from '../figures/linear-axis';
import { stackedBar } from '../figures/stacked-bar';
import { why } from '../figures/why';
import { type Part, type PartKey } from '../figures/parts';
import { withElements } from '../i18n/i18n';
import { extraParts, type PageView, type SectionContext, type SectionView } from './context';
import type { AccountingChoice, ValidationSummary } from '../engine/types';
import { prose, sectionElement } from './shell';
import { validationLine } from './validation-line';

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

/** A part of the section: its element and how it shows the page's view. */
interface MemoryPart {
  readonly element: HTMLElement;
  update(view: PageView): void;
}

/**
 * The fewest GPUs that train the model fully sharded, as icons and words. Where the activations
 * alone overflow one GPU at this layout, the model states' own floor, said as such: the lesson's
 * first part never says training cannot fit, since its third part shows how it does.
 */
function trainingGpusLine(context: SectionContext) {
  const { t } = context;
  const { formatInteger } = context.units;
  const icons = gpuIcons(40);
  const gpus = h('span', { 'data-figure': 'training-min-gpus' });
  const aside = h('span', { className: 'ts-stat-aside' });
  const update = ({ estimate, reference }: PageView) => {
    // The fewest GPUs to train is one engine field of the scenario on screen (docs/scenario.md), the
    // same one the sharding part quotes; -1 means the activations alone overflow one GPU.
    const trainingMinimum = estimate.training.min_gpus;
    const statesFloor = estimate.training.min_gpus_for_states ?? 0;
    const shown = trainingMinimum > 0 ? trainingMinimum : statesFloor;
    icons.update(Math.max(shown, 0), t('memory.gpus_at_least_of', 'at least {gpus}', { gpus: context.units.formatGpus(shown) }));
    setFigure(
      gpus,
      t('memory.gpus_of_at_least', '≥ {count} × {gpu}', { count: formatInteger(shown), gpu: reference.gpu.short_name }),
      shown,
    );
    setAttribute(gpus, 'data-figure', trainingMinimum > 0 ? 'training-min-gpus' : 'training-min-gpus-for-states');
    setText(
      aside,
      trainingMinimum > 0
        ? t('memory.fully_sharded', ' fully sharded')
        : t('memory.states_alone', ' for the model states alone; activations come on top'),
    );
  };
  return { elements: [icons.element, gpus, aside], update };
}

/** To run it, to train it, and the ratio between them: bytes, bytes per parameter and GPUs. */
export function memoryHeadline(context: SectionContext): MemoryPart {
  const { t } = context;
  const { formatBytes, formatInteger, formatNumber, formatRatio } = context.units;
  const stat = (figure: string) => h('span', { 'data-figure': figure });
  const inferenceTotal = h('p', { className: 'ts-stat-value', 'data-figure': 'inference-total' });
  const inferencePerParam = stat('inference-bytes-per-param');
  const inferenceIcons = gpuIcons(40);
  const inferenceGpus = stat('inference-min-gpus');
  const ratio = h('p', { className: 'ts-stat-value', 'data-figure': 'ratio' });
  const trainingTotal = h('p', { className: 'ts-stat-value', 'data-figure': 'training-total' });
  const trainingPerParam = stat('training-bytes-per-param');
  const trainingGpus = trainingGpusLine(context);
  // One column: its label (none for the ratio), its figure, what the figure counts, and its GPUs.
  const column = (className: string, label: string | null, value: HTMLElement, detail: Child, gpus: Child[] = []) =>
    h(
      'div',
      { className: `ts-stat ${className}` },
      label ? h('p', { className: 'ts-stat-label' }, label) : null,
      value,
      h('p', { className: 'ts-stat-detail' }, detail),
      gpus.length > 0 ? h('p', { className: 'ts-stat-gpus' }, ...gpus) : null,
    );
  const element = h(
    'div',
    { className: 'ts-headline' },
    column(
      'ts-stat-run',
      t('memory.stat.run', 'To run it'),
      inferenceTotal,
      withElements(t('memory.stat.per_param', '{value} per parameter'), { value: inferencePerParam }),
      [inferenceIcons.element, inferenceGpus],
    ),
    column('ts-stat-ratio', null, ratio, t('memory.stat.ratio', 'more bytes per parameter to train')),
    column(
      'ts-stat-train',
      t('memory.stat.train', 'To train it'),
      trainingTotal,
      withElements(t('memory.stat.per_param_plus', '{value} per parameter, plus activations'), { value: trainingPerParam }),
      trainingGpus.elements,
    ),
  );
  const update = (view: PageView) => {
    const single = view.reference;
    // The model run as training holds it (a QLoRA base in 4 bits; else the inference settings' run).
    const { run_as_trained: inference, training, gpu } = single;
    const perParam = training.bytes_per_param;
    setFigure(inferenceTotal, formatBytes(inference.total), inference.total);
    setText(inferencePerParam, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(inference.bytes_per_param) }));
    inferenceIcons.update(inference.min_gpus, context.units.formatGpus(inference.min_gpus));
    setFigure(
      inferenceGpus,
      t('memory.gpus_of', '{count} × {gpu}', { count: formatInteger(inference.min_gpus), gpu: gpu.short_name }),
      inference.min_gpus,
    );
    setFigure(ratio, formatRatio(inference.ratio_training_to_run), inference.ratio_training_to_run);
    setFigure(trainingTotal, formatBytes(training.per_gpu.total), training.per_gpu.total);
    setFigure(trainingPerParam, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(perParam.total) }), perParam.total);
    trainingGpus.update(view);
  };
  return { element, update };
}

/**
 * LoRA and QLoRA (docs/model.md §15): what is trained, how the frozen base is stored, and how big
 * the run's checkpoint is (the adapters alone). A quantized base says why its linear layers' bytes
 * per parameter differ from the whole base's: the embeddings, output head and norms stay 16-bit.
 */
export function fineTuningSentence(context: SectionContext): MemoryPart {
  const { t } = context;
  const { formatBytes, formatCount, formatNumber } = context.units;
  const trainableParams = h('span', { 'data-figure': 'trainable-params' });
  const baseBytesPerParam = h('span', { 'data-figure': 'base-bytes-per-param' });
  const wholeBase = h('span', { 'data-figure': 'base-average-bytes-per-param' });
  const adapterCheckpoint = h('span', { 'data-figure': 'adapter-checkpoint' });
  const fineTuningMethod = h('strong');
  const methodAgain = h('span');
  const quantized = h(
    'span',
    null,
    withElements(
      t(
        'memory.fine_tuning_quantized',
        '{method}: {trainable} parameters are trained. The frozen base’s linear layers are stored at {base} bytes per parameter; its embeddings, output head and norms stay 16-bit, so the whole base holds {whole} bytes per parameter, and running it takes the same. The run’s checkpoint holds the adapters alone: {checkpoint}.',
      ),
      { method: fineTuningMethod, trainable: trainableParams, base: baseBytesPerParam, whole: wholeBase, checkpoint: adapterCheckpoint },
    ),
  );
  const plainTrainable = h('span', { 'data-figure': 'trainable-params' });
  const plainBase = h('span', { 'data-figure': 'base-bytes-per-param' });
  const plainCheckpoint = h('span', { 'data-figure': 'adapter-checkpoint' });
  const plain = h(
    'span',
    null,
    withElements(
      t(
        'memory.fine_tuning_plain',
        '{method}: {trainable} parameters are trained; the frozen base is stored at {base} bytes per parameter. The run’s checkpoint holds the adapters alone: {checkpoint}.',
      ),
      { method: methodAgain, trainable: plainTrainable, base: plainBase, checkpoint: plainCheckpoint },
    ),
  );
  const element = h('p', { className: 'ts-fine-tuning' }, quantized, plain);
  const update = ({ estimate }: PageView) => {
    const tuning = estimate.training.fine_tuning;
    const shown = tuning !== undefined && tuning.method !== 'full';
    setHidden(element, !shown);
    if (!tuning || !shown) return;
    const label = context.choices('training.method').find((choice) => choice.value === tuning.method)?.label ?? tuning.method;
    // Two figures only where they read differently: a base whose linear layers are stored below 16 bits.
    const base = formatNumber(tuning.base_bytes_per_param);
    const whole = formatNumber(estimate.run_as_trained.bytes_per_param);
    const twoFigures = base !== whole;
    setHidden(quantized, !twoFigures);
    setHidden(plain, twoFigures);
    const trainable = formatCount(tuning.trainable_params, { short: true, significant: 3 });
    const checkpoint = formatBytes(tuning.checkpoint_bytes);
    // Both sentences carry the figures (a test reads the first of each name), one of them shown.
    for (const method of [fineTuningMethod, methodAgain]) setText(method, label);
    for (const figure of [trainableParams, plainTrainable]) setFigure(figure, trainable, tuning.trainable_params);
    for (const figure of [baseBytesPerParam, plainBase]) setFigure(figure, base, tuning.base_bytes_per_param);
    setFigure(wholeBase, whole, estimate.run_as_trained.bytes_per_param);
    for (const figure of [adapterCheckpoint, plainCheckpoint]) setFigure(figure, checkpoint, tuning.checkpoint_bytes);
  };
  return { element, update };
}

/** Running's parts: the weights at their bytes per parameter, the KV cache of the sequences served. */
function runningParts(context: SectionContext, { reference: single, scenario: resolved }: PageView): Part[] {
  const { t } = context;
  const { formatInteger, formatNumber } = context.units;
  const inference = single.run_as_trained;
  return [
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
}

/** Training's parts, each with its bytes per parameter or what it depends on. */
function trainingParts(context: SectionContext, { reference: single, scenario: resolved }: PageView): Part[] {
  const { t } = context;
  const { formatInteger, formatNumber } = context.units;
  const { training } = single;
  const perParam = training.bytes_per_param;
  const perParamDetail = (bytes: number) => t('memory.part.per_param', '{bytes} B/param', { bytes: formatNumber(bytes) });
  return [
    { key: 'weights', value: training.per_gpu.weights, detail: perParamDetail(perParam.weights) },
    { key: 'gradients', value: training.per_gpu.gradients, detail: perParamDetail(perParam.gradients) },
    { key: 'master_weights', value: training.per_gpu.master_weights, detail: perParamDetail(perParam.master_weights) },
    { key: 'optimizer_states', value: training.per_gpu.optimizer_states, detail: perParamDetail(perParam.optimizer_states) },
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
}

/** Running's and training's bars on one scale, one GPU's memory marked, with their legends. */
export function memoryBars(context: SectionContext): MemoryPart {
  const { t, parts: labels } = context;
  const { formatBytes } = context.units;
  const runLabel = h('span');
  const trainLabel = h('span');
  const runBar = stackedBar(RUN_KEYS, formatBytes, labels, { marker: true });
  const trainBar = stackedBar(TRAIN_KEYS, formatBytes, labels, { marker: true, markerLabel: false });
  const axis = linearAxis((value) => formatBytes(value, 3));
  const runLegend = legend(RUN_KEYS, formatBytes, labels, t('memory.stat.run', 'To run it'), { showCaption: true });
  const trainLegend = legend(TRAIN_KEYS, formatBytes, labels, t('memory.stat.train', 'To train it'), { showCaption: true });
  const barRow = (name: string, label: HTMLElement, bar: HTMLElement) =>
    h('div', { className: 'ts-bar-row' }, h('p', { className: 'ts-bar-label' }, h('strong', null, name), ' ', label), bar);
  const element = h(
    'figure',
    { className: 'ts-figure' },
    h(
      'div',
      { className: 'ts-figure-body' },
      barRow(t('memory.bar.run', 'Run'), runLabel, runBar.element),
      barRow(t('memory.bar.train', 'Train'), trainLabel, trainBar.element),
      axis.element,
      h('div', { className: 'ts-legends' }, runLegend.element, trainLegend.element),
    ),
    h(
      'figcaption',
      null,
      t(
        'memory.caption',
        'One whole copy of the model, on one scale. The vertical line is one GPU’s memory; each bar shows how far past it the model reaches.',
      ),
    ),
  );
  const update = (view: PageView) => {
    const { run_as_trained: inference, training, gpu } = view.reference;
    const runParts = runningParts(context, view);
    const trainParts = trainingParts(context, view);
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
    axis.update(max, view.narrow);
    runLegend.update(runParts);
    trainLegend.update(trainParts);
  };
  return { element, update };
}

/** The lesson's first point in one sentence, quoting the estimate's bytes per parameter. */
export function runTrainSentence(context: SectionContext): MemoryPart {
  const { t } = context;
  const { formatNumber } = context.units;
  const runPerParam = h('strong', { 'data-figure': 'prose-inference-bytes-per-param' });
  const trainPerParam = h('strong', { 'data-figure': 'prose-training-bytes-per-param' });
  const element = prose(
    withElements(
      t(
        'lesson.run.prose',
        'To run a model, a GPU holds little more than its weights: {run} per parameter. To train it takes {train} per parameter, plus the activations.',
      ),
      { run: runPerParam, train: trainPerParam },
    ),
  );
  const update = ({ reference: single }: PageView) => {
    setText(runPerParam, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(single.inference.bytes_per_param) }));
    setText(trainPerParam, t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(single.training.bytes_per_param.total) }));
  };
  return { element, update };
}

/** What each weight brings when training, quoting the total for the optimizer and precision on screen. */
export function trainingExtrasSentence(context: SectionContext): MemoryPart {
  const { t } = context;
  const { formatNumber } = context.units;
  const trainPerParamProse = h('strong', { 'data-figure': 'extras-training-bytes-per-param' });
  const element = prose(
    t(
      'memory.prose.train',
      'To train it, every weight brings company: a gradient saying which way to nudge it, in mixed precision a full-precision master copy so that tiny nudges are not rounded away, and the optimizer’s running averages (Adam keeps two). ',
    ),
    withElements(t('memory.prose.total', 'With the choices below that is {bytes} per parameter, before any activations are stored.'), {
      bytes: trainPerParamProse,
    }),
  );
  const update = ({ reference: single }: PageView) => {
    setFigure(
      trainPerParamProse,
      t('memory.bytes', '{bytes} bytes', { bytes: formatNumber(single.training.bytes_per_param.total) }),
      single.training.bytes_per_param.total,
    );
  };
  return { element, update };
}

/** Why more bytes to train than to run, its summary and formula quoting the figures on screen. */
export function memoryWhy(context: SectionContext): MemoryPart {
  const { t } = context;
  const { formatNumber } = context.units;
  const element = why(
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
  const whySummary = element.querySelector('summary') as HTMLElement;
  const whyFormula = element.querySelector('.ts-formula') as HTMLElement;
  const update = ({ estimate, reference: single }: PageView) => {
    const { inference, training } = single;
    const trainingBytes = formatNumber(training.bytes_per_param.total);
    const runningBytes = formatNumber(inference.bytes_per_param);
    // With LoRA or QLoRA the frozen base keeps no gradients or optimizer states, so training can
    // take as many bytes per parameter as running ("Why 2 bytes instead of 2?"): the question is
    // then why training every weight would take more, which the body answers.
    const adapters = (estimate.training.fine_tuning?.method ?? 'full') !== 'full';
    setText(
      whySummary,
      adapters || trainingBytes === runningBytes
        ? t('memory.why.summary_adapters', 'Why would training every weight take more bytes than running?')
        : t('memory.why.summary_numbers', 'Why {training} bytes instead of {running}?', {
            training: trainingBytes,
            running: runningBytes,
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
  return { element, update };
}

/** Precision, optimizer and serving settings, and the counting conventions with each one's sum. */
function precisionControls(context: SectionContext, accountingChoices: readonly AccountingChoice[]): MemoryPart {
  const { t } = context;
  const { formatInteger } = context.units;
  // Why another tool says 18: each convention in the engine's words, its sum for the optimizer on screen.
  const accountingNotes = accountingChoices.map((choice) => ({ id: choice.id, text: h('span'), element: h('li', null) }));
  for (const note of accountingNotes) note.element.append(note.text);
  // The four choices side by side where there is room, and what they cost beneath them, full width.
  const element = h(
    'div',
    { className: 'ts-deeper-body ts-as-run' },
    h(
      'div',
      { className: 'ts-grid-controls' },
      choiceSelect(context, 'inference.precision', t('memory.deeper.weights_precision', 'Weights when running')),
      choiceSelect(context, 'inference.kv_precision', t('memory.deeper.kv_precision', 'KV cache precision')),
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
      choiceSelect(context, 'training.optimizer', t('memory.deeper.optimizer', 'Optimizer')),
      choiceSelect(context, 'training.precision', t('memory.deeper.training_precision', 'Training precision')),
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
  const update = ({ reference: single }: PageView) => {
    for (const note of accountingNotes) {
      const choice = single.training.accounting_choices?.find((candidate) => candidate.id === note.id);
      setText(note.text, choice?.explanation ?? '');
      note.element.classList.toggle('ts-current', single.training.accounting?.id === note.id);
    }
  };
  return { element, update };
}

/** A drop-down of a choice field, its options the engine's words for each value. */
export function choiceSelect(context: SectionContext, path: string, label: string): HTMLElement {
  return context.add(selectControl(path, label, [...context.choices(path)], context.onValue)).element;
}

/** A switch whose words are the engine's: the label of its "on" choice, and that choice's hint. */
function toggle(context: SectionContext, path: string): HTMLElement {
  const on = context.choices(path).find((choice) => String(choice.value) === 'true');
  return context.add(checkboxControl(path, on?.label ?? path, context.onValue, on?.hint)).element;
}

/**
 * How the run is kept as real trainers keep it (docs/model.md §2, §4, §9): the framework whose rules
 * decide what a layer saves, the precision recipe, the optimizer's placement; and what a GPU process
 * pays beside its tensors, as allocated, reserved and in use (what nvidia-smi shows).
 */
function asRunControls(context: SectionContext): MemoryPart {
  const { t } = context;
  const { formatBytes } = context.units;
  const context_ = h('strong', { 'data-figure': 'cuda-context' });
  const reserved = h('strong', { 'data-figure': 'reserved' });
  const inUse = h('strong', { 'data-figure': 'in-use' });
  const overhead = h(
    'p',
    { className: 'ts-hint' },
    withElements(
      t(
        'precision.overhead',
        'Beside its tensors, each GPU’s process pays {context} for the CUDA context. PyTorch’s allocator keeps freed blocks: about {reserved} reserved at the peak, and nvidia-smi shows about {in_use}.',
      ),
      { context: context_, reserved, in_use: inUse },
    ),
  );
  // The four choices side by side where there is room, and what they cost beneath them, full width.
  const element = h(
    'div',
    { className: 'ts-deeper-body ts-as-run' },
    h(
      'div',
      { className: 'ts-grid-controls' },
      choiceSelect(context, 'training.framework', t('precision.framework', 'Framework (what each layer keeps for the backward)')),
      choiceSelect(context, 'training.precision_recipe', t('precision.recipe', 'How 16-bit training holds the weights')),
      toggle(context, 'training.paged_optimizer'),
      toggle(context, 'training.optimizer_in_backward'),
    ),
    overhead,
  );
  const update = ({ estimate }: PageView) => {
    const figures = estimate.training.overhead;
    setHidden(overhead, !figures);
    if (!figures) return;
    setFigure(context_, formatBytes(figures.cuda_context), figures.cuda_context);
    // Reserved and in use differ by the context; where a 1 TB peak rounds them alike, more digits
    // show the difference instead of one figure twice.
    let digits = 0;
    while (digits < 6 && formatBytes(figures.reserved, digits) === formatBytes(figures.in_use, digits))
      digits = digits === 0 ? 4 : digits + 1;
    setFigure(reserved, formatBytes(figures.reserved, digits), figures.reserved);
    setFigure(inUse, formatBytes(figures.in_use, digits), figures.in_use);
  };
  return { element, update };
}

/**
 * The deeper part behind the lesson's bytes per parameter: the precision weights run and train in,
 * the optimizer, the sequences served, and why other tools count another total.
 * `accountingChoices`: the engine's counting conventions (any estimate lists them), for the choice's labels;
 * `validation`: how close the engine is to measured runs, said under the choices that decide it.
 */
export function precisionSection(
  context: SectionContext,
  accountingChoices: readonly AccountingChoice[],
  validation: ValidationSummary,
): SectionView {
  const { t } = context;
  const controls = precisionControls(context, accountingChoices);
  const asRun = asRunControls(context);
  const element = sectionElement(
    context,
    'precision',
    t('precision.heading', 'Precision, optimizer and serving'),
    'ts-section',
    prose(
      t(
        'precision.prose',
        'The bytes per parameter above assume 16-bit weights and Adam in mixed precision. Other precisions and optimizers change them, and serving many long sequences adds a key/value cache to running. ',
      ),
    ),
    controls.element,
    asRun.element,
    validationLine(context, validation),
  );
  const update = (view: PageView) => {
    controls.update(view);
    asRun.update(view);
  };
  return { element, update };
}
