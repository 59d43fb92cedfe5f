// Section 4: time: the 6 · N · D equation, then one GPU against the cluster on a log axis.

import { checkboxControl, rangeControl, selectControl } from '../controls';
import { h, setText, uniqueId } from '../dom';
import { setFigure, setHidden, timeAxis, timeCurve, why } from '../figures';
import type { Engine } from '../engine';
import { formatBytes, formatCount, formatDuration, formatEnergy, formatFlopsRate, formatInteger, formatMoney, formatNumber, formatPercent, formatScientific, readField, sliderScale } from '../units';
import { plural, shortGpu, type SectionContext, type SectionView } from './context';
import { gpuControl } from './gpus';

export const CUSTOM_GPU = 'custom';

/** "a", "a and b", "a, b and c". */
function listInWords(items: readonly string[]): string {
  return items.length <= 1 ? (items[0] ?? '') : `${items.slice(0, -1).join(', ')} and ${items[items.length - 1]}`;
}

export function timeSection(context: SectionContext, engine: Engine): SectionView {
  const headingId = uniqueId('heading');
  const term = (value: HTMLElement, unit: HTMLElement | string, extra = '') =>
    h('span', { className: `ts-eq-term${extra}` }, value, typeof unit === 'string' ? h('span', { className: 'ts-eq-unit' }, unit) : unit);
  const value = (attributes: Record<string, string> = {}) => h('span', { className: 'ts-eq-value', ...attributes });
  const op = (text: string) => h('span', { className: 'ts-eq-op' }, text);

  const openSix = op('6 ×');
  const params = value();
  const paramsUnit = h('span', { className: 'ts-eq-unit' });
  const attention = op('+ attention)');
  const tokens = value();
  const flops = value({ 'data-figure': 'flops' });
  const hardwareFlops = value();
  const hardwareUnit = h('span', { className: 'ts-eq-unit' });
  const gpuCount = value();
  const gpuUnit = h('span', { className: 'ts-eq-unit' });
  const peak = value();
  const utilisation = value();
  const seconds = value({ 'data-figure': 'seconds' });
  const equation = h('div', { className: 'ts-equations' },
    h('p', { className: 'ts-equation' }, openSix, term(params, paramsUnit), attention, op('×'), term(tokens, 'tokens'), op('≈'), term(flops, 'FLOPs', ' ts-eq-result')),
    h('p', { className: 'ts-equation' }, term(hardwareFlops, hardwareUnit), op('÷'), op('('), term(gpuCount, gpuUnit), op('×'), term(peak, 'peak'),
      op('×'), term(utilisation, 'utilisation'), op(')'), op('≈'), h('span', { className: 'ts-eq-term ts-eq-result' }, seconds)));

  const axis = timeAxis();
  const fact = (label: string, figure?: string) => {
    const strong = h('strong', figure ? { 'data-figure': figure } : null);
    const item = h('li', null, h('span', null, label), strong);
    return { item, strong };
  };
  // The two times are the axis's own labels: the cards below add only what the axis does not show.
  const gpuHours = fact('GPU-hours', 'gpu-hours');
  const mfu = fact('Model FLOPs utilisation', 'mfu');
  const energy = fact('GPU energy');
  const cost = fact('Cost', 'cost');
  const figure = h('div', { className: 'ts-figure-body' }, axis.element,
    h('ul', { className: 'ts-facts' }, gpuHours.item, mfu.item, energy.item, cost.item));
  const caption = h('figcaption');
  const curve = timeCurve();
  const curveCaption = h('figcaption');

  const update: SectionView['update'] = (estimate) => {
    const resolved = context.resolved();
    const compute = estimate.compute;
    const gpus = resolved.parallel.gpus;
    const withAttention = resolved.training.attention_flops;
    const onGpus = `${formatInteger(gpus)} ${plural(gpus, 'GPU')}`;
    setText(openSix, withAttention ? '(6 ×' : '6 ×');
    setText(params, formatCount(estimate.active_params));
    setText(paramsUnit, estimate.active_params !== estimate.params ? 'active parameters' : 'parameters');
    setHidden(attention, !withAttention);
    setText(tokens, formatCount(resolved.training.tokens));
    setFigure(flops, formatScientific(compute.flops), compute.flops);
    setText(hardwareFlops, formatScientific(compute.hardware_flops));
    setText(hardwareUnit, compute.recompute_overhead > 0 ? 'FLOPs with recompute' : 'FLOPs');
    setText(gpuCount, formatInteger(gpus));
    setText(gpuUnit, plural(gpus, 'GPU'));
    setText(peak, formatFlopsRate(estimate.gpu.peak_flops));
    setText(utilisation, formatPercent(resolved.hardware.utilization));
    setText(gpuSpecs, `${formatBytes(estimate.gpu.memory_bytes)} of memory, ${formatFlopsRate(estimate.gpu.peak_flops)} peak`);
    setFigure(seconds, formatDuration(compute.seconds), compute.seconds);

    const onOne = { seconds: compute.seconds_on_one_gpu, label: `on one ${shortGpu(estimate.gpu.name)}`, figure: 'seconds-on-one-gpu' };
    // On one GPU the cluster is that GPU: one point, one figure.
    const gridLabels = gpus === 1
      ? axis.update([onOne], `Time on a log scale: ${formatDuration(compute.seconds_on_one_gpu)} on one GPU.`)
      : axis.update([onOne, { seconds: compute.seconds, label: `on ${onGpus}`, figure: 'seconds-on-cluster' }],
        `Time on a log scale: ${formatDuration(compute.seconds_on_one_gpu)} on one GPU, ${formatDuration(compute.seconds)} on ${onGpus}.`);
    setText(caption, gridLabels.length > 0
      ? `Time on a logarithmic scale, where equal distances are equal factors; the dotted lines mark ${listInWords(gridLabels)}.`
      : 'Time on a logarithmic scale, where equal distances are equal factors.');
    const lessonGpus = compute.lesson_cluster_gpus;
    const onLesson = compute.time_over_gpus.find((point) => point.gpus === lessonGpus);
    const lessonName = `${formatInteger(lessonGpus)} GPUs`;
    const lessonSentence = onLesson && gpus !== lessonGpus ? `, ${formatDuration(onLesson.seconds)} on ${lessonName} (Llama 3 405B's cluster)` : '';
    const oneSentence = gpus !== 1 ? `, ${formatDuration(compute.seconds_on_one_gpu)} on one GPU` : '';
    const referencesDrawn = curve.update(compute.time_over_gpus, compute.time_references, [
      { gpus, seconds: compute.seconds, name: `your ${onGpus}` },
      { gpus: 1, seconds: compute.seconds_on_one_gpu, name: 'one GPU' },
      onLesson ? { ...onLesson, name: lessonName } : null,
    ], `Training time against GPUs, both on log scales: ${formatDuration(compute.seconds)} on your ${onGpus}${oneSentence}${lessonSentence}.`);
    setText(curveCaption, `Twice the GPUs, half the time: on log scales, time against GPUs is a straight line (communication costs aside). The square is the lesson's ${lessonName}, Llama 3 405B's cluster.${
      referencesDrawn.length > 0 ? ` The dashed lines mark ${listInWords(referencesDrawn)}.` : ''}`);
    setFigure(gpuHours.strong, formatCount(compute.gpu_hours), compute.gpu_hours);
    setFigure(mfu.strong, formatPercent(compute.mfu), compute.mfu);
    setHidden(energy.item, !(compute.energy_joules > 0));
    setText(energy.strong, formatEnergy(compute.energy_joules));
    setHidden(cost.item, !(compute.cost > 0));
    setFigure(cost.strong, formatMoney(compute.cost), compute.cost);
  };

  // A closed select shows one line that cannot wrap: the options carry names only, and the chosen
  // GPU's memory and peak are a line of their own under it (a phone's column is ~290 px).
  const gpuChoices = [
    ...engine.gpus.map((gpu) => ({ value: gpu.id, label: gpu.name })),
    { value: CUSTOM_GPU, label: 'Your own GPU: set it below' },
  ];
  const gpuSelect = context.add(selectControl('hardware.gpu', 'GPU type', gpuChoices, context.onValue));
  const gpuSpecs = h('p', { className: 'ts-hint', id: uniqueId('hint'), 'data-figure': 'gpu-specs' });
  gpuSelect.select.after(gpuSpecs);
  gpuSelect.select.setAttribute('aria-describedby', `${gpuSpecs.id} ${gpuSelect.select.getAttribute('aria-describedby') ?? ''}`.trim());
  const element = h('section', { className: 'ts-section', 'aria-labelledby': headingId },
    h(context.headingTag(1), { className: 'ts-section-title', id: headingId }, context.numbered('time', 'Time: staggering amounts of simple arithmetic')),
    h('div', { className: 'ts-prose' },
      h('p', null, 'Training costs about 6 floating-point operations per parameter per token: 2 for the forward pass, 4 for the backward. ',
        'Multiply by trillions of tokens and the count has 25 digits. Divide by what GPUs really sustain — well under half their peak — and it becomes clear why labs buy GPUs by the ten thousand.')),
    equation,
    h('div', { className: 'ts-panel' },
      h('div', { className: 'ts-panel-controls' },
        context.add(rangeControl({
          path: 'training.tokens', label: 'Training tokens', scale: sliderScale('training.tokens'),
          formatField: (v) => formatCount(v, { short: true, significant: 4 }), describe: (v) => `${formatCount(v)} tokens`,
          fieldLabel: 'Training tokens, exact number (e.g. 15.6T)',
        }, context.onValue)).element,
        gpuControl(context),
        gpuSelect.element,
        context.add(rangeControl({
          path: 'hardware.utilization', label: 'Utilisation (share of peak sustained)', scale: sliderScale('hardware.utilization'),
          formatField: (v) => formatPercent(v, 3), describe: (v) => `${formatPercent(v, 3)} of peak`,
          fieldLabel: 'Utilisation, exact (e.g. 40% or 0.4)',
        }, context.onValue)).element,
        h('details', { className: 'ts-deeper' },
          h('summary', null, 'Go deeper: your own GPU, attention FLOPs, price'),
          h('div', { className: 'ts-deeper-body' },
            context.add(rangeControl({
              path: 'hardware.memory_bytes', label: 'GPU memory', scale: sliderScale('hardware.memory_bytes'),
              formatField: (v) => formatBytes(v), describe: (v) => `${formatBytes(v)} of memory per GPU`,
              fieldLabel: 'GPU memory, exact (e.g. 96 GB)',
            }, context.onValue)).element,
            context.add(rangeControl({
              path: 'hardware.peak_flops', label: 'GPU peak (dense 16-bit)', scale: sliderScale('hardware.peak_flops'),
              formatField: (v) => formatFlopsRate(v), describe: (v) => `${formatFlopsRate(v)} peak per GPU`,
              fieldLabel: 'GPU peak, exact (e.g. 1,200 TFLOP/s)',
            }, context.onValue)).element,
            context.add(checkboxControl('training.attention_flops', 'Count attention FLOPs', context.onValue, 'PaLM’s 12 · layers · hidden · sequence per token, on top of 6N')).element,
            context.add(rangeControl({
              path: 'hardware.price_per_gpu_hour', label: 'Price per GPU-hour (US$)', scale: sliderScale('hardware.price_per_gpu_hour'),
              parse: (text) => readField('hardware.price_per_gpu_hour', text.replace(/^\s*(US)?\$/, '')),
              formatField: (v) => formatNumber(v, 3), describe: (v) => `${formatNumber(v, 3)} dollars per GPU-hour`,
            }, context.onValue)).element))),
      h('figure', { className: 'ts-figure' }, figure, caption)),
    h('figure', { className: 'ts-figure ts-curve-figure' }, curve.element, curveCaption),
    why('Why 6 × parameters × tokens?', [
      'Each parameter takes part in one multiply and one add per token on the forward pass (2 FLOPs). The backward pass computes two things per weight — the gradient for the layer below and the gradient for the weight itself — so it costs twice as much (4 FLOPs). Time is then that count divided by how fast the GPUs really go: their peak times the share of it they sustain (MFU).',
    ], 'training FLOPs ≈ 6 · N · D; time = FLOPs ÷ (GPUs × peak FLOP/s × utilisation); GPU-hours = GPUs × time',
    'Kaplan et al. 2020, “Scaling Laws for Neural Language Models”; Chowdhery et al. 2022, “PaLM”, App. B; Llama 3 Herd of Models (Meta, 2024).'));
  return { element, update };
}
