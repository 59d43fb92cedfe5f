// Section 5: time: the 6 · N · D equation, then one GPU against the cluster on a log axis.

import { checkboxControl, selectControl } from '../controls/controls';
import { type Child, h, setFigure, setHidden, setText, uniqueId } from '../dom/dom';
import { termsFor } from '../figures/term';
import { timeAxis } from '../figures/time-axis';
import { timeCurve } from '../figures/time-curve';
import { why } from '../figures/why';
import type { Engine } from '../engine/engine';
import type { Estimate, Scenario } from '../engine/types';
import { withElements, type Translate } from '../i18n/i18n';
import { type SectionContext, type SectionView } from './context';
import { gpuControl } from './gpus';
import { prose, sectionElement } from './shell';

export const CUSTOM_GPU = 'custom';

/** "a", "a and b", "a, b and c". */
function listInWords(t: Translate, items: readonly string[]): string {
  return items.length <= 1
    ? (items[0] ?? '')
    : t('time.list', '{first} and {last}', {
        first: items.slice(0, -1).join(t('time.list_separator', ', ')),
        last: items[items.length - 1],
      });
}

/** The model on screen by name: its preset's, the name it was given, or its size. */
function modelName(context: SectionContext, engine: Engine, estimate: Estimate, resolved: Scenario): string {
  const preset = engine.presets.find((entry) => entry.id === resolved.model.preset);
  return (
    preset?.name ??
    resolved.model.name ??
    context.t('time.curve.model_params', 'the {count}-parameter model', {
      count: context.units.formatCount(estimate.params, { short: true }),
    })
  );
}

/** The curve's words: the learner's GPUs, the lesson's cluster as a mark for the model on screen, the figure's label and caption. */
function curveWords(context: SectionContext, engine: Engine, estimate: Estimate, resolved: Scenario) {
  const { t } = context;
  const { formatDuration } = context.units;
  const compute = estimate.compute;
  const gpus = resolved.parallel.gpus;
  const onGpus = context.units.formatGpus(gpus);
  const lessonGpus = compute.lesson_cluster_gpus;
  const onLesson = compute.time_over_gpus.find((point) => point.gpus === lessonGpus) ?? null;
  const lessonName = context.units.formatGpus(lessonGpus);
  const model = modelName(context, engine, estimate, resolved);
  // The lesson's cluster is a size here: the time beside it is the model on screen's, and the label says so.
  const lessonMark = t('time.curve.lesson_mark', '{model} on {gpus}', { model, gpus: lessonName });
  const lessonSentence =
    onLesson && gpus !== lessonGpus
      ? t('time.curve.lesson_model', ', {time} for {model} on {gpus}, the size of Llama 3 405B’s cluster', {
          time: formatDuration(onLesson.seconds),
          model,
          gpus: lessonName,
        })
      : '';
  const oneSentence = gpus !== 1 ? t('time.curve.one', ', {time} on one GPU', { time: formatDuration(compute.seconds_on_one_gpu) }) : '';
  return {
    onGpus,
    onLesson,
    lessonMark,
    label: t('time.curve.label', 'Training time against GPUs, both on log scales: {time} on your {gpus}{one}{lesson}.', {
      time: formatDuration(compute.seconds),
      gpus: onGpus,
      one: oneSentence,
      lesson: lessonSentence,
    }),
    caption: t(
      'time.curve.caption_lines',
      'Twice the GPUs, half the time, as long as no GPU waits: on log scales that is the solid straight line. The red dashed line adds what the GPUs wait for, and bends where more of them stop paying.',
    ),
    // What each mark is, in the order of curve.update's marks: the caption names those drawn.
    markNames: [
      t('time.curve.mark_you', 'the square is your {gpus}', { gpus: onGpus }),
      t('time.curve.mark_one', 'the filled circle one GPU'),
      t('time.curve.mark_cluster', 'the diamond {model} on {gpus}, the size of the lesson’s cluster (Llama 3 405B’s)', {
        model,
        gpus: lessonName,
      }),
      t('time.curve.mark_stop', 'the red ring where adding GPUs stops paying'),
    ],
  };
}

