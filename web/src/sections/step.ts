// The step section: one training step on one GPU, played, paused and scrubbed. The engine's
// stepTimeline gives the events and what is held after each (docs/scenario.md, "Step timeline");
// this section draws them (step-chart.ts), names the phase under the playhead in words and keeps
// the playhead in the address. Built once, updated in place: a slider step rewrites one path per
// component and a few texts; the phase table reuses its rows.

import { radioControl, selectControl } from '../controls/controls';
import { h, setAttribute, setClass, setFigure, setHidden, setText, uniqueId } from '../dom/dom';
import { legend } from '../figures/legend';
import { why } from '../figures/why';
import { type Part } from '../figures/parts';
import { withElements } from '../i18n/i18n';
import { STEP_KEYS, stepChart } from '../figures/step-chart';
import type { Estimate, FieldError, StepBytes, StepEvent, StepTimeline } from '../engine/types';
import { recomputeChoices } from './activations';
import { shortGpu, type SectionContext, type SectionView } from './context';
import { gpuControl } from './gpus';

/** What the step's sentences need: the widget's translator and writers. */
type Words = Pick<SectionContext, 't' | 'units'>;

/** A step plays in this many seconds of the learner's time, whatever it takes on the GPU. */
const PLAY_SECONDS = 12;
/** While playing, the live region speaks at most this often: one phase at a time, not a stream. */
const LIVE_EVERY_MS = 2500;
/** Rows the phase table is built with. */
const TABLE_ROWS = 8;

/** Fields the engine adds for deep models and gradient accumulation; absent from older engines. */
type Event = StepEvent & { layer_last?: number; micro_batch?: number; micro_batch_last?: number };
type Timeline = StepTimeline & { micro_batches?: number; events?: Event[] };
interface GoodTimeline { events: Event[]; seconds: number; layers: number; peakEvent: number; peak: StepBytes; microBatches: number }

/** The engine's output checked before it is drawn: anything missing or not finite is named. */
export function readTimeline(timeline: Timeline, { t, units }: Words): { good: GoodTimeline } | { errors: FieldError[] } {
  if (timeline.errors && timeline.errors.length > 0) return { errors: timeline.errors };
  const events = timeline.events;
  if (!Array.isArray(events) || events.length === 0) return { errors: [{ field: 'events', message: t('step.error.no_events', 'the engine gave no step events') }] };
  if (!(Number.isFinite(timeline.seconds) && (timeline.seconds ?? 0) > 0)) return { errors: [{ field: 'seconds', message: t('step.error.no_duration', 'the step has no positive duration') }] };
  if (!timeline.peak || !Number.isFinite(timeline.peak.total)) return { errors: [{ field: 'peak', message: t('step.error.no_peak', 'the step has no peak') }] };
  const peakEvent = timeline.peak_event ?? -1;
  if (!Number.isInteger(peakEvent) || peakEvent < 0 || peakEvent >= events.length) {
    return { errors: [{ field: 'peak_event', message: t('step.error.peak_event', 'is {index}, not one of the {count} events', { index: String(peakEvent), count: units.formatInteger(events.length) }) }] };
  }
  const bad = events.findIndex((event) => !event || !Number.isFinite(event.start) || !Number.isFinite(event.seconds) || !event.held || !Number.isFinite(event.held.total));
  if (bad >= 0) return { errors: [{ field: `events[${bad}]`, message: t('step.error.not_a_number', 'has a time or a memory figure that is not a number') }] };
  return {
    good: {
      events, seconds: timeline.seconds as number, layers: timeline.layers ?? 0, peakEvent, peak: timeline.peak,
      microBatches: timeline.micro_batches ?? 1,
    },
  };
}

type Recompute = 'none' | 'selective' | 'full';

/** "micro-batch 2 of 8", "micro-batches 2–7 of 8" (a run shown as one event), or "" for a step without accumulation. */
function microBatches(event: Event, timeline: GoodTimeline, { t, units }: Words, capital = false): string {
  const first = event.micro_batch ?? 0;
  if (timeline.microBatches <= 1 || first <= 0) return '';
  const last = event.micro_batch_last ?? first;
  const { formatInteger } = units;
  const values = { first: formatInteger(first), last: formatInteger(last), count: formatInteger(timeline.microBatches) };
  // Capitalised for the start of a table row: its own sentence, since a capital is the language's to place.
  if (capital) {
    return last > first ? t('step.micro_batches_capital', 'Micro-batches {first}–{last} of {count}', values) : t('step.micro_batch_capital', 'Micro-batch {first} of {count}', values);
  }
  return last > first ? t('step.micro_batches', 'micro-batches {first}–{last} of {count}', values) : t('step.micro_batch', 'micro-batch {first} of {count}', values);
}

