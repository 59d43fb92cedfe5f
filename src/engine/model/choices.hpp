// The choices a scenario field offers, with the words a page shows for each (docs/scenario.md,
// "Choices"), the ZeRO stages' per-GPU formula for the bytes per parameter in use, and the
// lesson's starting scenarios. Data with a reason per row, in the current language.
#pragma once

#include <string>

#include "engine/model/memory.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

// {"training.precision": [{value, label, hint?}], "training.optimizer": …, "inference.precision": …,
//  "inference.kv_precision": …, "training.recompute": …, "training.method": …, "parallel.zero_stage": [{value, label,
//  hint, short}]}: every choice field's values in the order a page lists them.
std::string choices_json();

// The interleaved (virtual) stages per GPU a page offers and the fit search proposes: plain 1F1B,
// and Megatron's interleaved schedule at the sizes its papers and runs use (Narayanan et al. 2021
// §2.2.2; Llama 3 405B's 8, Meta 2024 §3.3.2). One list, so that a layout the search loads is one
// the page's control can show (issue 33).
inline constexpr double interleave_stops[] = {1, 2, 3, 4, 8};
bool is_interleave_stop(double interleave);

// "Full fine-tuning / pre-training", "LoRA", "QLoRA": a training method's name on a page (also the
// label of training.method's choices).
std::string fine_tuning_method_label(FineTuningMethod method);

// "per GPU, d data-parallel GPUs: stage 0 16Ψ; stage 1 4Ψ + 12Ψ/d; …" for these bytes per
// parameter (ZeRO §5.1–5.3, docs/model.md §3: each stage shards one more kind of state over d).
std::string zero_stage_formula(const BytesPerParam& bytes);

// Why a ZeRO stage shards nothing at this layout: empty unless stage > 0 and there is one
// data-parallel GPU (ZeRO §5: every stage shares states out over the data-parallel group only).
std::string zero_unsharded_sentence(int zero_stage, double data_parallel);

// The lesson's starting scenarios: [{id, label, scenario, source}], their published figures read
// from the model presets (model.hpp).
std::string stories_json();

}  // namespace trainscope
