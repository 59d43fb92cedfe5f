// Where the page draws each estimate field: the one table in the engine that names the page's
// sections (data-ts-section) and figures (data-figure).
//
// Why the engine holds it (issue 22 asks why the engine knows the page at all): `quiz-check` runs
// without a page, before a bank is published, and must tell the author where "show me" will land
// and whether the figure there reads the question's answer. That needs these names, and nothing
// else of the page: no layout, no order, no labels. The page marks the same names;
// tests/browser/showme.test.mjs follows every item of the default bank to its figure, so a figure
// renamed on one side only fails a test. A figure that is added to the page is added here too.
#include "engine/quiz/internal.hpp"

namespace trainscope::quiz_detail {

namespace {

// Figures that draw one estimate field exactly (the number on screen is the field's value), and the
// figures a choice item may land on that draw no single field (path null). When two figures draw
// one field, the first is where a derived show-me lands.
const ShowTarget page_figures[] = {
    {"memory", "inference-total", "inference.total"},
    {"memory", "inference-bytes-per-param", "inference.bytes_per_param"},
    {"memory", "inference-min-gpus", "inference.min_gpus"},
    {"memory", "ratio", "ratio_training_to_inference"},
    {"memory", "training-bytes-per-param", "training.bytes_per_param.total"},
    // Shown with LoRA and QLoRA only (docs/model.md §15): what is trained, the base as stored, the checkpoint.
    {"memory", "trainable-params", "training.fine_tuning.trainable_params"},
    {"memory", "base-bytes-per-param", "training.fine_tuning.base_bytes_per_param"},
    {"memory", "adapter-checkpoint", "training.fine_tuning.checkpoint_bytes"},
    // One unsharded copy on one GPU, whatever the scenario's parallel settings: no estimate path.
    {"memory", "training-total", nullptr},
    {"activations", "activations", "training.per_gpu.activations"},
    {"activations", "activations-without-recompute", "training.activations_without_recompute"},
    {"activations", "activations-saved", "training.activations_saved_by_recompute"},
    {"activations", "recompute-overhead", "compute.recompute_overhead"},
    {"sharding", "model-states-per-gpu", "training.per_gpu.model_states"},
    {"sharding", "model-states-total", "training.model_states.total"},
    {"sharding", "per-gpu-total", "training.per_gpu.total"},
    {"sharding", "min-gpus", "training.min_gpus"},
    // The GPUs grouped by kind of parallelism, and each kind's row: the slice of the model its
    // groups hold (shown when the degree is above 1; data parallelism always).
    {"sharding", "layout", nullptr},
    // Its first line: the GPUs and their product of degrees, where "show me" lands in view on a phone.
    {"sharding", "layout-gpus", nullptr},
    {"sharding", "layout-tensor-slice", nullptr},
    {"sharding", "layout-context-slice", nullptr},
    {"sharding", "layout-pipeline-slice", nullptr},
    {"sharding", "layout-expert-slice", nullptr},
    {"sharding", "layout-data-slice", nullptr},
    {"time", "flops", "compute.flops"},
    {"time", "seconds", "compute.seconds"},
    {"time", "seconds-on-one-gpu", "compute.seconds_on_one_gpu"},
    {"time", "gpu-hours", "compute.gpu_hours"},
    {"time", "mfu", "compute.mfu"},
    // Time over GPUs: the ideal curve and the second one with communication and the bubble.
    {"time", "time-curve", nullptr},
    // The step section: what the playhead's moment holds, and the peak's sentence.
    {"step", "step-phase", nullptr},
    {"step", "step-held", nullptr},
    {"step", "step-peak-text", "training.per_gpu.total"},
    // The chart's own peak ("Peak 93 GB" over the curve): where a question about the peak lands (issue 33).
    {"step", "step-peak", "training.per_gpu.total"},
    // The step in time with what its GPUs wait for (docs/model.md §13): its data-value is the step's time.
    {"step", "step-communication", "communication.step_seconds"},
    // What fits (docs/model.md §17), from the fit search: the answers a question may ask (the
    // largest micro-batch), the layouts that fit, and full fine-tuning, LoRA and QLoRA side by side.
    {"fit", "fit-largest-micro-batch", "fit.largest_micro_batch.value"},
    {"fit", "fit-layouts", nullptr},
    {"fit", "fit-methods", nullptr},
};

// Fields no figure draws as a number of their own, by the start of their path (the first match
// wins, so the longer prefixes come first): the section that holds them and the figure they are
// part of, where "show me" lands and which the page names ("the weights are part of this total").
const FieldHome field_homes[] = {
    // The Run bar of the memory section breaks running memory into weights and KV cache.
    {"inference.", "memory", "inference-total"},
    {"training.bytes_per_param", "memory", "training-bytes-per-param"},
    {"training.model_states.", "sharding", "model-states-total"},
    {"training.fine_tuning.base_", "memory", "base-bytes-per-param"},
    {"training.fine_tuning.checkpoint", "memory", "adapter-checkpoint"},
    {"training.fine_tuning.", "memory", "trainable-params"},
    {"training.per_gpu.activations", "activations", "activations"},
    {"training.per_gpu.logits", "activations", "activations"},
    {"training.activations", "activations", "activations"},
    // One GPU's memory at the step's peak, broken down in the sharding section's bar.
    {"training.per_gpu.", "sharding", "per-gpu-total"},
    {"training.", "sharding", "per-gpu-total"},
    {"step.", "step", "step-peak-text"},
    // The second curve's figures; the rest of the communication model is the step's.
    {"communication.stops_paying", "time", "time-curve"},
    {"communication.global_batch", "time", "time-curve"},
    {"communication.", "step", "step-communication"},
    {"fit.layouts", "fit", "fit-layouts"},
    {"fit.", "fit", "fit-largest-micro-batch"},
    {"compute.hardware_flops", "time", "flops"},
    {"compute.", "time", "seconds"},
    {"ratio_", "memory", "ratio"},
    // The model's size and the GPU's figures are stated beside the running memory.
    {"", "memory", "inference-total"},
};

template <typename T, std::size_t N>
constexpr std::size_t count_of(const T (&)[N]) {
    return N;
}

}  // namespace

const ShowTarget* show_targets_begin() { return page_figures; }
const ShowTarget* show_targets_end() { return page_figures + count_of(page_figures); }

const ShowTarget* find_show_target(const std::string& section, const std::string& figure) {
    for (const ShowTarget* target = show_targets_begin(); target != show_targets_end(); ++target)
        if (section == target->section && figure == target->figure) return target;
    return nullptr;
}

const ShowTarget* figure_drawing(const std::string& path) {
    for (const ShowTarget* target = show_targets_begin(); target != show_targets_end(); ++target)
        if (target->path && path == target->path) return target;
    return nullptr;
}

const FieldHome& home_of(const std::string& path) {
    for (const FieldHome& home : field_homes)
        if (path.compare(0, std::char_traits<char>::length(home.prefix), home.prefix) == 0) return home;
    return field_homes[count_of(field_homes) - 1];
}

}  // namespace trainscope::quiz_detail
