// Which scenario fields a widget offers a control for, by the parts it shows: the engine's notes
// name only these (src/engine/model/estimate.hpp, shown_controls), so a note never sends a learner
// to a control that is not there — nor to a deeper tool still closed below the lesson.

const PART_FIELDS: Readonly<Record<string, readonly string[]>> = {
  // The lesson path (widget/parts-plan.ts).
  'run-vs-train': ['model.preset', 'model.params'],
  'training-extras': ['model.preset', 'model.params', 'training.optimizer'],
  'sharding-checkpointing': ['model.preset', 'model.params', 'parallel.zero_stage', 'parallel.gpus', 'training.recompute'],
  'compute-time': ['model.preset', 'model.params', 'training.tokens', 'parallel.gpus'],
  // The deeper parts, once drawn.
  precision: [
    'inference.batch',
    'inference.context',
    'inference.kv_precision',
    'inference.precision',
    'training.accounting',
    'training.optimizer',
    'training.precision',
    'training.precision_recipe',
    'training.framework',
    'training.paged_optimizer',
    'training.optimizer_in_backward',
  ],
  activations: ['training.micro_batch', 'training.global_batch', 'training.sequence', 'training.recompute', 'training.flash_attention'],
  step: ['training.recompute', 'parallel.zero_stage', 'parallel.gpus'],
  layouts: [
    'parallel.gpus',
    'parallel.zero_stage',
    'parallel.tensor',
    'parallel.pipeline',
    'parallel.interleave',
    'parallel.context',
    'parallel.expert',
    'training.sequence_parallel',
  ],
  'time-over-gpus': [
    'hardware.gpu',
    'hardware.memory_bytes',
    'hardware.peak_flops',
    'hardware.price_per_gpu_hour',
    'hardware.utilization',
    'training.attention_flops',
    'training.tokens',
    'parallel.gpus',
  ],
  fit: [
    'model.preset',
    'hardware.gpu',
    'hardware.memory_bytes',
    'parallel.gpus',
    'training.method',
    'training.lora.rank',
    'training.lora.targets',
    'training.lora.base',
    'training.offload',
  ],
  'your-model': [],
};

/** The fields the drawn parts offer controls for, separated by spaces, as the engine's view request takes them. */
export function shownControls(parts: Iterable<string>): string {
  const fields = new Set<string>();
  for (const part of parts) for (const field of PART_FIELDS[part] ?? []) fields.add(field);
  return [...fields].sort().join(' ');
}
