// The scenario and estimate shapes, as docs/scenario.md defines them. The page only reads
// estimates and writes scenarios; every figure it shows comes from an Estimate.

export interface Architecture {
  layers: number;
  hidden: number;
  heads: number;
  kv_heads: number;
  mlp: number;
  vocab: number;
  gated_mlp: boolean;
  tied_embeddings: boolean;
  learned_positions: number;
  biases: boolean;
  dropout: boolean;
  experts: number;
  experts_per_token: number;
  assumed?: boolean;
}

export interface ModelSpec {
  preset?: string;
  params?: number;
  architecture?: Partial<Architecture>;
  /** What the learner called the model (a pasted config's name), kept so a shared link shows it. */
  name?: string;
}

export type InferencePrecision = 'fp32' | 'bf16' | 'fp16' | 'fp8' | 'int8' | 'int4';
export type KvPrecision = 'fp32' | 'bf16' | 'fp16' | 'fp8' | 'int8';
export type TrainingPrecision = 'bf16' | 'fp16' | 'fp32';
export type AccountingConvention = 'zero' | 'fp32_gradients';
/** An accounting convention as the engine explains it (docs/model.md §2). */
export interface AccountingChoice {
  id: AccountingConvention;
  label: string;
  explanation: string;
  bytes_per_param?: number;
}
export type Optimizer = 'adamw' | 'adam' | 'sgd_momentum' | 'sgd' | 'adam_8bit' | 'adafactor';
export type Recompute = 'none' | 'selective' | 'full';

export interface Scenario {
  model: ModelSpec;
  inference: { precision: InferencePrecision; kv_precision: KvPrecision; batch: number; context: number };
  training: {
    precision: TrainingPrecision;
    optimizer: Optimizer;
    micro_batch: number;
    sequence: number;
    recompute: Recompute;
    flash_attention: boolean;
    sequence_parallel: boolean;
    tokens: number;
    attention_flops: boolean;
    /** Sequences per optimizer step over all data-parallel replicas; 0: the fewest the layout needs. */
    global_batch?: number;
    /** How model states are tallied: the ZeRO paper's 16 bytes for mixed Adam, or 18 with FP32 gradients. */
    accounting?: AccountingConvention;
    /** full (pre-training or full fine-tuning), lora or qlora (docs/model.md §15). */
    method?: 'full' | 'lora' | 'qlora';
    /** Read for lora and qlora: the adapters' rank and matrices, the frozen base's storage. */
    lora?: { rank: number; targets: string[]; base: string };
    /** none | optimizer | parameters: what lives in CPU memory (docs/model.md §16). */
    offload?: 'none' | 'optimizer' | 'parameters';
    /** How a 16-bit precision holds the weights: master_copy (the lesson's), pure or autocast (docs/model.md §2). */
    precision_recipe?: 'master_copy' | 'pure' | 'autocast';
    /** Whose rules decide what a layer keeps for the backward and the loss (docs/model.md §4). */
    framework?: 'megatron' | 'hugging_face' | 'litgpt' | 'torchtune';
    paged_optimizer?: boolean;
    optimizer_in_backward?: boolean;
  };
  parallel: {
    gpus: number;
    tensor: number;
    pipeline: number;
    interleave: number;
    /** Context parallelism: each sequence split over this many GPUs. */
    context: number;
    /** Expert parallelism: the routed experts split over this many GPUs, carved out of data × context. */
    expert: number;
    /** Layers on the first and last pipeline stage when not layers / pipeline; 0: even stages. */
    first_stage_layers: number;
    last_stage_layers: number;
    zero_stage: number;
  };
  hardware: {
    gpu: string;
    memory_bytes?: number;
    peak_flops?: number;
    watts?: number;
    utilization: number;
    price_per_gpu_hour: number;
  };
}

/** A scenario as it travels (URL hash, embed attributes): any subset of the fields. */
export type PartialScenario = { [K in keyof Scenario]?: Partial<Scenario[K]> };

export interface FieldError {
  field: string;
  message: string;
}

export interface Gpu {
  id: string;
  name: string;
  /** The name without the vendor, for a chart label: "H100 SXM", "A100 SXM 80 GB" (a custom GPU: its name). */
  short_name: string;
  /** Without the memory too, for a label that states it beside: "A100 SXM", "V100". */
  model_name: string;
  memory_bytes: number;
  peak_flops: number;
  watts: number;
  /** Device memory bandwidth, bytes/s (datasheet; for a custom GPU scaled from the H100 SXM's ratio). */
  memory_bandwidth: number;
  source: string;
  /** GPUs joined by the fast link, and bytes/s per GPU and direction within and between nodes (0: not given). */
  gpus_per_node?: number;
  intra_node_bandwidth?: number;
  inter_node_bandwidth?: number;
}

