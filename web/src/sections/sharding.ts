// Section 4: sharding: the whole model's states, the slice one GPU keeps, and what it holds.

import { checkboxControl, radioControl, selectControl } from '../controls/controls';
import { fieldStops } from '../controls/sliders';
import { h, setAttribute, setClass, setFigure, setHidden, setStyle, setText } from '../dom/dom';
import { legend } from '../figures/legend';
import { linearAxis } from '../figures/linear-axis';
import { shardBar } from '../figures/shard-bar';
import { stackedBar } from '../figures/stacked-bar';
import { layoutFigure } from '../figures/layout';
import { termsFor, type Terms } from '../figures/term';
import { why } from '../figures/why';
import { type Part, type PartKey } from '../figures/parts';
import { withElements } from '../i18n/i18n';
import { setField } from '../engine/scenario';
import { extraParts, type PageView, type SectionContext, type SectionView } from './context';
import type { Preset } from '../engine/types';
import { gpuControl } from './gpus';
import { runLoader } from './sharding-runs';
import { prose, sectionElement } from './shell';

const STATE_KEYS = ['weights', 'gradients', 'master_weights', 'optimizer_states'] as const;
const HELD_KEYS = ['weights', 'gradients', 'master_weights', 'optimizer_states', 'activations', 'logits'] as const;
// The CUDA context last: the process's own slice beside its tensors (docs/model.md §9), drawn so the
// bar ends where the card's memory is really spent.
const SHOWN_KEYS: readonly PartKey[] = [...HELD_KEYS, 'gathered_weights', 'temporary', 'cuda_context'];
/** GPU chips drawn (fewer on a narrow screen); the rest are summed up in a sentence. */
const CHIPS = 16;
const NARROW_CHIPS = 8;
/** The terms this section explains where it first names them. */
const SHARDING_TERMS = [
  'data_parallel',
  'zero',
  'fsdp',
  'optimizer_states',
  'master_copy',
  'tensor_parallel',
  'pipeline_bubble',
  'pipeline_parallel',
  'context_parallel',
  'expert_parallel',
  'interleaved_stages',
  'one_f_one_b',
  'sequence_parallel',
  'shard_grad_op',
  'full_shard',
  'micro_batch',
];
/** Past this many GPUs the "try ZeRO-3" button would suggest a cluster nobody has. */
const LARGEST_SUGGESTION = 100000;

/** A part of the section: its element and how it shows the page's view. */
interface ShardingPart {
  readonly element: HTMLElement;
  update(view: PageView): void;
}

/**
 * The fewest GPUs that train the model fully sharded, with a button to try them; or why none do.
 * `engineSaysWhy`: the engine's note on why none do is shown beside this, so no sentence of the
 * page's own repeats it.
 */
function fewestGpus(context: SectionContext, engineSaysWhy: boolean): ShardingPart {
  const { t } = context;
  const { formatGpus } = context.units;
  // The fewest GPUs: one sentence when training fits somewhere, another when nothing can.
  const minGpus = h('strong', { 'data-figure': 'min-gpus' });
  let minimum = 0;
  const tryZero = h('button', {
    type: 'button',
    className: 'ts-button',
    onclick: () => context.change((o) => setField(setField(o, 'parallel.zero_stage', 3), 'parallel.gpus', minimum)),
  });
  const fitsFrom = h(
    'span',
    null,
    withElements(t('sharding.fits_from', 'Fully sharded (ZeRO-3), training fits from {count}.'), { count: minGpus }),
    tryZero,
  );
  const neverFits = h(
    'span',
    { 'data-figure': 'min-gpus' },
    t(
      'sharding.never_fits',
      'Even fully sharded, what one GPU holds at the busiest moment of a step does not fit: try checkpointing, a shorter sequence or tensor parallelism.',
    ),
  );
  const tryFull = h(
    'button',
    { type: 'button', className: 'ts-button', onclick: () => context.change((o) => setField(o, 'training.recompute', 'full')) },
    t('sharding.try_full', 'Try full checkpointing'),
  );
  const element = h('p', { className: 'ts-fit-text' }, fitsFrom, neverFits, tryFull);
  const update = ({ estimate, scenario: resolved }: PageView) => {
    const { training } = estimate;
    minimum = training.min_gpus;
    setHidden(fitsFrom, !(minimum > 0));
    setHidden(neverFits, minimum > 0 || engineSaysWhy);
    // Only one element carries the figure at a time, so tests and tools find the one shown.
    if (minimum > 0) {
      setFigure(minGpus, formatGpus(minimum), minimum);
      neverFits.removeAttribute('data-figure');
      setAttribute(minGpus, 'data-figure', 'min-gpus');
    } else {
      minGpus.removeAttribute('data-figure');
      setAttribute(neverFits, 'data-figure', 'min-gpus');
      setAttribute(neverFits, 'data-value', String(minimum));
    }
    setHidden(tryZero, !(minimum > 0 && !training.fits && minimum <= LARGEST_SUGGESTION));
    setText(tryZero, t('sharding.try_zero_on', 'Try ZeRO-3 on {gpus}', { gpus: formatGpus(minimum) }));
    setHidden(tryFull, minimum > 0 || resolved.training.recompute === 'full');
  };
  return { element, update };
}

