// "What fits on my GPUs": the learner's GPUs and goal (fields of the widget's one scenario), then
// the engine's answer: does the current layout fit, the largest micro-batch and sequence, every
// layout that fits ranked by run time, the cheapest changes when it does not, and full / LoRA /
// QLoRA side by side. The engine's search runs only when the section is built and the scenario it
// shows changed (other sections never pay for it).

import { radioControl, selectControl } from '../../controls/controls';
import { h, replace, setClass, setFigure, setHidden, setText } from '../../dom/dom';
import type { Engine } from '../../engine/engine';
import { validationLine } from '../validation-line';
import type { FitAnswer } from '../../engine/fit';
import type { FieldError } from '../../engine/types';
import type { PageView, SectionContext, SectionView } from '../context';
import { gpuControl } from '../gpus';
import { termsFor } from '../../figures/term';
import { withElements } from '../../i18n/i18n';
import { CUSTOM_GPU } from '../time';
import { changesList } from './changes';
import { layoutName, layoutsList } from './layouts';
import { methodSettings } from './method-settings';
import { fitModelChoice } from './model-choice';
import { methodsFigure } from './methods';
import { searchWhenNear } from './schedule';
import { prose, sectionElement } from '../shell';

/** How long the inputs rest before the engine searches again. */
const SEARCH_REST_MS = 120;

type FitEngine = Pick<Engine, 'fit' | 'fineTuningMethods' | 'gpus' | 'presets' | 'estimate' | 'validationSummary'>;

/** The run's sequence length and micro-batch: the first question of "what fits" (2k, 4k or 8k tokens?). */
function runInputs(context: SectionContext): HTMLElement {
  const { t } = context;
  const { formatInteger } = context.units;
  return h(
    'fieldset',
    { className: 'ts-fit-group' },
    h('legend', null, t('fit.inputs.run', 'Your run')),
    context.range({
      path: 'training.sequence',
      label: t('activations.sequence', 'Sequence length (tokens)'),
      formatField: formatInteger,
      describe: (v) => context.units.formatTokens(v),
    }).element,
    context.range({
      path: 'training.micro_batch',
      label: t('activations.micro_batch', 'Micro-batch (sequences per GPU per step)'),
      formatField: formatInteger,
      describe: (v) => context.units.formatSequences(v),
    }).element,
  );
}

/** The learner's GPUs and goal: controls on the scenario's fields, shared with the other sections. */
function fitInputs(context: SectionContext, engine: FitEngine, settings: HTMLElement, model: HTMLElement): HTMLElement {
  const { t } = context;
  const { formatBytes } = context.units;
  const gpuChoices = [
    ...engine.gpus.map((gpu) => ({ value: gpu.id, label: gpu.name })),
    { value: CUSTOM_GPU, label: t('time.custom_gpu', 'Your own GPU: set it below') },
  ];
  const memory = context.range({
    path: 'hardware.memory_bytes',
    label: t('time.deeper.memory', 'GPU memory'),
    formatField: (v) => formatBytes(v),
    describe: (v) => t('time.deeper.memory_value', '{memory} of memory per GPU', { memory: formatBytes(v) }),
    fieldLabel: t('time.deeper.memory_field', 'GPU memory, exact (e.g. 96 GB)'),
  }).element;
  return h(
    'div',
    { className: 'ts-fit-inputs' },
    h(
      'fieldset',
      { className: 'ts-fit-group' },
      h('legend', null, t('fit.inputs.gpus', 'Your GPUs')),
      context.add(selectControl('hardware.gpu', t('time.gpu_type', 'GPU type'), gpuChoices, context.onValue)).element,
      gpuControl(context),
      h(
        'details',
        { className: 'ts-deeper' },
        h('summary', null, t('fit.inputs.custom_gpu', 'Your own GPU’s memory')),
        h('div', { className: 'ts-deeper-body' }, memory),
      ),
    ),
    h(
      'fieldset',
      { className: 'ts-fit-group ts-fit-goal-group' },
      h('legend', null, t('fit.inputs.goal', 'Your goal')),
      model,
      context.add(
        radioControl(
          'training.method',
          t('fit.inputs.method', 'How to train it'),
          context.choices('training.method').map((choice) => ({ value: String(choice.value), label: choice.label, hint: choice.hint })),
          context.onValue,
        ),
      ).element,
      // The methods' names are the radio's labels, which a tap must choose: their words have a line of their own.
      termsFor(t, context.language).key(t('fit.inputs.method_terms', 'The words:'), ['lora', 'qlora', 'nf4']),
      settings,
    ),
    runInputs(context),
  );
}

/** The engine's refusal, field by field (the last good answer stays on screen, greyed). */
function showProblem(context: SectionContext, problem: HTMLElement, ...lists: FieldError[][]): void {
  const errors = lists.flat();
  setHidden(problem, errors.length === 0);
  setText(
    problem,
    context.t('fit.problem', 'The engine could not search this scenario: {problems}', {
      problems: errors.map((error) => `${error.field}: ${error.message}`).join('; '),
    }),
  );
}