export interface Preset {
  id: string;
  name: string;
  params: number;
  active_params?: number;
  published_params?: number;
  /** The model's published training run, where the engine knows it (0 / "" otherwise). */
  training_tokens?: number;
  training_gpus?: number;
  training_gpu?: string;
  source: string;
  architecture: Architecture;
  /** Its published training runs (docs/model.md §14), each with a scenario that loads it as it was. */
  runs?: TrainingRun[];
}

/** A published training run: its layout as the paper states it, and the scenario that reproduces it. */
export interface TrainingRun {
  id: string;
  name: string;
  gpu: string;
  gpus: number;
  tensor: number;
  pipeline: number;
  context: number;
  expert: number;
  data: number;
  zero_stage: number;
  /** What the engine approximates, when it cannot lay the run out exactly (empty when nothing). */
  note: string;
  source: string;
  scenario: PartialScenario;
}

export interface TrainingComponents {
  weights: number;
  gradients: number;
  master_weights: number;
  optimizer_states: number;
  total: number;
}

export interface PerGpu extends TrainingComponents {
  /** weights + gradients + master_weights + optimizer_states on this GPU, summed by the engine. */
  model_states: number;
  /** Held at the step's peak (docs/model.md §9). */
  activations: number;
  logits: number;
  /** ZeRO-3: other GPUs' slices of the layers gathered at the peak. */
  gathered_weights: number;
  /** ZeRO-2/3: a layer's full gradients, before reduce-scatter, at the peak. */
  temporary: number;
}

/** Bytes one GPU holds after a step event, by component (docs/scenario.md, "Step timeline"). */
export interface StepBytes {
  weights: number;
  gathered_weights: number;
  gradients: number;
  master_weights: number;
  optimizer_states: number;
  activations: number;
  logits: number;
  temporary: number;
  total: number;
}

export type StepPhase = 'gather' | 'forward' | 'loss' | 'recompute' | 'backward' | 'free' | 'reduce_scatter' | 'all_reduce' | 'optimizer';
export type StepBlock = 'layer' | 'embedding' | 'output' | 'all';

export interface StepEvent {
  phase: StepPhase;
  block: StepBlock;
  /** 1-based layer within the GPU's pipeline stage when block is 'layer'; else 0. */
  layer: number;
  /** The last layer a grouped event covers (layer … layer_last); equal to layer for one layer, 0 when not a layer. */
  layer_last: number;
  /** 1-based micro-batch of the step; 0 for per-step events (gradient reduction, optimizer). */
  micro_batch: number;
  /** The last micro-batch a grouped event covers; equal to micro_batch for one. */
  micro_batch_last: number;
  start: number;
  seconds: number;
  held: StepBytes;
}

/** What stepTimeline returns; on bad input only `errors`. */
export interface StepTimeline {
  errors: FieldError[];
  layers?: number;
  prefetch_layers?: number;
  /** Micro-batches in the step; those with events of their own; those the stage holds at once (1F1B). */
  micro_batches?: number;
  micro_batches_shown?: number;
  in_flight?: number;
  micro_batch_seconds?: number;
  compute_seconds?: number;
  optimizer_seconds?: number;
  seconds?: number;
  memory_bandwidth?: number;
  memory_bandwidth_assumed?: boolean;
  peak_event?: number;
  peak_micro_batch?: number;
  peak?: StepBytes;
  events?: StepEvent[];
}