/** A part of the section: its element and how it shows an estimate. */
interface TimePart {
  readonly element: HTMLElement;
  readonly update: SectionView['update'];
}

/**
 * The engine's sentence for the FLOPs rule (6 per parameter per token, or 4 per frozen and 6 per
 * adapter parameter), its word "floating-point operations" explained where it first appears;
 * rewritten, and marked again, only when the rule's words change.
 */
export function flopsSentence(context: SectionContext) {
  const element = h('span', { 'data-figure': 'flops-sentence' });
  const terms = termsFor(context.t, context.language);
  const update: SectionView['update'] = ({ estimate }) => {
    const sentence = estimate.compute.flops_rule.sentence;
    if (element.dataset.value === sentence) return;
    setText(element, sentence);
    element.dataset.value = sentence;
    terms.markIn(element, ['flops']);
  };
  return { element, update };
}

/** The equation's parameter terms, as the engine counts them: "6 × N parameters", or "4 × N frozen + 6 × A adapter parameters". */
function flopsTerms(context: SectionContext, value: () => HTMLElement, op: (text: string) => HTMLElement) {
  const { t } = context;
  const { formatCount, formatInteger } = context.units;
  const slots = [0, 1].map((index) => {
    const plus = op('+');
    const factor = op('');
    const count = value();
    const unit = h('span', { className: 'ts-eq-unit' });
    const term = h('span', { className: 'ts-eq-term' }, count, unit);
    return { index, elements: [plus, factor, term], plus, factor, count, unit };
  });
  const update = (terms: Estimate['compute']['flops_rule']['terms']) => {
    for (const slot of slots) {
      const term = terms[slot.index];
      slot.elements.forEach((element) => setHidden(element, !term));
      setHidden(slot.plus, !term || slot.index === 0);
      if (!term) continue;
      setText(slot.factor, t('time.eq.factor', '{factor} ×', { factor: formatInteger(term.factor) }));
      setFigure(slot.count, formatCount(term.params), term.params);
      setText(slot.unit, term.unit);
    }
  };
  return { elements: slots.flatMap((slot) => slot.elements), update };
}

/**
 * The engine's FLOPs rule (6 × parameters, or 4 × frozen + 6 × adapters) × tokens ≈ FLOPs, then
 * FLOPs ÷ (GPUs × peak × utilisation) ≈ time, with the run's tokens' origin under it.
 */