/** "layer 57 of 80", "layers 41–60 of 80", "the output layer". */
function place(event: Event, layers: number, { t, units }: Words): string {
  const { formatInteger } = units;
  if (event.block === 'layer') {
    const last = event.layer_last ?? event.layer;
    return last > event.layer
      ? t('step.place.layers', 'layers {first}–{last} of {layers}', { first: formatInteger(event.layer), last: formatInteger(last), layers: formatInteger(layers) })
      : t('step.place.layer', 'layer {layer} of {layers}', { layer: formatInteger(event.layer), layers: formatInteger(layers) });
  }
  if (event.block === 'embedding') return t('step.place.embedding', 'the embedding');
  if (event.block === 'output') return t('step.place.output', 'the output layer');
  return t('step.place.all', 'every parameter');
}

/** The phase in words: what happens, and what it does to the memory. */
export function phaseInWords(event: Event, timeline: GoodTimeline, recompute: Recompute, words: Words): string {
  const { t } = words;
  const where = { where: place(event, timeline.layers, words) };
  // Several layers shown as one event take the plural ("their activations"): a sentence of their own.
  const several = event.block === 'layer' && (event.layer_last ?? event.layer) > event.layer;
  const layered = event.block === 'layer';
  let text: string;
  switch (event.phase) {
    case 'gather': text = several ? t('step.phase.gather_several', 'gather, {where}: their full weights are gathered from the other GPUs’ slices', where)
      : t('step.phase.gather', 'gather, {where}: its full weights are gathered from the other GPUs’ slices', where); break;
    case 'forward':
      text = !layered ? t('step.phase.forward_tokens', 'forward, {where}: the tokens are looked up', where)
        : recompute === 'full' ? (several ? t('step.phase.forward_full_several', 'forward, {where}: only their input is kept; the rest will be recomputed', where)
          : t('step.phase.forward_full', 'forward, {where}: only its input is kept; the rest will be recomputed', where))
          : recompute === 'selective' ? (several ? t('step.phase.forward_selective_several', 'forward, {where}: their activations are kept, except the attention scores', where)
            : t('step.phase.forward_selective', 'forward, {where}: its activations are kept, except the attention scores', where))
            : several ? t('step.phase.forward_several', 'forward, {where}: their activations are kept for the backward pass', where)
              : t('step.phase.forward', 'forward, {where}: its activations are kept for the backward pass', where);
      break;
    case 'loss': text = t('step.phase.loss', 'loss: the logits are computed and compared with the next tokens'); break;
    case 'recompute': text = several ? t('step.phase.recompute_several', 'recompute, {where}: their forward pass runs again to rebuild their activations', where)
      : t('step.phase.recompute', 'recompute, {where}: its forward pass runs again to rebuild its activations', where); break;
    case 'backward':
      text = layered ? (several ? t('step.phase.backward_several', 'backward, {where}: their activations are freed, their gradients kept', where)
        : t('step.phase.backward', 'backward, {where}: its activations are freed, its gradients kept', where))
        : event.block === 'output' ? t('step.phase.backward_output', 'backward, {where}: the logits are freed, the output layer’s gradients kept', where)
          : t('step.phase.backward_other', 'backward, {where}: its gradients are kept', where);
      break;
    case 'free': text = t('step.phase.free', 'free, {where}: the gathered weights are dropped again', where); break;
    case 'reduce_scatter': text = t('step.phase.reduce_scatter', 'reduce-scatter, {where}: gradients are summed across GPUs and this GPU keeps its slice', where); break;
    case 'all_reduce': text = t('step.phase.all_reduce', 'all-reduce, {where}: gradients are summed across GPUs', where); break;
    case 'optimizer': text = t('step.phase.optimizer', 'optimizer step: the master weights and moments are updated, then the 16-bit weights refreshed'); break;
    default: text = `${String(event.phase)}, ${where.where}`;
  }
  const micro = microBatches(event, timeline, words);
  return micro ? t('step.phase.in_micro_batch', '{micro_batch}, {phase}', { micro_batch: micro, phase: text }) : text;
}