export interface Estimate {
  errors: FieldError[];
  notes: string[];
  /** The scenario as the engine resolved it: every field, defaults filled in (absent on errors). */
  scenario?: Scenario;
  params: number;
  active_params: number;
  architecture: Architecture;
  gpu: Gpu;
  inference: { bytes_per_param: number; weights: number; kv_cache: number; total: number; min_gpus: number };
  /**
   * Section 1's run card: the model run as training holds it (a QLoRA base in 4 bits), else
   * `inference`; training's bytes per parameter over its.
   */
  run_as_trained: {
    bytes_per_param: number;
    weights: number;
    kv_cache: number;
    total: number;
    min_gpus: number;
    ratio_training_to_run: number;
  };
  training: {
    bytes_per_param: TrainingComponents;
    /** One entry per value stored per parameter, for this optimizer and precision (docs/scenario.md). */
    bytes_per_param_parts: BytesPerParamPart[];
    /** The parts written out: "2 + 2 + 4 + 4 + 4 = 16". */
    bytes_per_param_sum: string;
    /** The scenario's accounting convention, named and explained by the engine. */
    accounting?: AccountingChoice;
    /** Every convention for this scenario, with its bytes per parameter: the choice's labels. */
    accounting_choices?: AccountingChoice[];
    model_states: TrainingComponents;
    per_gpu: PerGpu;
    activations_per_layer: number;
    activations_without_recompute: number;
    /** activations_without_recompute − per_gpu.activations, as the engine computes it. */
    activations_saved_by_recompute?: number;
    data_parallel: number;
    /** The sequences "the fewest" global batch (0) resolves to: where its slider starts. */
    fewest_global_batch: number;
    fits: boolean;
    /** THE fewest GPUs to train this scenario: full sharding at its tensor × pipeline; -1 when none fits.
     *  Every figure answering "how few GPUs" quotes this field of this scenario's estimate. */
    min_gpus: number;
    /** A floor: GPUs whose memory the model states alone fill. Not the fewest GPUs to train. */
    min_gpus_for_states?: number;
    /** What a GPU process holds beside its tensors (docs/model.md §9): the CUDA context, the
     *  allocator's reserve, the peak as allocated, reserved and in use (nvidia-smi). */
    overhead?: {
      cuda_context: number;
      allocator_reserve: number;
      allocated: number;
      reserved: number;
      in_use: number;
      memory_for_tensors: number;
    };
    /** What CPU memory holds and what crosses PCIe each step (docs/scenario.md, training.offload). */
    offload?: {
      mode: 'none' | 'optimizer' | 'parameters';
      cpu_per_gpu: { weights: number; gradients: number; master_weights: number; optimizer_states: number; total: number };
      gpus_per_node: number;
      cpu_bytes_per_node: number;
      to_cpu_bytes: number;
      to_gpu_bytes: number;
      pcie_bandwidth: number;
      pcie_seconds: number;
    };
    /** What is trained and how the base is stored (docs/scenario.md, training.fine_tuning). */
    fine_tuning?: {
      method: 'full' | 'lora' | 'qlora';
      trainable_params: number;
      frozen_params: number;
      adapter_params: number;
      base_storage: string;
      base_bytes_per_param: number;
      base_weights: number;
      checkpoint_bytes: number;
    };
  };
  ratio_training_to_inference: number;
  compute: {
    /** Which tokens the run counts and where they come from, in the current language (docs/model.md §15). */
    tokens_origin: string;
    flops: number;
    /** The equation's terms and words (docs/model.md §6, §15): 6 × parameters, or 4 × frozen + 6 × adapter parameters. */
    flops_rule: {
      terms: Array<{ factor: number; params: number; unit: string }>;
      attention: boolean;
      sentence: string;
      why: string;
      /** The answer to `why`, a paragraph; and the rule with the time it gives, as one line. */
      explanation: string;
      formula: string;
    };
    hardware_flops: number;
    recompute_overhead: number;
    seconds: number;
    gpu_hours: number;
    mfu: number;
    seconds_on_one_gpu: number;
    cost: number;
    energy_joules: number;
    /** The time at each GPU slider stop and at the scenario's own count, fewest GPUs first. */
    time_over_gpus: Array<{ gpus: number; seconds: number }>;
    /** A day, a month, a year, a lifetime: the curve's reference lines, labelled by the engine. */
    time_references: Array<{ seconds: number; label: string }>;
    /** The lesson's cluster: Llama 3 405B's 16,384 GPUs. */
    lesson_cluster_gpus: number;
    /** The second curve: the same run with communication and the bubble, on the counts the layout divides. */
    time_over_gpus_communication?: Array<{ gpus: number; seconds: number; predicted_mfu: number; dominant: string }>;
  };
  /** What a step waits for beyond its arithmetic (docs/model.md §13). */
  communication?: Communication;
  /** One training step on one GPU (docs/model.md §9); the events come from stepTimeline. */
  step: {
    seconds: number;
    compute_seconds: number;
    optimizer_seconds: number;
    memory_bandwidth: number;
    layers: number;
    prefetch_layers: number;
    events: number;
    /** = training.per_gpu.total */
    peak_bytes: number;
    peak_event: number;
    peak_phase: StepPhase;
    peak_block: StepBlock;
    peak_layer: number;
    peak_micro_batch?: number;
    micro_batches?: number;
    in_flight?: number;
    micro_batch_seconds?: number;
  };
}

/** One communication term of a step, per GPU: the whole transfer and what compute does not hide. */
export interface CommunicationTerm {
  id: string;
  label: string;
  seconds: number;
  exposed_seconds: number;
}

/** One stretch of the modelled step: `compute` or a term's id, for a micro-batch or a run of them (0: the step's own). */
export interface CommunicationPhase {
  phase: string;
  micro_batch: number;
  micro_batch_last: number;
  start: number;
  seconds: number;
}

export interface Communication {
  arithmetic_efficiency: number;
  predicted_mfu: number;
  achieved_mfu: number;
  micro_batches: number;
  compute_seconds: number;
  step_seconds: number;
  /** The run at the predicted utilisation (what "What fits" shows): time, GPU-hours, cost. */
  run_seconds: number;
  gpu_hours: number;
  cost: number;
  exposed_seconds: number;
  dominant: string;
  dominant_label: string;
  terms: CommunicationTerm[];
  schedule: CommunicationPhase[];
  stops_paying_gpus: number;
  stops_paying_dominant: string;
  /** One sentence: what dominates, predicted beside used utilisation, where the curve stops paying. */
  summary: string;
}