export function sixNDEquation(context: SectionContext): TimePart & { readonly tokensOrigin: HTMLElement } {
  const { t } = context;
  const { formatCount, formatDuration, formatFlopsRate, formatInteger, formatPercent, formatScientific } = context.units;
  const term = (value: HTMLElement, unit: HTMLElement | string, extra = '') =>
    h('span', { className: `ts-eq-term${extra}` }, value, typeof unit === 'string' ? h('span', { className: 'ts-eq-unit' }, unit) : unit);
  const value = (attributes: Record<string, string> = {}) => h('span', { className: 'ts-eq-value', ...attributes });
  const op = (text: string) => h('span', { className: 'ts-eq-op' }, text);

  const open = op('(');
  const parameters = flopsTerms(context, value, op);
  const attention = op(t('time.eq.attention_term', '+ attention'));
  const close = op(')');
  const tokens = value();
  // Which tokens the run counts: a pre-training run's, a fine-tuning run's or the learner's (the engine's words).
  const tokensOrigin = h('p', { className: 'ts-hint', 'data-figure': 'tokens-origin' });
  const flops = value({ 'data-figure': 'flops' });
  const hardwareFlops = value();
  const hardwareUnit = h('span', { className: 'ts-eq-unit' });
  const gpuCount = value();
  const gpuUnit = h('span', { className: 'ts-eq-unit' });
  const peak = value();
  const utilisation = value({ 'data-figure': 'equation-utilisation' });
  const seconds = value({ 'data-figure': 'seconds' });
  const element = h(
    'div',
    { className: 'ts-equations' },
    h(
      'p',
      { className: 'ts-equation', 'data-figure': 'flops-equation' },
      open,
      parameters.elements,
      attention,
      close,
      op('×'),
      term(tokens, t('time.eq.tokens', 'tokens')),
      // "≈" and the result wrap as one: an operator never starts or ends a line alone.
      h('span', { className: 'ts-eq-group' }, op('≈'), term(flops, 'FLOPs', ' ts-eq-result')),
    ),
    h(
      'p',
      { className: 'ts-equation' },
      term(hardwareFlops, hardwareUnit),
      op('÷'),
      op('('),
      term(gpuCount, gpuUnit),
      op('×'),
      term(peak, t('time.eq.peak', 'peak')),
      op('×'),
      h('span', { className: 'ts-eq-group' }, term(utilisation, t('time.eq.utilisation', 'utilisation')), op(')')),
      // The time has no unit line beneath it: raised as the operators are, it sits on the values' line.
      h('span', { className: 'ts-eq-group' }, op('≈'), h('span', { className: 'ts-eq-term ts-eq-result ts-eq-unitless' }, seconds)),
    ),
  );
  const update: SectionView['update'] = ({ estimate, scenario: resolved }) => {
    const compute = estimate.compute;
    const rule = compute.flops_rule;
    const gpus = resolved.parallel.gpus;
    // The brackets only where more than one term is multiplied by the tokens.
    const bracketed = rule.terms.length > 1 || rule.attention;
    setHidden(open, !bracketed);
    setHidden(close, !bracketed);
    parameters.update(rule.terms);
    setHidden(attention, !rule.attention);
    setText(tokens, formatCount(resolved.training.tokens));
    setText(tokensOrigin, compute.tokens_origin);
    setFigure(flops, formatScientific(compute.flops), compute.flops);
    setText(hardwareFlops, formatScientific(compute.hardware_flops));
    setText(hardwareUnit, compute.recompute_overhead > 0 ? t('time.eq.flops_recompute', 'FLOPs with recompute') : 'FLOPs');
    setText(gpuCount, formatInteger(gpus));
    setText(gpuUnit, gpus === 1 ? t('time.eq.gpu', 'GPU') : t('time.eq.gpus', 'GPUs'));
    setText(peak, formatFlopsRate(estimate.gpu.peak_flops));
    setFigure(utilisation, formatPercent(resolved.hardware.utilization), resolved.hardware.utilization);
    setFigure(seconds, formatDuration(compute.seconds), compute.seconds);
  };
  return { element, tokensOrigin, update };
}

/**
 * The second time of the same run, named (issue 33): at the utilisation the engine predicts for
 * this layout, as "What fits" ranks and shows it, beside the times above at the utilisation set.
 */
function predictedFact(context: SectionContext) {
  const { t } = context;
  const { formatCount, formatDuration, formatPercent } = context.units;
  const percent = h('span', { 'data-figure': 'predicted-mfu' });
  const seconds = h('strong', { 'data-figure': 'predicted-seconds' });
  const label = t('time.fact.predicted_time', 'At the {percent} utilisation predicted for this layout (What fits’ time)');
  const item = h('li', null, h('span', null, withElements(label, { percent })), seconds);
  const update = (estimate: Estimate) => {
    const communication = estimate.communication;
    setHidden(item, communication === undefined);
    if (communication === undefined) return;
    setFigure(percent, formatPercent(communication.predicted_mfu), communication.predicted_mfu);
    const figures = t('time.fact.predicted_figures', '{time} · {hours} GPU-hours', {
      time: formatDuration(communication.run_seconds),
      hours: formatCount(communication.gpu_hours),
    });
    setFigure(seconds, figures, communication.run_seconds);
  };
  return { item, update };
}

/** A fact card: its label, and a figure the update fills. */
function fact(label: Child, figure?: string) {
  const strong = h('strong', figure ? { 'data-figure': figure } : null);
  const item = h('li', null, h('span', null, label), strong);
  return { item, strong };
}

