// How one control's new value changes the learner's overrides: a preset brings its own facts, a
// catalogue GPU its datasheet, editing a GPU's figures makes it the learner's own. Pure functions
// of plain data; the widget holds the state.

import { clone, deleteField, getField, setField } from '../engine/scenario';
import type { Estimate, PartialScenario, Scenario } from '../engine/types';
import { ANY_SIZE, FROM_CONFIG, MODEL_PARAMS, MODEL_PRESET } from '../sections/model';
import { CUSTOM_GPU } from '../sections/time';

const DATASHEET_FIELDS = ['memory_bytes', 'peak_flops', 'watts'] as const;

/**
 * Another model: a new preset brings its own training facts (tokens, GPUs, GPU type) in place of
 * the previous model's; a bare count or a config keeps what is on screen, so that only one thing
 * changes at a time.
 */
export function withModel(
  overrides: PartialScenario,
  resolved: Scenario,
  model: PartialScenario['model'],
  fromPreset: boolean,
): PartialScenario {
  let next: PartialScenario = { ...clone(overrides), model };
  for (const path of ['training.tokens', 'parallel.gpus', 'hardware.gpu']) {
    next = fromPreset ? deleteField(next, path) : setField(next, path, getField(next, path) ?? getField(resolved, path));
  }
  if (fromPreset) for (const field of DATASHEET_FIELDS) next = deleteField(next, `hardware.${field}`);
  return next;
}

/** A catalogue GPU brings its datasheet figures; "custom" starts from the GPU on screen. */
export function withGpu(overrides: PartialScenario, id: string, onScreen: Estimate['gpu']): PartialScenario {
  let next = setField(overrides, 'hardware.gpu', id);
  for (const field of DATASHEET_FIELDS) next = deleteField(next, `hardware.${field}`);
  if (id !== CUSTOM_GPU) return next;
  for (const field of DATASHEET_FIELDS) next = setField(next, `hardware.${field}`, onScreen[field]);
  return next;
}

/** LoRA and QLoRA fine-tune a trained model; full training is pre-training (docs/model.md §15). */
const fineTunes = (method: unknown) => method === 'lora' || method === 'qlora';

/**
 * Another training method: moving between full training and LoRA/QLoRA changes the goal, so the
 * tokens (a pre-training run's or a fine-tuning run's) are dropped and the engine's default for
 * the new method applies, as its fit search and side-by-side do; LoRA ↔ QLoRA keeps them.
 */
export function withMethod(overrides: PartialScenario, resolved: Scenario, method: string): PartialScenario {
  // Each method stores its base its own way (LoRA 16-bit, QLoRA NF4), as the engine's method change sets it.
  const next = deleteField(setField(overrides, 'training.method', method), 'training.lora.base');
  return fineTunes(method) === fineTunes(resolved.training.method) ? next : deleteField(next, 'training.tokens');
}

/** The overrides after a control set `path` to `value`; null when the value changes nothing (the "your config" entry). */
export function withValue(
  overrides: PartialScenario,
  resolved: Scenario,
  estimate: Estimate,
  path: string,
  value: unknown,
): PartialScenario | null {
  if (path === MODEL_PRESET) {
    if (value === ANY_SIZE) return withModel(overrides, resolved, { params: estimate.params }, false);
    if (value === FROM_CONFIG) return null;
    return withModel(overrides, resolved, { preset: String(value) }, true);
  }
  if (path === MODEL_PARAMS) return withModel(overrides, resolved, { params: Number(value) }, false);
  if (path === 'hardware.gpu') return withGpu(overrides, String(value), estimate.gpu);
  if (path === 'training.method') return withMethod(overrides, resolved, String(value));
  // One LoRA setting keeps the others on screen: the page's merge replaces training.lora whole.
  if (path.startsWith('training.lora.'))
    return setField(setField(overrides, 'training.lora', { ...resolved.training.lora, ...overrides.training?.lora }), path, value);
  if (path === 'hardware.memory_bytes' || path === 'hardware.peak_flops') {
    // Editing a GPU's memory or peak makes it the learner's own GPU, starting from the one on screen.
    const own = getField(overrides, 'hardware.gpu') === CUSTOM_GPU ? overrides : withGpu(overrides, CUSTOM_GPU, estimate.gpu);
    return setField(own, path, value);
  }
  return setField(overrides, path, value);
}

/** The model picker's entry for the overrides: a preset, "your config", or "any size". */
export function modelChoice(overrides: PartialScenario, defaults: Scenario): string {
  const model = overrides.model ?? defaults.model;
  if (model.preset && !model.architecture) return model.preset;
  if (model.architecture && !model.preset) return FROM_CONFIG;
  if (model.params !== undefined) return ANY_SIZE;
  return model.preset ?? ANY_SIZE;
}