/** What a typed quantity measures (docs/numbers.md); the second name of each pair is an alias. */
export type QuantityKind =
  | 'number'
  | 'count'
  | 'memory'
  | 'bytes'
  | 'compute'
  | 'flops'
  | 'rate'
  | 'flop_rate'
  | 'time'
  | 'duration'
  | 'seconds'
  | 'gpus'
  | 'percent'
  | 'fraction';

/** How the engine writes a figure (docs/numbers.md). The QuantityKind names work too. */
export type FigureName =
  | 'count'
  | 'count_short'
  | 'integer'
  | 'plain'
  | 'scientific'
  | 'bytes'
  | 'flops'
  | 'flop_rate'
  | 'duration'
  | 'gpus'
  | 'sequences'
  | 'tokens'
  | 'parameters'
  | 'percent'
  | 'ratio'
  | 'energy'
  | 'money'
  | 'number'
  | 'memory'
  | 'compute'
  | 'rate'
  | 'time'
  | 'seconds'
  | 'fraction';

/** One numeric scenario field's range, as the engine validates it. */
/** One value a choice field offers, with the engine's words for it (docs/scenario.md, "Choices"). */
export interface Choice {
  value: string | number;
  label: string;
  /** A few words beside the label (radio buttons). */
  hint?: string;
  /** The label and hint as one, for a drop-down (ZeRO stages). */
  short?: string;
  /** training.lora.base: whether QLoRA takes it (the NF4 storages). */
  qlora?: boolean;
  /** training.offload: the least ZeRO stage it runs with. */
  zero_stage?: number;
}

/** Every choice field's values, by field path ("training.optimizer"), in the order a page lists them. */
export type Choices = Readonly<Record<string, readonly Choice[]>>;

/** A lesson's starting scenario: what the "start from the lesson" buttons load. */
export interface Story {
  id: string;
  label: string;
  scenario: PartialScenario;
  /** Where its figures come from, in a sentence. */
  source: string;
  /** The lesson part whose figure tells the story: the page lands there when the story is loaded. */
  lands_on: string;
}

/** Sentences the engine writes for the scenario on screen that are not figures of the estimate. */
export interface ViewText {
  /** The ZeRO stages' per-GPU bytes for the bytes per parameter in use: "stage 0 16Ψ; …". */
  zero_formula: string;
  /** Why the scenario's ZeRO stage shards nothing (one data-parallel GPU); empty when it shards. */
  zero_unsharded?: string;
}

/** What the engine says a field's slider spans (its field limits' `slider`). */
export interface SliderRange {
  scale: 'log' | 'linear' | 'powers_of_two';
  min: number;
  max: number;
  /** Stops per factor of ten (log) or the step (linear). */
  stops: number;
}

export interface FieldLimit {
  min: number;
  max: number;
  /** The kind its typed text is read as and its limits are written in. */
  kind: 'number' | 'memory' | 'compute' | 'rate' | 'time' | 'gpus' | 'percent';
  integer: boolean;
  /** The stretch its slider moves through, for fields with a slider. */
  slider?: SliderRange;
}

/** Keyed by dotted field path: "parallel.gpus", "hardware.memory_bytes", … */
export type FieldLimits = Readonly<Record<string, FieldLimit>>;

/** One value stored per parameter in training ("first moment (m)", FP32, 4 bytes). */
export interface BytesPerParamPart {
  /** The bytes_per_param field it belongs to. */
  part: 'weights' | 'gradients' | 'master_weights' | 'optimizer_states';
  label: string;
  /** The number format each value is stored in: 'fp32', 'bf16', 'int8', … */
  format: string;
  bytes: number;
}

/** A number format and what one value costs: {id: 'bf16', name: 'BF16', bytes: 2, label: 'BF16 (2 bytes)'}. */
export interface NumberFormatInfo {
  id: string;
  name: string;
  bytes: number;
  label: string;
}

/** How close the engine is to measured runs (docs/validation.md): its validation table's summary line. */
export interface ValidationSummary {
  /** Runs the engine models: a measured peak or an out-of-memory outcome. */
  runs_compared: number;
  /** Of those, runs that ran and published their peak. */
  runs_with_peak: number;
  /** Independent projects the runs come from. */
  projects: number;
  /** Median |engine − measured| / measured over the runs with a peak (0.087 for 8.7%). */
  median_error: number;
  /** The largest of those errors. */
  worst_error: number;
  /** Fits / out-of-memory verdicts the engine gets wrong. */
  verdicts_wrong: number;
}
