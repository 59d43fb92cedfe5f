// Memory to run and to train: model states, their sharding, activations, the KV cache.
#pragma once

#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

// Bytes each parameter costs in the model states, by component.
struct BytesPerParam {
    double weights = 0;
    double gradients = 0;
    double master_weights = 0;
    double optimizer_states = 0;
    double total() const { return weights + gradients + master_weights + optimizer_states; }
};

struct ModelStateBytes {
    double weights = 0;
    double gradients = 0;
    double master_weights = 0;
    double optimizer_states = 0;
    double total() const { return weights + gradients + master_weights + optimizer_states; }
};

// ZeRO §3.1 (Rajbhandari et al. 2019) and mixed precision (Micikevicius et al. 2018):
// 16-bit weights and gradients, an FP32 master copy, FP32 optimizer moments.
// `parameters` and `architecture` matter only for Adafactor, whose factored state is per matrix.
BytesPerParam training_bytes_per_param(const TrainingSettings& training, const Architecture& architecture,
                                       double parameters);

// Model states on one GPU: first split by tensor × pipeline, then sharded over the data-parallel
// degree by ZeRO stage (ZeRO §5: stage 1 optimizer states, 2 + gradients, 3 + parameters).
ModelStateBytes per_gpu_model_states(const BytesPerParam& bytes_per_param, double parameters,
                                     double model_parallel_degree, double data_parallel_degree, int zero_stage);

// The same for a whole layout (docs/model.md §11): t·p split everything, expert parallelism e
// splits the routed experts further; ZeRO shards over d·c, the routed experts' states over d·c/e.
ModelStateBytes per_gpu_model_states(const BytesPerParam& bytes_per_param, const ParameterCount& params,
                                     const ParallelSettings& parallel);

struct ActivationBytes {
    double per_layer = 0;      // one transformer layer, one micro-batch, on one GPU
    double layers = 0;         // what the busiest pipeline stage keeps in flight
    double logits = 0;         // the output layer's FP32 logits, on the last stage
    double micro_batches = 1;  // per step on each data-parallel replica (micro_batches_per_step)
    double in_flight = 1;      // micro-batches whose activations the reported stage holds at once
    double total() const { return layers + logits; }
};

// Micro-batches one data-parallel replica runs per optimizer step (docs/model.md §4): the global
// batch over micro-batch × data-parallel degree, rounded up; without a global batch, one, or with
// a pipeline as many as its stages (the fewest that fill 1F1B's warm-up).
double micro_batches_per_step(const TrainingSettings& training, const ParallelSettings& parallel);

// The temporary the optimizer step allocates, as a share of the optimizer's states on this GPU
// (docs/model.md §9): PyTorch's torch.optim.AdamW, as eager frameworks run it, one moment's worth.
double optimizer_step_temporary_share(const TrainingSettings& training);

// Korthikanti et al. 2022, Table 2 (docs/model.md §4), for the scenario's block, parallelism and recompute.
ActivationBytes training_activations(const Architecture& architecture, const TrainingSettings& training,
                                     const ParallelSettings& parallel);

// training_activations for recompute none, selective and full (indexed by Recompute), bit for bit,
// with the layer's terms worked out once: what the inverse search needs per shape (docs/model.md §17).
void training_activations_by_recompute(const Architecture& architecture, const TrainingSettings& training,
                                       const ParallelSettings& parallel, ActivationBytes (&by_recompute)[3]);

struct InferenceBytes {
    double bytes_per_param = 0;
    double weights = 0;
    double kv_cache = 0;
    double total() const { return weights + kv_cache; }
};

// Values the KV cache keeps per token of a `context`-token sequence, all layers (docs/model.md §5, §12).
double kv_cache_values_per_token(const Architecture& architecture, double context);

// docs/model.md §5: weights N·bytes + KV cache 2·L·b·s·a_kv·(h/a)·bytes.
InferenceBytes inference_memory(const Architecture& architecture, double parameters,
                                const InferenceSettings& inference);

}  // namespace trainscope
