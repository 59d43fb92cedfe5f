#include "engine/model/estimate.hpp"

#include <cmath>
#include <utility>

#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

namespace {

// Fewest GPUs that hold `bytes` when each holds at most `capacity`; -1 when none can.
double gpus_to_hold(double bytes, double capacity) {
    if (capacity <= 0) return -1;
    return std::fmax(1.0, std::ceil(bytes / capacity));
}

// Whether `shown_controls` (every_control, or field paths separated by spaces) holds `field`.
bool shows(std::string_view shown_controls, std::string_view field) {
    if (shown_controls == every_control) return true;
    std::size_t start = 0;
    while (start <= shown_controls.size()) {
        std::size_t end = shown_controls.find(' ', start);
        if (end == std::string_view::npos) end = shown_controls.size();
        if (shown_controls.substr(start, end - start) == field) return true;
        start = end + 1;
    }
    return false;
}

std::string overflow_bytes(double value) { return quantity::format(value, quantity::Figure::bytes); }

// What fills the step's fullest moment that no split over more GPUs reaches (docs/model.md §9).
std::vector<std::string> overflow_parts(const StepBytes& fullest) {
    std::vector<std::string> parts;
    if (fullest.activations > 0)
        parts.push_back(message("estimate.overflow.part.activations", "activations {bytes}",
                                {{"bytes", overflow_bytes(fullest.activations)}}));
    if (fullest.logits > 0)
        parts.push_back(message("estimate.overflow.part.logits", "the scores over the vocabulary (logits) {bytes}",
                                {{"bytes", overflow_bytes(fullest.logits)}}));
    if (fullest.gathered_weights > 0)
        parts.push_back(message("estimate.overflow.part.gathered_weights",
                                "the full weights of the layers at work {bytes}",
                                {{"bytes", overflow_bytes(fullest.gathered_weights)}}));
    if (fullest.temporary > 0)
        parts.push_back(message("estimate.overflow.part.temporary",
                                "a layer's whole gradients before they are split up {bytes}",
                                {{"bytes", overflow_bytes(fullest.temporary)}}));
    return parts;
}

// What more GPUs split at the scenario's ZeRO stage (docs/model.md §11), and what a higher stage
// would split; the stage is named only where the reader can change it.
std::string stage_sentence(int zero_stage, bool stage_shown) {
    switch (zero_stage) {
        case 0:
            return stage_shown ? message("estimate.note.stage0",
                                         "At ZeRO stage 0 every GPU keeps all the weights, gradients and optimizer "
                                         "states, so more GPUs alone do not make them smaller; a higher ZeRO stage "
                                         "splits them across the GPUs.")
                               : message("estimate.note.stage0_unnamed",
                                         "Every GPU keeps all the weights, gradients and optimizer states here, so "
                                         "more GPUs alone do not make them smaller.");
        case 1:
            return stage_shown
                       ? message("estimate.note.stage1",
                                 "At ZeRO stage 1 more GPUs split only the optimizer states; ZeRO stage 3 "
                                 "would split the weights and gradients too.")
                       : message("estimate.note.stage1_unnamed", "More GPUs split only the optimizer states here.");
        case 2:
            return stage_shown ? message("estimate.note.stage2",
                                         "At ZeRO stage 2 more GPUs split the gradients and optimizer states; ZeRO "
                                         "stage 3 would split the weights too.")
                               : message("estimate.note.stage2_unnamed",
                                         "More GPUs split the gradients and optimizer states here.");
        default:
            return stage_shown ? message("estimate.note.stage3",
                                         "At ZeRO stage 3 more GPUs split the weights, gradients and optimizer states.")
                               : message("estimate.note.stage3_unnamed",
                                         "More GPUs split the weights, gradients and optimizer states here.");
    }
}

// The remedies the scenario has not used yet, among the controls the reader can change.
std::vector<std::string> overflow_remedies(const Scenario& scenario, const StepBytes& fullest,
                                           std::string_view shown_controls) {
    const TrainingSettings& training = scenario.training;
    std::vector<std::string> remedies;
    auto offer = [&](std::string_view field, std::string text) {
        if (shows(shown_controls, field)) remedies.push_back(std::move(text));
    };
    // Activation remedies only where activations and logits are most of what overflows.
    if (fullest.activations + fullest.logits >= fullest.gathered_weights + fullest.temporary) {
        if (training.recompute != Recompute::full)
            offer("training.recompute", message("estimate.remedy.full_checkpointing", "full activation checkpointing"));
        if (!training.flash_attention && training.recompute == Recompute::none)
            offer("training.flash_attention", message("estimate.remedy.flash_attention", "FlashAttention"));
        if (training.micro_batch > 1)
            offer("training.micro_batch", message("estimate.remedy.smaller_micro_batch", "a smaller micro-batch"));
        offer("training.sequence", message("estimate.remedy.shorter_sequences", "shorter sequences"));
    }
    if (!shows(shown_controls, "parallel.tensor")) return remedies;
    if (!training.sequence_parallel || scenario.parallel.tensor == 1)
        offer("training.sequence_parallel",
              message("estimate.remedy.sequence_parallelism", "tensor parallelism with sequence parallelism"));
    else
        remedies.push_back(message("estimate.remedy.more_tensor_parallelism", "more tensor parallelism"));
    return remedies;
}

// Says, plainly and true for the scenario's ZeRO stage, why no number of GPUs makes training fit:
// what the step's fullest moment holds that no split reaches. Its advice names only remedies the
// scenario has not used yet and the reader can choose, so it is always actionable; with none, it
// gives none.
std::string overflow_note(const Scenario& scenario, const StepBytes& fullest, std::string_view shown_controls) {
    const double memory = scenario.hardware.gpu.memory_bytes;
    const std::vector<std::string> parts = overflow_parts(fullest);
    std::string note;
    if (parts.size() == 1 && fullest.activations > 0) {
        note = message("estimate.note.activations_overflow",
                       "At the busiest moment of a step the activations alone ({activations}) are more than one "
                       "GPU's {memory}, and more GPUs do not split them, so no number of GPUs makes training fit.",
                       {{"activations", overflow_bytes(fullest.activations)}, {"memory", overflow_bytes(memory)}});
    } else {
        note = stage_sentence(scenario.parallel.zero_stage, shows(shown_controls, "parallel.zero_stage")) + " " +
               message("estimate.note.unsplittable_overflow",
                       "Even with them split over any number of GPUs, at the busiest moment of a step one GPU still "
                       "holds {total} that no split reaches ({parts}), more than its {memory}, so no number of GPUs "
                       "makes training fit.",
                       {{"total", overflow_bytes(fullest.total())},
                        {"parts", join_list(parts, ListJoin::and_)},
                        {"memory", overflow_bytes(memory)}});
    }
    const std::vector<std::string> remedies = overflow_remedies(scenario, fullest, shown_controls);
    if (remedies.empty()) return note;
    return note + " " +
           message("estimate.note.shrink", "Shrink it with {remedies}.",
                   {{"remedies", join_list(remedies, ListJoin::or_)}});
}

// The fewest GPUs at this t and p with which ZeRO-3 training fits: the step's peak must fit. At
// every event a GPU holds S/d of the model states S, plus its activations, logits and temporary
// buffers (which do not depend on d), plus (d−1)/d of the gathered weights g (docs/model.md §9):
// S/d + other + g·(d−1)/d ≤ M, so d ≥ (S − g)/(M − other − g). One timeline with d near infinity
// gives each event's `other` and g. −1 when even then some event overflows a GPU.
double fewest_gpus_fully_sharded(const Scenario& scenario, const Estimate& result, double memory_per_gpu,
                                 double kept_on_gpu, StepBytes& fullest) {
    const TrainingMemory& training = result.training;
    const double model_parallel = scenario.parallel.tensor * scenario.parallel.pipeline;
    constexpr double huge_data_parallel = 1099511627776.0;  // 2^40: (d−1)/d is 1 to 12 digits
    Scenario sharded = scenario;
    sharded.parallel.zero_stage = 3;
    sharded.parallel.gpus = model_parallel * scenario.parallel.context * huge_data_parallel;
    ShardingLimit limit;
    limit.memory = memory_per_gpu;
    // Offloaded states (docs/model.md §16) stay in CPU memory whatever d: the GPU keeps its share.
    limit.states = training.model_states.total() / model_parallel * kept_on_gpu;
    // docs/model.md §9: PyTorch's AdamW steps with one more moment's worth (none when offloaded).
    limit.step_temporary =
        training.model_states.optimizer_states / model_parallel * optimizer_step_temporary_share(scenario.training);
    // The activations (and their micro-batches in flight) are the scenario's own, not d → ∞'s.
    step_timeline(sharded, result.params, training.bytes_per_param, ModelStateBytes{}, training.activations,
                  result.compute, StepDetail::peak, &limit);
    fullest = limit.fullest;
    if (limit.overflows) return -1;
    // ZeRO-3 shards over the d·c ranks (docs/model.md §11): a whole number of context-parallel
    // groups, and of expert-parallel groups, which are carved out of them.
    const double c = scenario.parallel.context, e = scenario.parallel.expert;
    double unit = c;
    while (std::fmod(unit, e) != 0) unit += c;  // lcm(c, e): both at most 10^5
    return std::ceil(limit.data_parallel / unit) * unit * model_parallel;
}

}  // namespace

