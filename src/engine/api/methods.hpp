// Full fine-tuning, LoRA and QLoRA side by side for one scenario's model and GPUs (docs/scenario.md,
// "Fine-tuning methods side by side"): the page's comparison asks here, not three estimates of its own.
#pragma once

#include <string>
#include <string_view>

namespace trainscope {

// A scenario → {errors, notes, methods: [{method, label, current, fits, memory_bytes, peak_bytes,
// per_gpu: {weights, gradients, master_weights, optimizer_states, activations, other}, params,
// trainable_params, base_storage, base_bytes_per_param, checkpoint_bytes, tokens, run_seconds, gpu_hours,
// scenario}]}, in the order full, lora, qlora. Never throws; bad input gives {errors, notes} only.
std::string fine_tuning_methods_json(std::string_view scenario_json);

}  // namespace trainscope