/**
 * The utilisation the learner set and the one the engine predicts for the layout, with its time:
 * cards of the time figure, or of the deeper time section when the lesson's part holds the figure
 * (its equation already shows the utilisation set, and the prediction needs the layouts' words).
 */
function utilisationFacts(context: SectionContext): { items: HTMLElement[]; update: (estimate: Estimate) => void } {
  const mfu = fact(context.t('time.fact.mfu', 'Model FLOPs utilisation'), 'mfu');
  const predicted = predictedFact(context);
  const update = (estimate: Estimate) => {
    const shown = context.units.formatPercent(estimate.compute.mfu);
    setFigure(mfu.strong, shown, estimate.compute.mfu);
    // Without recomputation the model FLOPs utilisation is the utilisation set, on the slider beside
    // it: a second copy of one figure. With it, recomputed FLOPs do not count and it is lower.
    const set = estimate.scenario?.hardware.utilization;
    setHidden(mfu.item, set !== undefined && context.units.formatPercent(set) === shown);
    predicted.update(estimate);
  };
  return { items: [mfu.item, predicted.item], update };
}

/** The deeper time section's utilisation cards, when the lesson's time part holds the time figure. */
function utilisationFactsPart(context: SectionContext): TimePart {
  const facts = utilisationFacts(context);
  const element = h('ul', { className: 'ts-facts' }, facts.items);
  return { element, update: ({ estimate }) => facts.update(estimate) };
}

/**
 * One GPU against the learner's GPUs on a log time axis, with the run's GPU-hours, energy and cost,
 * and (`withUtilisation`) the utilisation set and predicted.
 */
export function timeFigure(context: SectionContext, withUtilisation = true): TimePart {
  const { t } = context;
  const { formatCount, formatDuration, formatEnergy, formatMoney } = context.units;
  const axis = timeAxis(context.units);
  // The two times are the axis's own labels: the cards below add only what the axis does not show.
  // The label names its utilisation (the equation's): the lesson's part shows no slider to set it.
  const gpuHoursPercent = h('span', { 'data-figure': 'gpu-hours-utilisation' });
  const gpuHours = fact(
    withElements(t('time.fact.gpu_hours_at', 'GPU-hours at {percent} utilisation'), { percent: gpuHoursPercent }),
    'gpu-hours',
  );
  const utilisation = withUtilisation ? utilisationFacts(context) : null;
  const energy = fact(t('time.fact.energy', 'GPU energy'));
  const cost = fact(t('time.fact.cost', 'Cost'), 'cost');
  const caption = h('figcaption');
  const element = h(
    'figure',
    { className: 'ts-figure' },
    h(
      'div',
      { className: 'ts-figure-body' },
      axis.element,
      h('ul', { className: 'ts-facts' }, gpuHours.item, utilisation?.items ?? null, energy.item, cost.item),
    ),
    caption,
  );
  const update: SectionView['update'] = ({ estimate, scenario: resolved }) => {
    const compute = estimate.compute;
    const gpus = resolved.parallel.gpus;
    const onGpus = context.units.formatGpus(gpus);
    const onOne = {
      seconds: compute.seconds_on_one_gpu,
      label: t('time.on_one', 'on one {gpu}', { gpu: estimate.gpu.short_name }),
      figure: 'seconds-on-one-gpu',
    };
    // On one GPU the cluster is that GPU: one point, one figure.
    const gridLabels =
      gpus === 1
        ? axis.update(
            [onOne],
            t('time.axis_label_one', 'Time on a log scale: {one} on one GPU.', { one: formatDuration(compute.seconds_on_one_gpu) }),
          )
        : axis.update(
            [onOne, { seconds: compute.seconds, label: t('time.on_gpus', 'on {gpus}', { gpus: onGpus }), figure: 'seconds-on-cluster' }],
            t('time.axis_label', 'Time on a log scale: {one} on one GPU, {cluster} on {gpus}.', {
              one: formatDuration(compute.seconds_on_one_gpu),
              cluster: formatDuration(compute.seconds),
              gpus: onGpus,
            }),
          );
    setText(
      caption,
      gridLabels.length > 0
        ? t('time.caption_marks', 'Time on a logarithmic scale, where equal distances are equal factors; the dotted lines mark {marks}.', {
            marks: listInWords(t, gridLabels),
          })
        : t('time.caption', 'Time on a logarithmic scale, where equal distances are equal factors.'),
    );
    setFigure(gpuHours.strong, formatCount(compute.gpu_hours), compute.gpu_hours);
    setFigure(gpuHoursPercent, context.units.formatPercent(resolved.hardware.utilization), resolved.hardware.utilization);
    utilisation?.update(estimate);
    setHidden(energy.item, !(compute.energy_joules > 0));
    setText(energy.strong, formatEnergy(compute.energy_joules));
    setHidden(cost.item, !(compute.cost > 0));
    setFigure(cost.strong, formatMoney(compute.cost), compute.cost);
  };
  return { element, update };
}