/** "the backward pass of layer 57 of 80", "the loss": an event as the object of a sentence. */
function eventName(event: Event, timeline: GoodTimeline, words: Words): string {
  const { t } = words;
  const where = { where: place(event, timeline.layers, words) };
  const names: Record<string, () => string> = {
    gather: () => t('step.event.gather', 'the gathering of {where}', where),
    forward: () => t('step.event.forward', 'the forward pass of {where}', where),
    loss: () => t('step.event.loss', 'the loss'),
    recompute: () => t('step.event.recompute', 'the recomputation of {where}', where),
    backward: () => t('step.event.backward', 'the backward pass of {where}', where),
    free: () => t('step.event.free', 'the freeing of {where}', where),
    reduce_scatter: () => t('step.event.reduce_scatter', 'a gradient reduce-scatter'),
    all_reduce: () => t('step.event.all_reduce', 'the gradient all-reduce'),
    optimizer: () => t('step.event.optimizer', 'the optimizer step'),
  };
  const micro = microBatches(event, timeline, words);
  const name = Object.prototype.hasOwnProperty.call(names, event.phase) ? names[event.phase]() : String(event.phase);
  return micro ? t('step.event.in_micro_batch', '{event} in {micro_batch}', { event: name, micro_batch: micro }) : name;
}

/** Why the peak is where it is, from the phase the engine puts it after and what is held then. */
function peakInWords(timeline: GoodTimeline, estimate: Estimate, words: Words): string {
  const { t } = words;
  const { formatBytes } = words.units;
  const event = timeline.events[timeline.peakEvent];
  const held = timeline.peak;
  const values = {
    peak: formatBytes(held.total), event: eventName(event, timeline, words), gathered: formatBytes(held.gathered_weights),
    activations: formatBytes(held.activations), temporary: formatBytes(held.temporary),
  };
  let why: string;
  if (event.phase === 'gather' || event.phase === 'free' || (event.phase === 'forward' && held.gathered_weights > 0)) {
    why = t('step.peak.gathered', 'The peak, {peak}, comes after {event}: {gathered} of other GPUs’ weights are gathered for a layer, on top of this GPU’s own slice and {activations} of activations.', values);
  } else if (event.phase === 'recompute') {
    why = t('step.peak.recompute', 'The peak, {peak}, comes after {event}: a layer’s activations are rebuilt for its backward pass while the inputs of the layers below are still kept ({activations} of activations).', values);
  } else if (held.temporary > 0) {
    why = t('step.peak.temporary', 'The peak, {peak}, comes after {event}: a layer’s full gradients ({temporary}) wait to be shared out, beside {activations} of activations.', values);
  } else if (event.phase === 'optimizer' || held.activations === 0) {
    why = t('step.peak.states', 'The peak, {peak}, comes after {event}: only the model states are held then, so the activations never add to them.', values);
  } else {
    why = t('step.peak.turn', 'The peak, {peak}, comes after {event}, where the forward pass ends and the backward pass begins: every layer’s activations are still held ({activations}), and none has been freed yet.', values);
  }
  const gpu = { memory: formatBytes(estimate.gpu.memory_bytes), gpu: shortGpu(estimate.gpu.name) };
  return `${why} ${estimate.training.fits ? t('step.peak.fits', 'It fits in the {memory} of the {gpu}.', gpu) : t('step.peak.no_fit', 'It does not fit in the {memory} of the {gpu}.', gpu)}`;
}

interface PhaseGroup { label: string; start: number; end: number; peak: number }