/**
 * Whether training fits, what each GPU holds of its memory, and its share of the model states.
 * `engineSaysWhy`: the engine's notes sit below the card (the lesson's sharding part), so they,
 * not the card, say why nothing fits: once, in the engine's words.
 */
export function fitStatus(context: SectionContext, engineSaysWhy = false): ShardingPart {
  const { t } = context;
  const { formatBytes, formatInteger } = context.units;
  const fitIcon = h('span', { className: 'ts-fit-icon', 'aria-hidden': 'true' });
  const fitText = h('span');
  const badge = h('p', { className: 'ts-fit-badge', 'data-figure': 'fits' }, fitIcon, fitText);
  const perGpuTotal = h('strong', { 'data-figure': 'per-gpu-total' });
  const perGpuRest = h('span');
  // The four model states one GPU keeps, as one engine figure (quiz question 10's answer).
  const statesPerGpu = h('strong', { 'data-figure': 'model-states-per-gpu' });
  const statesTotal = h('strong', { 'data-figure': 'model-states-total' });
  const fewest = fewestGpus(context, engineSaysWhy);
  const element = h(
    'div',
    { className: 'ts-fit' },
    badge,
    h('p', { className: 'ts-fit-text' }, withElements(t('sharding.holds', 'Each GPU holds {total}'), { total: perGpuTotal }), perGpuRest),
    h(
      'p',
      { className: 'ts-fit-text' },
      withElements(
        t(
          'sharding.states',
          'Model states per GPU: {per_gpu}, of {total} for the whole model (weights, gradients, FP32 master copy and optimizer states).',
        ),
        { per_gpu: statesPerGpu, total: statesTotal },
      ),
    ),
    fewest.element,
  );
  const update = (view: PageView) => {
    const { training, gpu } = view.estimate;
    const perGpu = training.per_gpu;
    const gpus = view.scenario.parallel.gpus;
    setClass(badge, 'ts-fits', training.fits);
    setClass(badge, 'ts-no-fit', !training.fits);
    setAttribute(badge, 'data-value', String(training.fits));
    setText(fitIcon, training.fits ? '✓' : '✗');
    setText(fitText, training.fits ? t('sharding.fits', ' Fits') : t('sharding.no_fit', ' Does not fit'));
    setFigure(perGpuTotal, formatBytes(perGpu.total), perGpu.total);
    const rest = {
      memory: formatBytes(gpu.memory_bytes),
      gpus: context.units.formatGpus(gpus),
      data_parallel: formatInteger(training.data_parallel),
    };
    // The data-parallel width says something only when other kinds of parallelism share the GPUs.
    const dataParallelOnly = training.data_parallel === gpus;
    setText(
      perGpuRest,
      dataParallelOnly
        ? t('sharding.of_memory', ' of its {memory} ({gpus}).', rest)
        : t('sharding.of_memory_gpus', ' of its {memory} ({gpus}, {data_parallel}-way data parallel).', rest),
    );
    setFigure(statesPerGpu, formatBytes(perGpu.model_states), perGpu.model_states);
    setFigure(statesTotal, formatBytes(training.model_states.total), training.model_states.total);
    fewest.update(view);
  };
  return { element, update };
}