/** Time against GPUs on log scales: the ideal line, the one with what the GPUs wait for, and the marks. */
function timeCurveFigure(context: SectionContext, engine: Engine): TimePart {
  const { t } = context;
  const { formatInteger, formatPercent } = context.units;
  const curve = timeCurve(t, context.units);
  const curveCaption = h('figcaption');
  const curveSummary = h('p', { className: 'ts-curve-summary', 'data-figure': 'communication-summary' });
  const idealKey = h('li', { className: 'ts-curve-key-ideal' });
  const secondKey = h('li', { className: 'ts-curve-key-second' });
  const curveKey = h('ul', { className: 'ts-curve-key' }, idealKey, secondKey);
  const element = h('figure', { className: 'ts-figure ts-curve-figure' }, curve.element, curveKey, curveSummary, curveCaption);
  const update: SectionView['update'] = ({ estimate, scenario: resolved }) => {
    const { compute, communication } = estimate;
    const gpus = resolved.parallel.gpus;
    const words = curveWords(context, engine, estimate, resolved);
    const second = compute.time_over_gpus_communication ?? [];
    const stop = second.find((point) => communication && point.gpus === communication.stops_paying_gpus);
    const drawn = curve.update(
      compute.time_over_gpus,
      compute.time_references,
      [
        { gpus, seconds: compute.seconds, name: t('time.curve.yours', 'your {gpus}', { gpus: words.onGpus }) },
        { gpus: 1, seconds: compute.seconds_on_one_gpu, name: t('time.curve.one_gpu', 'one GPU') },
        words.onLesson ? { ...words.onLesson, name: words.lessonMark } : null,
        stop ? { ...stop, name: t('time.curve.stop', 'stops paying: {gpus}', { gpus: formatInteger(stop.gpus) }) } : null,
      ],
      words.label,
      second,
    );
    setText(
      idealKey,
      t('time.curve.key_ideal', 'Solid: at the {mfu} utilisation used, as if no GPU ever waited', { mfu: formatPercent(compute.mfu) }),
    );
    setText(
      secondKey,
      t('time.curve.key_second', 'Red dashes: at the utilisation the engine predicts with communication and the pipeline bubble'),
    );
    setHidden(secondKey, second.length === 0);
    setHidden(curveSummary, !communication);
    setText(curveSummary, communication?.summary ?? '');
    const marksDrawn = words.markNames.filter((_, index) => drawn.marks[index]);
    setText(
      curveCaption,
      words.caption +
        (marksDrawn.length > 0 ? t('time.curve.caption_marks_drawn', ' The marks: {marks}.', { marks: listInWords(t, marksDrawn) }) : '') +
        (drawn.references.length > 0
          ? t('time.curve.caption_references', ' The dashed lines mark {references}.', { references: listInWords(t, drawn.references) })
          : ''),
    );
  };
  return { element, update };
}

