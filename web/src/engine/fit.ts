// "What fits on my GPUs" (docs/scenario.md, "What fits" and "Fine-tuning methods side by side"):
// the engine's inverse search and its three methods side by side, read into typed objects. The
// fit section asks here only when it is built and its scenario changed: the search costs more
// than an estimate, and the other sections never pay for it.

import type { TrainscopeEngineModule } from './engine-module';
import type { FieldError, Scenario } from './types';

/** One memory check of a layout: does it fit, its peak per GPU, and its times (the communication model's). */
export interface FitCheck {
  fits: boolean;
  peak_bytes: number;
  step_seconds: number;
  run_seconds: number;
  micro_batches: number;
  /** G × run time, in hours (docs/model.md §6). */
  gpu_hours: number;
  /** GPU-hours × the scenario's price; 0 without a price. */
  cost: number;
  /** The utilisation (MFU) the run time is at: the engine's prediction for this layout. */
  predicted_mfu: number;
}

/** How a layout splits, shards and recomputes, and its micro-batch. */
export interface FitLayoutSettings {
  tensor: number;
  pipeline: number;
  interleave: number;
  context: number;
  expert: number;
  data: number;
  zero_stage: number;
  recompute: string;
  micro_batch: number;
}

export interface FitLayout extends FitCheck, FitLayoutSettings {
  /** The whole scenario of this layout: load it as it is. */
  scenario: Scenario;
}

export interface FitChange extends FitCheck {
  kind: string;
  field: string;
  value: number | string;
  /** The engine's words for the change, in the widget's language. */
  label: string;
  /** What the change costs the person, the engine's order (docs/model.md §17): changes of goal come last, apart. */
  costs: 'nothing' | 'time' | 'money' | 'goal';
  /** Its run time over the current layout's; absent when it times other tokens (a fine-tuning run). */
  time_ratio?: number;
  /** When no layout of the GPUs fits without the change: the fastest layout that fits with it. */
  layout?: FitLayoutSettings;
  scenario: Scenario;
}

export interface FitAnswer {
  notes: string[];
  current: FitCheck & { memory_bytes: number };
  largest_micro_batch: FitCheck & { value: number };
  largest_sequence: FitCheck & { value: number };
  layouts: FitLayout[];
  layouts_total: number;
  layouts_examined: number;
  complete: boolean;
  changes: FitChange[];
  reasons: FieldError[];
}

/** What one GPU holds at the step's peak with one method. */
export interface MethodPerGpu {
  weights: number;
  gradients: number;
  master_weights: number;
  optimizer_states: number;
  activations: number;
  other: number;
  total: number;
}

export interface FineTuningMethod {
  method: 'full' | 'lora' | 'qlora';
  label: string;
  /** The scenario's own method. */
  current: boolean;
  fits: boolean;
  memory_bytes: number;
  peak_bytes: number;
  per_gpu: MethodPerGpu;
  params: number;
  trainable_params: number;
  base_storage: string;
  base_bytes_per_param: number;
  checkpoint_bytes: number;
  /** The run's tokens: a fine-tuning run's for LoRA and QLoRA unless the learner set them (docs/model.md §15). */
  tokens: number;
  /** At the utilisation the engine predicts for the layout, as the layouts are timed. */
  run_seconds: number;
  gpu_hours: number;
  predicted_mfu: number;
  scenario: Scenario;
}

export type EngineAnswer<T> = { ok: true; value: T } | { ok: false; errors: FieldError[] };

/** How many ranked layouts the section lists. */
export const LAYOUTS_LISTED = 8;

function read<T>(call: () => string, accept: (parsed: T & { errors?: FieldError[] }) => boolean): EngineAnswer<T> {
  let parsed: T & { errors?: FieldError[] };
  try {
    parsed = JSON.parse(call()) as T & { errors?: FieldError[] };
  } catch (error) {
    return { ok: false, errors: [{ field: 'scenario', message: error instanceof Error ? error.message : String(error) }] };
  }
  if ((parsed.errors && parsed.errors.length > 0) || !accept(parsed)) return { ok: false, errors: parsed.errors ?? [] };
  return { ok: true, value: parsed };
}

/** What fits the scenario's GPUs: its layout, the largest micro-batch and sequence, ranked layouts, cheapest changes. */
export function readFit(engineModule: TrainscopeEngineModule, scenario: Scenario, maxLayouts = LAYOUTS_LISTED): EngineAnswer<FitAnswer> {
  return read<FitAnswer>(
    () => engineModule.fit(JSON.stringify({ scenario, max_layouts: maxLayouts })),
    (answer) => Boolean(answer.current && answer.layouts),
  );
}

/** Full training, LoRA and QLoRA for the scenario's model and GPUs, in that order. */
export function readMethods(engineModule: TrainscopeEngineModule, scenario: Scenario): EngineAnswer<FineTuningMethod[]> {
  const answer = read<{ methods: FineTuningMethod[] }>(
    () => engineModule.fineTuningMethods(JSON.stringify(scenario)),
    (parsed) => Array.isArray(parsed.methods),
  );
  return answer.ok ? { ok: true, value: answer.value.methods } : answer;
}
