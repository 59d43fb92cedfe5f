// The step in words: the engine's timeline checked before it is drawn, each event's phase as a
// sentence, why the peak is where it is, and the phases grouped for the table.

import type { Estimate, FieldError, StepBytes, StepEvent, StepTimeline } from '../../engine/types';
import { type SectionContext } from '../context';

/** What the step's sentences need: the widget's translator and writers. */
export type Words = Pick<SectionContext, 't' | 'units'>;

/** Fields the engine adds for deep models and gradient accumulation; absent from older engines. */
export type Event = StepEvent & { layer_last?: number; micro_batch?: number; micro_batch_last?: number };
export type Timeline = StepTimeline & { micro_batches?: number; events?: Event[] };
export interface GoodTimeline {
  events: Event[];
  seconds: number;
  layers: number;
  peakEvent: number;
  peak: StepBytes;
  microBatches: number;
}

/** The engine's output checked before it is drawn: anything missing or not finite is named. */
export function readTimeline(timeline: Timeline, { t, units }: Words): { good: GoodTimeline } | { errors: FieldError[] } {
  if (timeline.errors && timeline.errors.length > 0) return { errors: timeline.errors };
  const events = timeline.events;
  if (!Array.isArray(events) || events.length === 0)
    return { errors: [{ field: 'events', message: t('step.error.no_events', 'the engine gave no step events') }] };
  if (!(Number.isFinite(timeline.seconds) && (timeline.seconds ?? 0) > 0))
    return { errors: [{ field: 'seconds', message: t('step.error.no_duration', 'the step has no positive duration') }] };
  if (!timeline.peak || !Number.isFinite(timeline.peak.total))
    return { errors: [{ field: 'peak', message: t('step.error.no_peak', 'the step has no peak') }] };
  const peakEvent = timeline.peak_event ?? -1;
  if (!Number.isInteger(peakEvent) || peakEvent < 0 || peakEvent >= events.length) {
    return {
      errors: [
        {
          field: 'peak_event',
          message: t('step.error.peak_event', 'is {index}, not one of the {count} events', {
            index: String(peakEvent),
            count: units.formatInteger(events.length),
          }),
        },
      ],
    };
  }
  const bad = events.findIndex(
    (event) =>
      !event || !Number.isFinite(event.start) || !Number.isFinite(event.seconds) || !event.held || !Number.isFinite(event.held.total),
  );
  if (bad >= 0)
    return {
      errors: [{ field: `events[${bad}]`, message: t('step.error.not_a_number', 'has a time or a memory figure that is not a number') }],
    };
  return {
    good: {
      events,
      seconds: timeline.seconds as number,
      layers: timeline.layers ?? 0,
      peakEvent,
      peak: timeline.peak,
      microBatches: timeline.micro_batches ?? 1,
    },
  };
}

export type Recompute = 'none' | 'selective' | 'full';

/** "micro-batch 2 of 8", "micro-batches 2–7 of 8" (a run shown as one event), or "" for a step without accumulation. */
function microBatches(event: Event, timeline: GoodTimeline, { t, units }: Words, capital = false): string {
  const first = event.micro_batch ?? 0;
  if (timeline.microBatches <= 1 || first <= 0) return '';
  const last = event.micro_batch_last ?? first;
  const { formatInteger } = units;
  const values = { first: formatInteger(first), last: formatInteger(last), count: formatInteger(timeline.microBatches) };
  // Capitalised for the start of a table row: its own sentence, since a capital is the language's to place.
  if (capital) {
    return last > first
      ? t('step.micro_batches_capital', 'Micro-batches {first}–{last} of {count}', values)
      : t('step.micro_batch_capital', 'Micro-batch {first} of {count}', values);
  }
  return last > first
    ? t('step.micro_batches', 'micro-batches {first}–{last} of {count}', values)
    : t('step.micro_batch', 'micro-batch {first} of {count}', values);
}