/** The GPU type, with the chosen GPU's memory and peak on a line of their own under the select. */
function gpuTypeControl(context: SectionContext, engine: Engine): TimePart {
  const { t } = context;
  const { formatBytes, formatFlopsRate } = context.units;
  // A closed select shows one line that cannot wrap: the options carry names only, and the chosen
  // GPU's memory and peak are a line of their own under it (a phone's column is ~290 px).
  const gpuChoices = [
    ...engine.gpus.map((gpu) => ({ value: gpu.id, label: gpu.name })),
    { value: CUSTOM_GPU, label: t('time.custom_gpu', 'Your own GPU: set it below') },
  ];
  const gpuSelect = context.add(selectControl('hardware.gpu', t('time.gpu_type', 'GPU type'), gpuChoices, context.onValue));
  const gpuSpecs = h('p', { className: 'ts-hint', id: uniqueId('hint'), 'data-figure': 'gpu-specs' });
  gpuSelect.select.after(gpuSpecs);
  gpuSelect.select.setAttribute('aria-describedby', `${gpuSpecs.id} ${gpuSelect.select.getAttribute('aria-describedby') ?? ''}`.trim());
  const update: SectionView['update'] = ({ estimate }) => {
    setText(
      gpuSpecs,
      t('time.gpu_specs', '{memory} of memory, {peak} peak', {
        memory: formatBytes(estimate.gpu.memory_bytes),
        peak: formatFlopsRate(estimate.gpu.peak_flops),
      }),
    );
  };
  return { element: gpuSelect.element, update };
}

/** Your own GPU's memory and peak, attention FLOPs and a price, folded away. */
function deeperControls(context: SectionContext): HTMLElement {
  const { t } = context;
  const { formatBytes, formatFlopsRate, formatNumber, readField } = context.units;
  return h(
    'details',
    { className: 'ts-deeper' },
    h('summary', null, t('time.deeper.summary', 'Go deeper: your own GPU, attention FLOPs, price')),
    h(
      'div',
      { className: 'ts-deeper-body' },
      context.range({
        path: 'hardware.memory_bytes',
        label: t('time.deeper.memory', 'GPU memory'),
        formatField: (v) => formatBytes(v),
        describe: (v) => t('time.deeper.memory_value', '{memory} of memory per GPU', { memory: formatBytes(v) }),
        fieldLabel: t('time.deeper.memory_field', 'GPU memory, exact (e.g. 96 GB)'),
      }).element,
      context.range({
        path: 'hardware.peak_flops',
        label: t('time.deeper.peak', 'GPU peak (dense 16-bit)'),
        formatField: (v) => formatFlopsRate(v),
        describe: (v) => t('time.deeper.peak_value', '{peak} peak per GPU', { peak: formatFlopsRate(v) }),
        fieldLabel: t('time.deeper.peak_field', 'GPU peak, exact (e.g. 1,200 TFLOP/s)'),
      }).element,
      context.add(
        checkboxControl(
          'training.attention_flops',
          t('time.deeper.attention', 'Count attention FLOPs'),
          context.onValue,
          t('time.deeper.attention_hint', 'PaLM’s 12 · layers · hidden · sequence per token, on top of 6N'),
        ),
      ).element,
      context.range({
        path: 'hardware.price_per_gpu_hour',
        label: t('time.deeper.price', 'Price per GPU-hour (US$)'),
        parse: (text) => readField('hardware.price_per_gpu_hour', text.replace(/^\s*(US)?\$/, '')),
        formatField: (v) => formatNumber(v, 3),
        describe: (v) => t('time.deeper.price_value', '{price} dollars per GPU-hour', { price: formatNumber(v, 3) }),
      }).element,
    ),
  );
}