/** One chip per GPU (a few stand for many), each filled to what it holds of its memory. */
export function gpuChips(context: SectionContext): ShardingPart {
  const { t } = context;
  const { formatInteger } = context.units;
  const chips = Array.from({ length: CHIPS }, (_, index) => {
    const fill = h('span', { className: 'ts-chip-fill' });
    return {
      fill,
      item: h(
        'li',
        { className: 'ts-chip' },
        fill,
        h('span', { className: 'ts-chip-name' }, t('sharding.chip', 'GPU {number}', { number: formatInteger(index + 1) })),
      ),
    };
  });
  const chipList = h(
    'ul',
    { className: 'ts-chips' },
    chips.map((chip) => chip.item),
  );
  const chipsMore = h('p', { className: 'ts-chips-more' });
  const update = ({ estimate, scenario: resolved, narrow }: PageView) => {
    const { training, gpu } = estimate;
    const gpus = resolved.parallel.gpus;
    const shown = Math.min(gpus, narrow ? NARROW_CHIPS : CHIPS);
    const fill = `${Math.min(100, (training.per_gpu.total / gpu.memory_bytes) * 100).toFixed(2)}%`;
    chips.forEach((chip, index) => {
      setHidden(chip.item, index >= shown);
      setClass(chip.item, 'ts-chip-over', !training.fits);
      setStyle(chip.fill, 'height', fill);
    });
    setAttribute(
      chipList,
      'aria-label',
      training.fits
        ? t('sharding.chips_within_of', '{gpus}, each within its memory', { gpus: context.units.formatGpus(gpus) })
        : t('sharding.chips_over_of', '{gpus}, each over its memory', { gpus: context.units.formatGpus(gpus) }),
    );
    setHidden(chipsMore, !(gpus > shown));
    setText(
      chipsMore,
      t('sharding.chips_more_of', '… {gpus} in all, each holding the same amount.', { gpus: context.units.formatGpus(gpus) }),
    );
  };
  return { element: h('div', { className: 'ts-chips-wrap' }, chipList, chipsMore), update };
}

/** What one GPU holds, each part marked a slice, a full copy or its own micro-batch's. */
function heldParts(context: SectionContext, { estimate }: PageView): Part[] {
  const { t } = context;
  const { formatBytes } = context.units;
  const perGpu = estimate.training.per_gpu;
  const states = estimate.training.model_states;
  const parts: Part[] = HELD_KEYS.map((key) => ({
    key,
    value: perGpu[key],
    detail:
      key === 'activations' || key === 'logits'
        ? t('sharding.detail.own', 'its own micro-batch')
        : perGpu[key] < states[key]
          ? t('sharding.detail.slice', 'a slice of {bytes}', { bytes: formatBytes(states[key]) })
          : t('sharding.detail.full', 'a full copy'),
  }));
  parts.push(...extraParts(t, perGpu));
  const context_ = estimate.training.overhead?.cuda_context ?? 0;
  if (context_ > 0)
    parts.push({ key: 'cuda_context', value: context_, detail: t('sharding.detail.context', 'the process’s own, beside its tensors') });
  return parts;
}

/** The one-GPU bar in words: its tensors, the process's CUDA context beside them, the card's memory. */
function heldBarLabel(context: SectionContext, { estimate }: PageView, parts: readonly Part[]): string {
  const { t, parts: labels } = context;
  const { formatBytes } = context.units;
  return t(
    'sharding.held_bar_context',
    'Each GPU holds {total} of tensors: {parts}. Its process adds {context} for the CUDA context. It has {memory}.',
    {
      total: formatBytes(estimate.training.per_gpu.total),
      parts: parts
        .filter((p) => p.key !== 'cuda_context')
        .map((p) => `${labels[p.key]} ${formatBytes(p.value)}`)
        .join(', '),
      context: formatBytes(estimate.training.overhead?.cuda_context ?? 0),
      memory: formatBytes(estimate.gpu.memory_bytes),
    },
  );
}

/** The whole model's states with GPU 1's slice outlined, what one GPU holds against its memory, and the GPUs. */
function shardBars(context: SectionContext): ShardingPart {
  const { t, parts: labels } = context;
  const { formatBytes } = context.units;
  const whole = shardBar(STATE_KEYS, formatBytes, labels, t);
  const held = stackedBar(SHOWN_KEYS, formatBytes, labels, { marker: true });
  const axis = linearAxis((value) => formatBytes(value, 3));
  const heldLegend = legend(SHOWN_KEYS, formatBytes, labels, t('sharding.legend', 'What each GPU holds'));
  const chips = gpuChips(context);
  const element = h(
    'div',
    { className: 'ts-figure-body' },
    h(
      'div',
      { className: 'ts-bar-row' },
      h(
        'p',
        { className: 'ts-bar-label' },
        withElements(t('sharding.whole_label', '{whole}, and the slice GPU 1 keeps (outlined)'), {
          whole: h('strong', null, t('sharding.whole', 'The whole model’s states')),
        }),
      ),
      whole.element,
    ),
    h(
      'div',
      { className: 'ts-bar-row' },
      h('p', { className: 'ts-bar-label' }, h('strong', null, t('sharding.one_gpu', 'One GPU'))),
      held.element,
    ),
    axis.element,
    heldLegend.element,
    chips.element,
  );
  const update = (view: PageView) => {
    const { training, gpu } = view.estimate;
    const perGpu = training.per_gpu;
    const states = training.model_states;
    const parts = heldParts(context, view);
    const cudaContext = training.overhead?.cuda_context ?? 0;
    const max = Math.max(perGpu.total + cudaContext, gpu.memory_bytes);
    // The bar labels add no figure: the sentences above say what the whole model and one GPU hold.
    whole.update(
      STATE_KEYS.map((key) => ({ key, whole: states[key], mine: perGpu[key] })),
      states.total,
      t('sharding.whole_bar', 'The model states total {total}. {parts}.', {
        total: formatBytes(states.total),
        parts: STATE_KEYS.map((key) =>
          perGpu[key] < states[key]
            ? t('sharding.whole_bar.slice', '{part}: each GPU keeps a slice, {mine} of {whole}', {
                part: labels[key],
                mine: formatBytes(perGpu[key]),
                whole: formatBytes(states[key]),
              })
            : t('sharding.whole_bar.all', '{part}: every GPU keeps all {whole}', { part: labels[key], whole: formatBytes(states[key]) }),
        ).join('; '),
      }),
    );
    held.update(parts, max, heldBarLabel(context, view, parts), {
      value: gpu.memory_bytes,
      label: t('sharding.marker', '{gpu} memory', { gpu: gpu.model_name }),
    });
    axis.update(max, view.narrow);
    heldLegend.update(parts);
    chips.update(view);
  };
  return { element, update };
}

