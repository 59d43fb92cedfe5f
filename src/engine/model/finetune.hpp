// Fine-tuning methods (docs/model.md §15): full fine-tuning trains every weight; LoRA freezes the
// base and trains low-rank adapters beside chosen matrices; QLoRA also stores the frozen base in
// 4-bit NormalFloat. Frozen weights keep no gradients, master copy or optimizer states.
#pragma once

#include <string>

#include "engine/model/memory.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

struct FineTuningFigures {
    double trainable_params = 0;       // the adapters (LoRA, QLoRA), or every parameter (full)
    double frozen_params = 0;          // the base's parameters that get no gradient
    double adapter_params = 0;         // r·(d_in + d_out) for every adapted matrix; 0 for full
    double quantized_params = 0;       // base parameters stored in the base format (the linear layers)
    double base_bytes_per_param = 0;   // bytes per quantized base parameter (NF4 + double quantisation: 4.127 bits)
    double base_weights_bytes = 0;     // the whole frozen base as stored (embeddings and norms stay 16-bit)
    double dequantized_in_flight = 0;  // a quantized base: one linear's weight dequantized to 16 bits for its matmul
    double checkpoint_bytes = 0;       // what a fine-tuning run saves: the 16-bit adapters, or the whole model
    BytesPerParam trainable_bytes;     // per trainable parameter: the optimizer's and precision's tally
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

// A published fine-tuning run, the tokens a LoRA or QLoRA scenario trains on when the learner sets
// none (docs/model.md §15): QLoRA's Guanaco 65B on OASST1 (Dettmers et al. 2023 §5; its script
// scripts/finetune_guanaco_65b.sh: 1,875 steps of 4 × 4 sequences, at most 16 + 512 tokens each).
struct FineTuningRun {
    double steps = 0;
    double sequences_per_step = 0;
    double tokens_per_sequence = 0;  // the run's length limit: every sequence counted in full
    double tokens() const { return steps * sequences_per_step * tokens_per_sequence; }
};
const FineTuningRun& default_fine_tuning_run();

// Whether a method fine-tunes a frozen base (lora, qlora): its tokens default to a fine-tuning run's,
// full training's to the preset's pre-training run (docs/scenario.md, training.tokens).
bool trains_adapters(FineTuningMethod method);

// The tokens a scenario takes when the learner gave none, and where they come from.
void apply_default_tokens(Scenario& scenario);

// Tokens the scenario states: named by the default they equal, so that a written scenario (a loaded
// layout, a quiz item) reads back with the same words; else the learner's own.
void name_given_tokens(Scenario& scenario);

// The scenario trained with `method`, as the page's method control would leave it: LoRA on a 16-bit
// base, QLoRA on NF4 with double quantisation unless the scenario already uses that method; moving
// between full training and LoRA/QLoRA changes the goal, so the tokens become the new method's
// default; LoRA ↔ QLoRA keeps them (the same fine-tuning data).
Scenario with_fine_tuning_method(const Scenario& scenario, FineTuningMethod method);

// Which tokens the run counts, in the current language (the time section's sentence). A
// pre-training run's adds that LoRA and QLoRA count other tokens only where the reader can choose
// them (`methods_shown`): the lesson's time part names no method it does not show.
std::string tokens_origin_sentence(const Scenario& scenario, bool methods_shown = true);

}  // namespace trainscope