/** "layer 57 of 80", "layers 41–60 of 80", "the output layer". */
function place(event: Event, layers: number, { t, units }: Words): string {
  const { formatInteger } = units;
  if (event.block === 'layer') {
    const last = event.layer_last ?? event.layer;
    return last > event.layer
      ? t('step.place.layers', 'layers {first}–{last} of {layers}', {
          first: formatInteger(event.layer),
          last: formatInteger(last),
          layers: formatInteger(layers),
        })
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
    case 'gather':
      text = several
        ? t('step.phase.gather_several', 'gather, {where}: their full weights are gathered from the other GPUs’ slices', where)
        : t('step.phase.gather', 'gather, {where}: its full weights are gathered from the other GPUs’ slices', where);
      break;
    case 'forward':
      text = !layered
        ? t('step.phase.forward_tokens', 'forward, {where}: the tokens are looked up', where)
        : recompute === 'full'
          ? several
            ? t('step.phase.forward_full_several', 'forward, {where}: only their input is kept; the rest will be recomputed', where)
            : t('step.phase.forward_full', 'forward, {where}: only its input is kept; the rest will be recomputed', where)
          : recompute === 'selective'
            ? several
              ? t(
                  'step.phase.forward_selective_several',
                  'forward, {where}: their activations are kept, except the attention scores',
                  where,
                )
              : t('step.phase.forward_selective', 'forward, {where}: its activations are kept, except the attention scores', where)
            : several
              ? t('step.phase.forward_several', 'forward, {where}: their activations are kept for the backward pass', where)
              : t('step.phase.forward', 'forward, {where}: its activations are kept for the backward pass', where);
      break;
    case 'loss':
      text = t('step.phase.loss', 'loss: the logits are computed and compared with the next tokens');
      break;
    case 'recompute':
      text = several
        ? t('step.phase.recompute_several', 'recompute, {where}: their forward pass runs again to rebuild their activations', where)
        : t('step.phase.recompute', 'recompute, {where}: its forward pass runs again to rebuild its activations', where);
      break;
    case 'backward':
      text = layered
        ? several
          ? t('step.phase.backward_several', 'backward, {where}: their activations are freed, their gradients kept', where)
          : t('step.phase.backward', 'backward, {where}: its activations are freed, its gradients kept', where)
        : event.block === 'output'
          ? t('step.phase.backward_output', 'backward, {where}: the logits are freed, the output layer’s gradients kept', where)
          : t('step.phase.backward_other', 'backward, {where}: its gradients are kept', where);
      break;
    case 'free':
      text = t('step.phase.free', 'free, {where}: the gathered weights are dropped again', where);
      break;
    case 'reduce_scatter':
      text = t(
        'step.phase.reduce_scatter',
        'reduce-scatter, {where}: gradients are summed across GPUs and this GPU keeps its slice',
        where,
      );
      break;
    case 'all_reduce':
      text = t('step.phase.all_reduce', 'all-reduce, {where}: gradients are summed across GPUs', where);
      break;
    case 'optimizer':
      text = t('step.phase.optimizer', 'optimizer step: the master weights and moments are updated, then the 16-bit weights refreshed');
      break;
    default:
      text = `${String(event.phase)}, ${where.where}`;
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
export function peakInWords(timeline: GoodTimeline, estimate: Estimate, words: Words): string {
  const { t } = words;
  const { formatBytes } = words.units;
  const event = timeline.events[timeline.peakEvent];
  const held = timeline.peak;
  const values = {
    peak: formatBytes(held.total),
    event: eventName(event, timeline, words),
    gathered: formatBytes(held.gathered_weights),
    activations: formatBytes(held.activations),
    temporary: formatBytes(held.temporary),
  };
  let why: string;
  if (event.phase === 'gather' || event.phase === 'free' || (event.phase === 'forward' && held.gathered_weights > 0)) {
    why = t(
      'step.peak.gathered',
      'The peak, {peak}, comes after {event}: {gathered} of other GPUs’ weights are gathered for a layer, on top of this GPU’s own slice and {activations} of activations.',
      values,
    );
  } else if (event.phase === 'recompute') {
    why = t(
      'step.peak.recompute',
      'The peak, {peak}, comes after {event}: a layer’s activations are rebuilt for its backward pass while the inputs of the layers below are still kept ({activations} of activations).',
      values,
    );
  } else if (held.temporary > 0) {
    why = t(
      'step.peak.temporary',
      'The peak, {peak}, comes after {event}: a layer’s full gradients ({temporary}) wait to be shared out, beside {activations} of activations.',
      values,
    );
  } else if (event.phase === 'optimizer' || held.activations === 0) {
    why = t(
      'step.peak.states',
      'The peak, {peak}, comes after {event}: only the model states are held then, so the activations never add to them.',
      values,
    );
  } else {
    why = t(
      'step.peak.turn',
      'The peak, {peak}, comes after {event}, where the forward pass ends and the backward pass begins: every layer’s activations are still held ({activations}), and none has been freed yet.',
      values,
    );
  }
  const gpu = { memory: formatBytes(estimate.gpu.memory_bytes), gpu: estimate.gpu.short_name };
  return `${why} ${estimate.training.fits ? t('step.peak.fits', 'It fits in the {memory} of the {gpu}.', gpu) : t('step.peak.no_fit', 'It does not fit in the {memory} of the {gpu}.', gpu)}`;
}

export interface PhaseGroup {
  label: string;
  start: number;
  end: number;
  peak: number;
}

/** The step's phases for the table: each micro-batch's forward pass, loss and backward pass, then the reductions and the optimizer step. */
export function phaseGroups(timeline: GoodTimeline, words: Words): PhaseGroup[] {
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
      [name, within] =
        event.phase === 'optimizer'
          ? [t('step.group.optimizer', 'Optimizer step'), t('step.group.optimizer_within', 'optimizer step')]
          : event.phase === 'all_reduce'
            ? [t('step.group.all_reduce', 'Gradient all-reduce'), t('step.group.all_reduce_within', 'gradient all-reduce')]
            : event.phase === 'reduce_scatter'
              ? [
                  t('step.group.reduce_scatter', 'Gradient reduce-scatter'),
                  t('step.group.reduce_scatter_within', 'gradient reduce-scatter'),
                ]
              : [String(event.phase), String(event.phase)];
    } else {
      [name, within] = afterLoss
        ? [t('step.group.backward', 'Backward pass'), t('step.group.backward_within', 'backward pass')]
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