/** The tokens, the GPUs, their type and their utilisation, then the deeper settings. */
function timeControls(context: SectionContext, gpuType: TimePart): HTMLElement {
  const { t } = context;
  const { formatCount, formatPercent } = context.units;
  return h(
    'div',
    { className: 'ts-panel-controls' },
    context.range({
      path: 'training.tokens',
      label: t('time.tokens', 'Training tokens'),
      formatField: (v) => formatCount(v, { short: true, significant: 4 }),
      describe: (v) => context.units.formatTokens(v),
      fieldLabel: t('time.tokens_field', 'Training tokens, exact number (e.g. 15.6T)'),
    }).element,
    gpuControl(context),
    gpuType.element,
    context.range({
      path: 'hardware.utilization',
      label: t('time.utilisation', 'Utilisation (share of peak sustained)'),
      formatField: (v) => formatPercent(v, 3),
      describe: (v) => t('time.utilisation_value', '{percent} of peak', { percent: formatPercent(v, 3) }),
      fieldLabel: t('time.utilisation_field', 'Utilisation, exact (e.g. 40% or 0.4)'),
    }).element,
    deeperControls(context),
  );
}

/** Why the FLOPs rule, with its sources; its question, answer and formula are the engine's (6 × parameters, or 4 frozen + 6 adapters). */
function timeWhy(t: Translate): { element: HTMLElement; update: SectionView['update'] } {
  const explanation = h('span');
  const element = why(
    t,
    '',
    [explanation],
    ' ',
    t(
      'time.why.sources',
      'Kaplan et al. 2020, “Scaling Laws for Neural Language Models”; Chowdhery et al. 2022, “PaLM”, App. B; Hu et al. 2021, “LoRA”, §4.2; Llama 3 Herd of Models (Meta, 2024).',
    ),
  );
  const summary = element.querySelector('summary');
  const formula = element.querySelector('.ts-formula');
  const update: SectionView['update'] = ({ estimate }) => {
    const rule = estimate.compute.flops_rule;
    if (summary) setText(summary, rule.why);
    setText(explanation, rule.explanation);
    if (formula) setText(formula, rule.formula);
  };
  return { element, update };
}

/** `lessonShown`: the lesson path's time part shows the equation and the two times, so this deeper part leaves them out. */
export function timeSection(context: SectionContext, engine: Engine, lessonShown = false): SectionView {
  const { t } = context;
  const equation = sixNDEquation(context);
  const gpuType = gpuTypeControl(context, engine);
  // The time figure sits beside the controls and the curve below it: parts of their own
  // (SectionView.parts), so that an input elsewhere with this section's foot or head on screen
  // does not redraw a figure off screen (each catches up when the input rests or it comes near).
  const figure = lessonShown ? utilisationFactsPart(context) : timeFigure(context);
  const curve = timeCurveFigure(context, engine);
  const sentence = flopsSentence(context);
  const whyPart = timeWhy(t);
  const element = sectionElement(
    context,
    'time',
    t('time.heading', 'Time: staggering amounts of simple arithmetic'),
    'ts-section',
    lessonShown
      ? prose(
          t(
            'time.prose_deeper',
            'How the time falls as GPUs are added, what they sustain of their peak, and your own GPU. The GPUs also wait for each other: the curve shows when adding more stops paying.',
          ),
        )
      : prose(
          sentence.element,
          t(
            'time.prose_2',
            'Multiply by trillions of tokens and the count has 25 digits. Divide by what GPUs really sustain — well under half their peak — and it becomes clear why labs buy GPUs by the ten thousand.',
          ),
        ),
    lessonShown ? null : equation.element,
    lessonShown ? null : equation.tokensOrigin,
    h('div', { className: 'ts-panel' }, timeControls(context, gpuType), figure.element),
    curve.element,
    whyPart.element,
  );
  // Words at first sight (figures/term.ts): the prose's FLOPs, the equation's utilisation, the facts' GPU-hours and MFU.
  termsFor(t, context.language).markIn(element, ['flops', 'utilisation', 'gpu_hours', 'mfu', 'pipeline_bubble']);
  return {
    element,
    update: (view) => {
      if (!lessonShown) {
        equation.update(view);
        sentence.update(view);
      }
      gpuType.update(view);
      whyPart.update(view);
    },
    parts: [
      { element: figure.element, update: figure.update },
      { element: curve.element, update: curve.update, needs: { communicationCurve: true } },
    ],
  };
}