/** The current layout's verdict, and the largest micro-batch and sequence that fit it. */
function currentFigures(context: SectionContext) {
  const { t } = context;
  const verdict = h('p', { className: 'ts-fit-verdict', 'data-figure': 'fit-current', role: 'status' });
  const microBatch = h('strong', { 'data-figure': 'fit-largest-micro-batch' });
  const sequence = h('strong', { 'data-figure': 'fit-largest-sequence' });
  const element = h(
    'div',
    { className: 'ts-fit-current-figures' },
    verdict,
    h(
      'ul',
      { className: 'ts-fit-facts' },
      h('li', null, t('fit.largest_micro_batch', 'Largest micro-batch that fits this layout: '), microBatch),
      h('li', null, t('fit.largest_sequence', 'Longest sequence that fits this layout: '), sequence),
    ),
  );
  const update = (answer: FitAnswer, view: PageView) => {
    const { formatBytes, formatInteger, formatCount } = context.units;
    const p = view.scenario.parallel;
    const values = {
      layout: layoutName(context, { ...p, data: view.estimate.training.data_parallel }),
      peak: formatBytes(answer.current.peak_bytes),
      memory: formatBytes(answer.current.memory_bytes),
    };
    setFigure(
      verdict,
      answer.current.fits
        ? t('fit.current.fits', 'Your layout ({layout}) fits: {peak} per GPU of {memory}.', values)
        : t('fit.current.no_fit', 'Your layout ({layout}) does not fit: {peak} per GPU of {memory}.', values),
      answer.current.fits,
    );
    setClass(verdict, 'ts-fit-no', !answer.current.fits);
    setClass(verdict, 'ts-fit-yes', answer.current.fits);
    const largest = answer.largest_micro_batch.value;
    setFigure(microBatch, largest > 0 ? formatInteger(largest) : t('fit.none_fits', 'none (not even 1)'), largest);
    const longest = answer.largest_sequence.value;
    setFigure(
      sequence,
      longest > 0 ? t('fit.tokens', '{count} tokens', { count: formatCount(longest) }) : t('fit.none_fits', 'none (not even 1)'),
      longest,
    );
  };
  return { element, update };
}

/** Which framework's memory the answers assume: the engine's name for it (docs/model.md §4). */
function frameworkLine(context: SectionContext): { element: HTMLElement; update(view: PageView): void } {
  const { t } = context;
  const frameworkName = h('strong', { 'data-figure': 'fit-framework' });
  const element = h(
    'p',
    { className: 'ts-hint' },
    withElements(
      t('fit.framework', 'Memory as {framework} keeps it, with the CUDA context counted; change it in “Precision, optimizer and serving”.'),
      { framework: frameworkName },
    ),
  );
  const update = (view: PageView) => {
    const framework = view.scenario.training.framework ?? 'megatron';
    setText(frameworkName, context.choices('training.framework').find((choice) => choice.value === framework)?.label ?? framework);
  };
  return { element, update };
}

export function fitSection(context: SectionContext, engine: FitEngine): SectionView {
  const { t } = context;
  const current = currentFigures(context);
  const layouts = layoutsList(context, context.load);
  const changes = changesList(context, context.load);
  const methods = methodsFigure(context, context.load);
  const settings = methodSettings(context);
  const model = fitModelChoice(context, engine);
  const problem = h('p', { className: 'ts-field-error', role: 'alert' });
  const notes = h('ul', { className: 'ts-hint ts-fit-notes' });
  const assumes = frameworkLine(context);
  const terms = termsFor(t, context.language);
  // The layouts' letters (TP 8 × PP 16 …) are rewritten on every answer: they are explained once, above them.
  const letters = terms.key(t('fit.layouts.terms', 'The letters:'), [
    'tensor_parallel',
    'pipeline_parallel',
    'context_parallel',
    'expert_parallel',
    'data_parallel',
    'zero',
  ]);
  const results = h(
    'div',
    { className: 'ts-fit-results' },
    assumes.element,
    validationLine(context, engine.validationSummary),
    letters,
    changes.element,
    layouts.element,
    notes,
    methods.element,
  );
  const element = sectionElement(
    context,
    'fit',
    t('fit.heading', 'What fits on my GPUs'),
    'ts-section ts-fit',
    prose(
      t(
        'fit.prose',
        'Say which GPUs you have and what you want to train. The engine tries every way to split the work over them, keeps those that fit in memory, and ranks them by how long the run takes. When nothing fits, it lists the cheapest single changes that would.',
      ),
    ),
    // The answer right under the inputs that change it, held at the foot of the screen while they are (issue 33).
    h('div', { className: 'ts-fit-ask' }, fitInputs(context, engine, settings.element, model.element), current.element),
    problem,
    results,
  );
  setHidden(problem, true);
  terms.markIn(element, ['micro_batch', 'offload']);
  const search = (view: PageView) => {
    const fit = engine.fit(view.scenario);
    const sideBySide = engine.fineTuningMethods(view.scenario);
    showProblem(context, problem, fit.ok ? [] : fit.errors, sideBySide.ok ? [] : sideBySide.errors);
    setClass(results, 'ts-stale', !fit.ok);
    setClass(current.element, 'ts-stale', !fit.ok);
    if (fit.ok) {
      current.update(fit.value, view);
      changes.update(fit.value);
      layouts.update(fit.value);
      replace(
        notes,
        fit.value.notes.map((note) => h('li', null, note)),
      );
    }
    if (sideBySide.ok) methods.update(sideBySide.value);
  };
  // Only for a scenario not shown yet, once the input rests, and only near the viewport (schedule.ts).
  const schedule = searchWhenNear(element, search, SEARCH_REST_MS);
  const update = (view: PageView) => {
    model.update(view);
    settings.update(view);
    assumes.update(view);
    schedule.update(view);
  };
  return { element, update, settle: schedule.settle };
}