/** The step's phases for the table: each micro-batch's forward pass, loss and backward pass, then the reductions and the optimizer step. */
function phaseGroups(timeline: GoodTimeline, words: Words): PhaseGroup[] {
  const { t } = words;
  const groups: PhaseGroup[] = [];
  let afterLoss = false;
  let micro = -1;
  let key = '';
  for (const event of timeline.events) {
    const eventMicro = event.micro_batch ?? 0;
    if (eventMicro !== micro) {
      micro = eventMicro;
      afterLoss = false;
    }
    // Each phase's name alone (a row of its own) and within a micro-batch's row ("Micro-batch 2 of 8: forward pass").
    let name: string;
    let within: string;
    if (event.phase === 'loss') {
      name = t('step.group.loss', 'Loss');
      within = t('step.group.loss_within', 'loss');
      afterLoss = true;
    } else if (event.block === 'all') {
      [name, within] = event.phase === 'optimizer' ? [t('step.group.optimizer', 'Optimizer step'), t('step.group.optimizer_within', 'optimizer step')]
        : event.phase === 'all_reduce' ? [t('step.group.all_reduce', 'Gradient all-reduce'), t('step.group.all_reduce_within', 'gradient all-reduce')]
          : event.phase === 'reduce_scatter' ? [t('step.group.reduce_scatter', 'Gradient reduce-scatter'), t('step.group.reduce_scatter_within', 'gradient reduce-scatter')]
            : [String(event.phase), String(event.phase)];
    } else {
      [name, within] = afterLoss ? [t('step.group.backward', 'Backward pass'), t('step.group.backward_within', 'backward pass')]
        : [t('step.group.forward', 'Forward pass'), t('step.group.forward_within', 'forward pass')];
    }
    const run = microBatches(event, timeline, words, true);
    const label = run ? t('step.group.in_micro_batch', '{micro_batch}: {phase}', { micro_batch: run, phase: within }) : name;
    const end = event.start + event.seconds;
    const groupKey = `${eventMicro}|${label}`;
    const current = groups[groups.length - 1];
    if (current && groupKey === key) {
      current.end = end;
      current.peak = Math.max(current.peak, event.held.total);
    } else {
      groups.push({ label, start: event.start, end, peak: event.held.total });
      key = groupKey;
    }
  }
  return groups;
}

