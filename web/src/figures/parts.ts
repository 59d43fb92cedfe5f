// The parts every figure draws (weights, gradients, …): one name, and through the CSS class
// ts-part-<key> one colour and pattern per concept, the same in every figure; and the share of an
// axis a value takes, which is geometry, not a figure.

import type { Translate } from '../i18n/i18n';

export type PartKey =
  | 'weights'
  | 'kv_cache'
  | 'gradients'
  | 'master_weights'
  | 'optimizer_states'
  | 'activations'
  | 'logits'
  | 'gathered_weights'
  | 'temporary'
  | 'cuda_context'
  | 'model_flops'
  | 'hardware_flops';

export type PartLabels = Readonly<Record<PartKey, string>>;

/** One name and (through the CSS class ts-part-<key>) one colour and pattern per concept, everywhere. */
export function partLabels(t: Translate): PartLabels {
  return {
    weights: t('figures.part.weights', 'Weights'),
    kv_cache: t('figures.part.kv_cache', 'KV cache'),
    gradients: t('figures.part.gradients', 'Gradients'),
    master_weights: t('figures.part.master_weights', 'FP32 master copy'),
    optimizer_states: t('figures.part.optimizer_states', 'Optimizer states'),
    activations: t('figures.part.activations', 'Activations'),
    logits: t('figures.part.logits', 'Logits'),
    gathered_weights: t('figures.part.gathered_weights', 'Gathered weights'),
    temporary: t('figures.part.temporary', 'Temporary buffers'),
    cuda_context: t('figures.part.cuda_context', 'CUDA context'),
    model_flops: t('figures.part.model_flops', 'Model FLOPs'),
    hardware_flops: t('figures.part.hardware_flops', 'Hardware FLOPs'),
  };
}

export interface Part {
  key: PartKey;
  value: number;
  detail?: string;
}

export type Formatter = (value: number) => string;

export function percent(value: number, max: number): string {
  if (!(max > 0) || !(value > 0)) return '0%';
  return `${Math.min(100, (value / max) * 100).toFixed(3)}%`;
}