/** Why sharding costs so little; its formula is the engine's, for the bytes per parameter on screen (view.text). */
function shardingWhy(context: SectionContext): ShardingPart {
  const { t } = context;
  const element = why(
    t,
    t('sharding.why.summary', 'Why does sharding cost so little?'),
    [
      t(
        'sharding.why.body',
        'In data-parallel training every GPU ends each step with the same gradients and applies the same update, so keeping identical copies of the optimizer state on every GPU is pure waste. ZeRO stage 1 keeps one slice per GPU; stage 2 also reduces each gradient straight to the GPU that owns its slice; stage 3 even gathers each layer’s weights just before use and drops them after. The price is more communication, not more arithmetic.',
      ),
    ],
    '…',
    t(
      'sharding.why.sources',
      'Rajbhandari et al. 2019, “ZeRO: Memory Optimizations Toward Training Trillion Parameter Models”, §5 and Figure 1; PyTorch FSDP documentation.',
    ),
  );
  const whyFormula = element.querySelector<HTMLElement>('.ts-formula');
  // The stages' bytes follow the optimizer and precision on screen: the engine writes them.
  const update = ({ text }: PageView) => {
    if (whyFormula) setText(whyFormula, text.zero_formula);
  };
  return { element, update };
}

/** Tensor, pipeline, context and expert parallelism, interleaving and sequence parallelism, folded away. */
function parallelismControls(context: SectionContext): HTMLElement {
  const { t } = context;
  const { formatInteger } = context.units;
  const degree = (path: string, label: string, hint?: string) =>
    context.add(
      selectControl(
        path,
        label,
        fieldStops(context.units, path).map((v) => ({ value: v, label: formatInteger(v) })),
        context.onValue,
        hint,
      ),
    ).element;
  return h(
    'details',
    { className: 'ts-deeper' },
    h('summary', null, t('sharding.deeper.summary', 'Go deeper: tensor, pipeline, context and expert parallelism')),
    h(
      'div',
      { className: 'ts-deeper-body' },
      h(
        'p',
        { className: 'ts-hint' },
        t(
          'sharding.deeper.hint',
          'Tensor parallelism splits each matrix across GPUs; pipeline parallelism gives each GPU a run of layers. Both divide the model states before ZeRO shares out the rest. Context parallelism splits each sequence; expert parallelism splits a mixture of experts’ experts. GPUs must be a multiple of tensor × pipeline × context.',
        ),
      ),
      degree('parallel.tensor', t('sharding.deeper.tensor', 'Tensor parallel degree')),
      degree('parallel.pipeline', t('sharding.deeper.pipeline', 'Pipeline parallel degree')),
      degree(
        'parallel.context',
        t('sharding.deeper.context', 'Context parallel degree'),
        t('sharding.deeper.context_hint', 'splits each sequence across GPUs: the activations per GPU fall with it.'),
      ),
      degree(
        'parallel.expert',
        t('sharding.deeper.expert', 'Expert parallel degree'),
        t('sharding.deeper.expert_hint', 'splits a mixture of experts’ routed experts across the data- and context-parallel GPUs.'),
      ),
      context.add(
        selectControl(
          'parallel.interleave',
          t('sharding.deeper.interleave', 'Interleaved stages per GPU'),
          // The engine's values: the ones its layout search proposes too (issue 33).
          context.choices('parallel.interleave').map((choice) => ({ value: Number(choice.value), label: choice.label })),
          context.onValue,
          t(
            'sharding.deeper.interleave_hint',
            'Interleaving shrinks the pipeline bubble of plain 1F1B but keeps more activations in flight on the first stage.',
          ),
        ),
      ).element,
      context.add(
        checkboxControl(
          'training.sequence_parallel',
          t('sharding.deeper.sequence_parallel', 'Sequence parallelism'),
          context.onValue,
          t('sharding.deeper.sequence_parallel_hint', 'splits the remaining activations across the tensor-parallel group'),
        ),
      ).element,
    ),
  );
}