export function stepSection(context: SectionContext): SectionView {
  const { t, parts: labels } = context;
  const { formatBytes, formatDuration } = context.units;
  const headingId = uniqueId('heading');
  const chart = stepChart(t, context.units);
  const reducedMotion = typeof matchMedia === 'function' ? matchMedia('(prefers-reduced-motion: reduce)') : null;

  // The names are the visible words ("Back one event"): the arrows are decoration, the rest is for screen readers.
  const back = h('button', { type: 'button', className: 'ts-button ts-button-quiet' },
    h('span', { 'aria-hidden': 'true' }, '◀ '), t('step.back', 'Back'), h('span', { className: 'ts-visually-hidden' }, t('step.back_hidden', ' one event')));
  const play = h('button', { type: 'button', className: 'ts-button ts-button-primary ts-step-play' }, t('step.play', 'Play'));
  const forward = h('button', { type: 'button', className: 'ts-button ts-button-quiet' },
    t('step.next', 'Next'), h('span', { className: 'ts-visually-hidden' }, t('step.next_hidden', ' event')), h('span', { 'aria-hidden': 'true' }, ' ▶'));
  const scrubberId = uniqueId('scrubber');
  const scrubber = h('input', { type: 'range', className: 'ts-range ts-step-scrubber', id: scrubberId, min: '0', max: '0', step: '1', value: '0' });
  const phase = h('p', { className: 'ts-step-phase', 'data-figure': 'step-phase' });
  const heldNow = h('strong', { 'data-figure': 'step-held' });
  const heldOf = h('span');
  const held = h('p', { className: 'ts-step-held' }, withElements(t('step.held', 'Held then: {held}'), { held: heldNow }), heldOf);
  // Polite, without role=status: the widget's own status line stays the one summary of the scenario.
  const live = h('p', { className: 'ts-visually-hidden ts-step-live', 'aria-live': 'polite', 'aria-atomic': 'true' });
  const peakText = h('p', { className: 'ts-step-peak-text', 'data-figure': 'step-peak-text' });
  const errors = h('p', { className: 'ts-errors ts-step-errors', role: 'alert' });
  errors.hidden = true;
  const heldLegend = legend(STEP_KEYS, (value) => formatBytes(value), labels, t('step.legend', 'Held at the playhead'), { showCaption: true });

  const tableBody = h('tbody');
  const tableRows: Array<{ row: HTMLTableRowElement; cells: HTMLTableCellElement[] }> = [];
  const table = h('details', { className: 'ts-step-table' },
    h('summary', null, t('step.table.summary', 'The step’s phases as a table')),
    h('div', { className: 'ts-step-table-scroll' },
      h('table', null,
        h('caption', { className: 'ts-visually-hidden' }, t('step.table.caption', 'Phases of one training step: when each starts and ends, and the most memory held during it')),
        h('thead', null, h('tr', null, h('th', { scope: 'col' }, t('step.table.phase', 'Phase')), h('th', { scope: 'col' }, t('step.table.starts', 'Starts')),
          h('th', { scope: 'col' }, t('step.table.ends', 'Ends')), h('th', { scope: 'col' }, t('step.table.peak', 'Peak within it')))),
        tableBody)));

  let timeline: GoodTimeline | null = null;
  let estimate: Estimate | null = null;
  let index = 0;
  let time = 0;
  /** True once the learner (or a link) placed the playhead: from then on the address keeps it. */
  let placed = false;
  let playing = false;
  let frame = 0;
  let lastFrame: number | null = null;
  let lastSpoken = 0;
  let liveTimer: ReturnType<typeof setTimeout> | undefined;
  /** The playhead the address held when the section was built (null: none), placed by its first redraw. */
  let linkedIndex: number | null | undefined = context.playhead() ?? undefined;

  const recompute = (): Recompute => (context.resolved().training.recompute ?? 'none') as Recompute;
  const endOf = (event: Event) => event.start + event.seconds;
  /** The event under a time: the first that ends at or after it. */
  const indexAt = (seconds: number): number => {
    if (!timeline) return 0;
    const events = timeline.events;
    let low = 0;
    let high = events.length - 1;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (endOf(events[middle]) >= seconds) high = middle; else low = middle + 1;
    }
    return low;
  };

  const speak = (text: string, now: boolean) => {
    clearTimeout(liveTimer);
    const wait = now ? 0 : Math.max(0, lastSpoken + LIVE_EVERY_MS - Date.now());
    liveTimer = setTimeout(() => {
      lastSpoken = Date.now();
      setText(live, text);
    }, wait);
  };

  /** Shows the event under the playhead: the phase, what is held, the legend, the scrubber. */
  const show = (options: { speak: 'now' | 'throttled' | 'no' }) => {
    if (!timeline || !estimate) return;
    const event = timeline.events[index];
    const words = phaseInWords(event, timeline, recompute(), context);
    const sentence = `${words.charAt(0).toUpperCase()}${words.slice(1)}.`;
    setText(phase, sentence);
    setAttribute(phase, 'data-index', String(index));
    setFigure(heldNow, formatBytes(event.held.total), event.held.total);
    setText(heldOf, t('step.held_at', ', at {time} of {step}', { time: formatDuration(endOf(event)), step: formatDuration(timeline.seconds) }));
    const parts: Part[] = STEP_KEYS.map((key) => ({ key, value: event.held[key as Exclude<keyof StepBytes, 'total'>] ?? 0 })).filter((part) => part.value > 0);
    heldLegend.update(parts);
    if (scrubber.value !== String(index)) scrubber.value = String(index);
    setAttribute(scrubber, 'aria-valuetext', sentence);
    chart.setPlayhead(time);
    if (options.speak !== 'no') speak(sentence, options.speak === 'now');
  };

  const report = () => {
    if (placed) context.setPlayhead(index);
  };

  const goTo = (next: number, speakMode: 'now' | 'no') => {
    if (!timeline) return;
    index = Math.min(timeline.events.length - 1, Math.max(0, next));
    time = endOf(timeline.events[index]);
    placed = true;
    show({ speak: speakMode });
    report();
  };

  const setPlaying = (on: boolean) => {
    playing = on;
    setText(play, on ? t('step.pause', 'Pause') : t('step.play', 'Play'));
    setClass(play, 'ts-step-playing', on);
    if (!on) {
      if (frame) cancelAnimationFrame(frame);
      frame = 0;
      lastFrame = null;
    }
  };

  const tick = (now: number) => {
    frame = 0;
    if (!playing || !timeline || !element.isConnected) {
      setPlaying(false);
      return;
    }
    const elapsed = lastFrame === null ? 0 : now - lastFrame;
    lastFrame = now;
    time = Math.min(timeline.seconds, time + (elapsed / 1000) * (timeline.seconds / PLAY_SECONDS));
    const next = indexAt(time);
    const moved = next !== index;
    index = next;
    if (time >= timeline.seconds) {
      index = timeline.events.length - 1;
      setPlaying(false);
      show({ speak: 'now' });
      report();
      return;
    }
    if (moved) show({ speak: 'throttled' });
    else chart.setPlayhead(time);
    if (moved) report();
    frame = requestAnimationFrame(tick);
  };

  const start = () => {
    if (!timeline || reducedMotion?.matches) return;
    // At the end, play starts the step again.
    if (time >= timeline.seconds || index >= timeline.events.length - 1) {
      time = 0;
      index = 0;
    }
    placed = true;
    setPlaying(true);
    show({ speak: 'now' });
    frame = requestAnimationFrame(tick);
  };

  play.addEventListener('click', () => (playing ? (setPlaying(false), show({ speak: 'now' }), report()) : start()));
  back.addEventListener('click', () => {
    setPlaying(false);
    goTo(index - 1, 'now');
  });
  forward.addEventListener('click', () => {
    setPlaying(false);
    goTo(index + 1, 'now');
  });
  // The range speaks its own value text (the phase), so the live region stays quiet for it.
  scrubber.addEventListener('input', () => {
    setPlaying(false);
    goTo(Number(scrubber.value), 'no');
  });
  // A click on the chart puts the playhead there (the scrubber and the buttons do it by keyboard).
  chart.element.addEventListener('click', (event) => {
    const at = chart.timeAt(event.clientX);
    if (at === null) return;
    setPlaying(false);
    goTo(indexAt(at), 'now');
  });
  const syncMotion = () => {
    // Reduced motion: no animation at all; the scrubber and the step buttons move the playhead.
    const still = reducedMotion?.matches ?? false;
    if (still && playing) setPlaying(false);
    setHidden(play, still);
  };
  reducedMotion?.addEventListener?.('change', syncMotion);

  context.onPlayheadFromLink((linked) => {
    setPlaying(false);
    // The widget redraws every section for a link before it passes the link's playhead on.
    if (linked === null) {
      placed = false;
      index = 0;
      time = 0;
      show({ speak: 'no' });
      return;
    }
    goTo(linked, 'no');
  });

  const addRow = () => {
    const cells = [h('th', { scope: 'row' }, ''), h('td', null, ''), h('td', null, ''), h('td', null, '')];
    const row = h('tr', null, cells);
    row.hidden = true;
    tableBody.appendChild(row);
    tableRows.push({ row, cells });
  };
  // Enough rows for a step without accumulation (forward, loss, backward, reductions, optimizer):
  // a slider step shows or hides rows, and only more micro-batches than ever before add some.
  for (let row = 0; row < TABLE_ROWS; row += 1) addRow();
  const drawTable = (groups: PhaseGroup[]) => {
    while (tableRows.length < groups.length) addRow();
    tableRows.forEach(({ row, cells }, position) => {
      const group = groups[position];
      setHidden(row, !group);
      if (!group) return;
      setText(cells[0], group.label);
      setText(cells[1], formatDuration(group.start));
      setText(cells[2], formatDuration(group.end));
      setText(cells[3], formatBytes(group.peak));
    });
  };

  const redraw = (next: Estimate) => {
    const read = readTimeline(context.stepTimeline(), context);
    if ('errors' in read) {
      // The last good chart stays, faded; the message names the field the engine refused.
      setText(errors, t('step.error', 'The step could not be drawn: {errors}. The chart still shows the last valid step.',
        { errors: read.errors.map((error) => `${error.field}: ${error.message}`).join('; ') }));
      setHidden(errors, false);
      setClass(element, 'ts-step-stale', timeline !== null);
      return;
    }
    setHidden(errors, true);
    setClass(element, 'ts-step-stale', false);
    const previous = timeline;
    const fraction = previous ? time / previous.seconds : 0;
    timeline = read.good;
    estimate = next;
    const gpu = shortGpu(next.gpu.name);
    chart.update({
      events: timeline.events, seconds: timeline.seconds, peakEvent: timeline.peakEvent, peak: timeline.peak,
      memory: next.gpu.memory_bytes, memoryLabel: t('step.chart.memory', '{gpu} memory: {memory}', { gpu, memory: formatBytes(next.gpu.memory_bytes) }), narrow: context.narrow(),
      label: t('step.chart.label', 'Memory held by one GPU through one training step of {step}: the peak is {peak}, the {gpu} has {memory}.',
        { step: formatDuration(timeline.seconds), peak: formatBytes(timeline.peak.total), gpu, memory: formatBytes(next.gpu.memory_bytes) }),
    });
    setAttribute(scrubber, 'max', String(timeline.events.length - 1));
    if (linkedIndex !== undefined) {
      // A link's event index counts the events of the link's own scenario: this one.
      const linked = linkedIndex;
      linkedIndex = undefined;
      placed = linked !== null;
      index = Math.min(timeline.events.length - 1, Math.max(0, linked ?? 0));
      time = linked === null ? 0 : endOf(timeline.events[index]);
    } else if (previous) {
      // Another scenario: the playhead stays at the same share of the step.
      time = Math.min(1, Math.max(0, fraction)) * timeline.seconds;
      index = indexAt(time);
    }
    show({ speak: 'no' });
    report();
    setText(peakText, peakInWords(timeline, next, context));
    drawTable(phaseGroups(timeline, context));
  };

  // Redrawn in the input's own task, with every other figure: one style and layout pass for all
  // (redrawn in the next animation frame instead, it cost a second pass, ~1 ms more per step).
  // Off screen, the widget holds the update back until the input rests or the section comes near
  // (app.ts, updateViews), as it does for every section.
  const update: SectionView['update'] = (next) => redraw(next);

  syncMotion();
  const element = h('section', { className: 'ts-section ts-step', 'aria-labelledby': headingId },
    h(context.headingTag(1), { className: 'ts-section-title', id: headingId }, context.numbered('step', t('step.heading', 'One training step: where the memory goes, layer by layer'))),
    h('div', { className: 'ts-prose' },
      h('p', null, t('step.prose_1', 'The totals above are one moment of a training step: its worst. Play a step on one GPU and watch the memory: the forward pass piles up each layer’s activations, the backward pass frees them as the gradients appear, and the optimizer step updates the weights. '),
        t('step.prose_2', 'Checkpointing flattens the pile and pays with recompute bumps; ZeRO-3 keeps a slice of the weights and gathers each layer’s just before it is used.'))),
    h('div', { className: 'ts-panel' },
      h('div', { className: 'ts-panel-controls' },
        context.add(radioControl('training.recompute', t('controls.recompute', 'Activation checkpointing'), recomputeChoices(context), context.onValue)).element,
        context.add(selectControl('parallel.zero_stage', t('controls.zero', 'Sharding (ZeRO stage)'), [
          { value: 0, label: t('step.stage_0', 'Stage 0: full copies') },
          { value: 1, label: t('step.stage_1', 'Stage 1: optimizer states sharded') },
          { value: 2, label: t('step.stage_2', 'Stage 2: + gradients') },
          { value: 3, label: t('step.stage_3', 'Stage 3: + weights') },
        ], context.onValue)).element,
        // Sharding needs more than one GPU: the same GPUs slider as the sharding and time sections.
        gpuControl(context)),
      h('div', { className: 'ts-step-main' },
      h('figure', { className: 'ts-figure ts-step-figure' },
        errors,
        chart.element,
        h('div', { className: 'ts-step-controls', role: 'group', 'aria-label': t('step.playhead', 'Playhead') },
          h('div', { className: 'ts-step-buttons' }, back, play, forward),
          h('label', { className: 'ts-label ts-step-scrub-label', for: scrubberId }, t('step.scrubber', 'Moment in the step (event by event)')),
          scrubber),
        phase, held, live,
        heldLegend.element,
        h('figcaption', null, peakText)),
      // Outside the figure: the table repeats the chart's figures on purpose, for those who cannot see it.
      table)),
    why(t, t('step.why.summary', 'Why is the peak where the backward pass begins?'), [
      t('step.why.body', 'The backward pass needs every layer’s activations, and it runs from the last layer back to the first. So when the forward pass ends, all of them are held at once; from then on each layer’s activations are freed as its gradients are computed. Checkpointing keeps only each layer’s input and rebuilds the rest just before that layer’s backward pass, one layer at a time: the pile is lower, the step longer. ZeRO-3 holds only this GPU’s slice of the weights and gathers a layer’s full weights from the other GPUs just before each use, freeing them after.'),
    ], t('step.why.formula', 'time of an event ≈ its FLOPs ÷ sustained FLOP/s (forward 2, backward 4, recompute 2 per parameter per token, plus attention); the optimizer step ≈ the bytes it touches ÷ memory bandwidth'),
    t('step.why.sources', 'Korthikanti et al. 2022, “Reducing Activation Recomputation in Large Transformer Models”; Rajbhandari et al. 2020, “ZeRO”.')));
  return { element, update };
}
