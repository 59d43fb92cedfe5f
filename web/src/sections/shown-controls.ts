// Which scenario fields a widget offers a control for, by the sections it shows: the engine's notes
// name only these (src/engine/model/estimate.hpp, shown_controls), so a sections="time" widget is
// never told to turn on a checkpointing it does not show.

const MODEL_FIELDS = ['model.preset', 'model.params'];

// Sections 1–4 and 6: memory, activations, the step, sharding, your own config.
const MEMORY_FIELDS = [
  'inference.batch',
  'inference.context',
  'inference.kv_precision',
  'inference.precision',
  'training.accounting',
  'training.optimizer',
  'training.precision',
  'training.flash_attention',
  'training.global_batch',
  'training.micro_batch',
  'training.recompute',
  'training.sequence',
  'training.sequence_parallel',
  'parallel.gpus',
  'parallel.zero_stage',
  'parallel.tensor',
  'parallel.pipeline',
  'parallel.interleave',
  'parallel.context',
  'parallel.expert',
];

// Section 5: time and cost.
const TIME_FIELDS = [
  'hardware.gpu',
  'hardware.memory_bytes',
  'hardware.peak_flops',
  'hardware.price_per_gpu_hour',
  'hardware.utilization',
  'training.attention_flops',
  'training.tokens',
  'parallel.gpus',
];

// Section 6, what fits: your GPUs and your goal, with the method's own settings.
const FIT_FIELDS = [
  'hardware.gpu',
  'hardware.memory_bytes',
  'parallel.gpus',
  'training.method',
  'training.lora.rank',
  'training.lora.targets',
  'training.lora.base',
  'training.offload',
];

/** The fields, separated by spaces, as the engine's view request takes them. */
export function shownControls(sections: { memory: boolean; time: boolean; fit: boolean }): string {
  const fields = new Set<string>();
  if (sections.memory || sections.time || sections.fit) for (const field of MODEL_FIELDS) fields.add(field);
  if (sections.fit) for (const field of FIT_FIELDS) fields.add(field);
  if (sections.memory) for (const field of MEMORY_FIELDS) fields.add(field);
  if (sections.time) for (const field of TIME_FIELDS) fields.add(field);
  return [...fields].join(' ');
}