Estimate estimate(const Scenario& scenario, StepDetail detail, EstimateParts parts, std::string_view shown_controls) {
    Estimate result;
    result.parts = parts;
    const ModelChoice& model = scenario.model;
    result.architecture = model.architecture;
    if (model.architecture_assumed) {
        result.params.total = result.params.active = model.given_params;
        result.notes.push_back(message("estimate.note.params_only",
                                       "Only a parameter count was given: activations and the KV cache assume a "
                                       "Llama-style shape with hidden size 128 × layers."));
    } else {
        result.params = count_parameters(model.architecture);
    }
    const double parameters = result.params.total;
    // docs/model.md §9: the tensors have what the driver reports less the CUDA context.
    const double memory_per_gpu = tensor_memory_bytes(scenario.hardware.gpu);

    result.inference = inference_memory(model.architecture, parameters, scenario.inference);
    result.inference_min_gpus = gpus_to_hold(result.inference.total(), memory_per_gpu);

    TrainingMemory& training = result.training;
    const ParallelSettings& parallel = scenario.parallel;
    training.data_parallel = parallel.data_parallel();
    // docs/model.md §15: frozen base weights keep no gradients or optimizer states; full
    // fine-tuning's bytes are training_bytes_per_param's, unchanged.
    result.fine_tuning = fine_tuning_figures(scenario.training, model.architecture, parameters);
    // The model as training holds it, run: a model fine-tuned on a quantized base (QLoRA, Dettmers
    // et al. 2023 §3) runs from its 4-bit base with 16-bit embeddings and head, never taking more
    // bytes per weight than training held (issue 33, item 5: the run card kept 2 B/param beside a
    // 4-bit base). Otherwise the inference settings' run, unchanged.
    result.run_as_trained = result.inference;
    result.run_as_trained_min_gpus = result.inference_min_gpus;
    if (trains_adapters(scenario.training.method) && result.fine_tuning.base_weights_bytes > 0 &&
        result.fine_tuning.base_weights_bytes < result.inference.weights) {
        result.run_as_trained.weights = result.fine_tuning.base_weights_bytes;
        result.run_as_trained.bytes_per_param = result.run_as_trained.weights / parameters;
        result.run_as_trained_min_gpus = gpus_to_hold(result.run_as_trained.total(), memory_per_gpu);
    }
    training.bytes_per_param = fine_tuned_bytes_per_param(result.fine_tuning, parameters);
    training.model_states = per_gpu_model_states(training.bytes_per_param, parameters, 1, 1, 0);
    training.per_gpu_states = per_gpu_model_states(training.bytes_per_param, result.params, parallel);
    training.activations = training_activations(model.architecture, scenario.training, parallel);
    // docs/model.md §16: what moves to CPU memory no longer counts against the GPU's.
    const double states_before_offload = training.per_gpu_states.total();
    result.offload = offload_states(scenario, training.bytes_per_param, result.fine_tuning.trainable_bytes,
                                    result.params, training.activations.micro_batches, training.per_gpu_states);
    const double kept_on_gpu =
        states_before_offload > 0 ? training.per_gpu_states.total() / states_before_offload : 1.0;
    TrainingSettings without_recompute = scenario.training;
    without_recompute.recompute = Recompute::none;
    training.activations_without_recompute =
        training_activations(model.architecture, without_recompute, parallel).layers;

    training.min_gpus_for_states = gpus_to_hold(training.model_states.total(), memory_per_gpu);

    result.compute = training_compute(model.architecture, result.params.active, scenario);
    // One number from one piece of code: the per-GPU total is the step's peak (docs/model.md §9).
    result.step = step_timeline(scenario, result.params, training.bytes_per_param, training.per_gpu_states,
                                training.activations, result.compute, detail);
    training.per_gpu_peak = result.step.peak();
    training.fits = training.per_gpu_total() <= memory_per_gpu;
    training.cuda_context = cuda_context_bytes;
    training.memory_for_tensors = memory_per_gpu;
    training.allocator_reserve = reserved_bytes(training.per_gpu_total()) - training.per_gpu_total();
    result.communication = communication_model(scenario, result.params, training.bytes_per_param, result.compute);
    if (parts.communication_curve)
        result.communication_curve = communication_curve(scenario, result.params, training.bytes_per_param,
                                                         result.compute, result.compute.time_over_gpus);
    StepBytes fullest;
    training.min_gpus = fewest_gpus_fully_sharded(scenario, result, memory_per_gpu, kept_on_gpu, fullest);
    if (training.min_gpus < 0) result.notes.push_back(overflow_note(scenario, fullest, shown_controls));
    result.tokens_origin = tokens_origin_sentence(scenario, shows(shown_controls, "training.method"));
    return result;
}

}  // namespace trainscope
