// Fine-tuning methods (docs/model.md §15): full fine-tuning trains every weight; LoRA freezes the
// base and trains low-rank adapters beside chosen matrices; QLoRA also stores the frozen base in
// 4-bit NormalFloat. Frozen weights keep no gradients, master copy or optimizer states.
#pragma once

#include "engine/model/memory.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

struct FineTuningFigures {
    double trainable_params = 0;      // the adapters (LoRA, QLoRA), or every parameter (full)
    double frozen_params = 0;         // the base's parameters that get no gradient
    double adapter_params = 0;        // r·(d_in + d_out) for every adapted matrix; 0 for full
    double quantized_params = 0;      // base parameters stored in the base format (the linear layers)
    double base_bytes_per_param = 0;  // bytes per quantized base parameter (NF4 + double quantisation: 4.127 bits)
    double base_weights_bytes = 0;    // the whole frozen base as stored (embeddings and norms stay 16-bit)
    double checkpoint_bytes = 0;      // what a fine-tuning run saves: the 16-bit adapters, or the whole model
    BytesPerParam trainable_bytes;    // per trainable parameter: the optimizer's and precision's tally
};

// LoRA (Hu et al. 2021 §4.1): adapters A (d_in × r) and B (r × d_out) beside each targeted matrix.
double lora_adapter_params(const Architecture& architecture, double rank, unsigned targets);

// Bytes per stored base value: 16-bit; LLM.int8 (1 byte); NF4 with an FP32 absmax per 64 values;
// NF4 with the absmax values quantised to 8 bits per 256 (QLoRA §3: 4.127 bits).
double base_storage_bytes_per_param(BaseStorage storage);

// The method's figures for `parameters` base parameters (params.total) of `architecture`.
FineTuningFigures fine_tuning_figures(const TrainingSettings& training, const Architecture& architecture,
                                      double parameters);

// The model states' bytes per base parameter, averaged so that bytes × params.total is what the
// GPUs hold: the frozen base at its storage width, the adapters with every state (full: unchanged).
BytesPerParam fine_tuned_bytes_per_param(const FineTuningFigures& figures, double parameters);

}  // namespace trainscope