/**
 * The ZeRO stages explained beside their radio: its labels are what a tap chooses, so the stages'
 * definitions (the engine's glossary, figures/term.ts) have a line of their own, in the choices' words.
 */
export function zeroStageTerms(context: Pick<SectionContext, 't' | 'choices'>, terms: Terms): HTMLElement {
  const labels = new Map(context.choices('parallel.zero_stage').map((stage) => [`zero_${stage.value}`, stage.label]));
  return terms.key(context.t('sharding.zero_terms', 'The stages:'), [...labels.keys()], (term) => labels.get(term.id) ?? term.name);
}

/** What sharding does, in two sentences. */
function shardingProse(context: SectionContext): HTMLElement {
  const { t } = context;
  return prose(
    t(
      'sharding.prose_1',
      'No GPU holds a terabyte. With plain data parallelism every GPU keeps a full copy of everything, so adding GPUs adds speed but no memory. ',
    ),
    t(
      'sharding.prose_2',
      'ZeRO (and PyTorch’s FSDP) gives each GPU only its own slice: first of the optimizer states, then of the gradients, then of the weights themselves, fetching the other slices from its neighbours just when it needs them.',
    ),
  );
}

/** The layout figure's caption. */
function layoutCaption(context: SectionContext): string {
  return context.t(
    'layout.caption',
    'How the GPUs are laid out, the innermost group first: how many GPUs each kind of parallelism groups, and the slice of the model each holds. A few squares stand for many; the count says how many.',
  );
}

/** `lessonShown`: the lesson path's sharding part shows whether training fits and the fewest GPUs, so this deeper part leaves them out. */
export function shardingSection(context: SectionContext, presets: readonly Preset[], lessonShown = false): SectionView {
  const { t } = context;
  const { formatInteger } = context.units;
  const status = fitStatus(context);
  const bars = shardBars(context);
  const whyDetails = shardingWhy(context);
  const terms = termsFor(t, context.language);
  const layout = layoutFigure(t, formatInteger, context.units.formatGpus, terms);
  const runs = runLoader(context, presets);
  const update: SectionView['update'] = (view) => {
    layout.update(view.estimate, view.scenario, view.narrow);
    runs.update(view);
    whyDetails.update(view);
    if (!lessonShown) status.update(view);
    bars.update(view);
  };
  const element = sectionElement(
    context,
    'sharding',
    t('sharding.heading', 'Sharding: every GPU keeps only its slice'),
    'ts-section',
    shardingProse(context),
    h(
      'div',
      { className: 'ts-panel' },
      h(
        'div',
        { className: 'ts-panel-controls' },
        context.add(
          radioControl(
            'parallel.zero_stage',
            t('controls.zero', 'Sharding (ZeRO stage)'),
            [...context.choices('parallel.zero_stage')],
            context.onValue,
          ),
        ).element,
        zeroStageTerms(context, terms),
        gpuControl(context),
        parallelismControls(context),
      ),
      h(
        'figure',
        { className: 'ts-figure' },
        lessonShown ? null : status.element,
        bars.element,
        h(
          'figcaption',
          null,
          t(
            'sharding.caption',
            'Top: the whole model’s training state; a faded component is sharded and GPU 1 keeps only its outlined slice. Below: what one GPU holds against its memory (the dashed line). Every GPU holds the same amount: its own slices and its own micro-batch’s activations.',
          ),
        ),
      ),
    ),
    h('figure', { className: 'ts-figure ts-layout-figure' }, runs.element, layout.element, h('figcaption', null, layoutCaption(context))),
    whyDetails.element,
  );
  // Words at first sight (figures/term.ts): the earlier in the list wins where two overlap ("pipeline bubble").
  terms.markIn(element, SHARDING_TERMS);
  terms.markIn(whyDetails.element, ['zero_1', 'zero_2', 'zero_3']);
  return { element, update };
}
