#include "engine/model/estimate.hpp"

#include <cmath>
#include <utility>

#include "engine/text/json.hpp"
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
    const double memory_per_gpu = scenario.hardware.gpu.memory_bytes;

    result.inference = inference_memory(model.architecture, parameters, scenario.inference);
    result.inference_min_gpus = gpus_to_hold(result.inference.total(), memory_per_gpu);

    TrainingMemory& training = result.training;
    const ParallelSettings& parallel = scenario.parallel;
    training.data_parallel = parallel.data_parallel();
    // docs/model.md §15: frozen base weights keep no gradients or optimizer states; full
    // fine-tuning's bytes are training_bytes_per_param's, unchanged.
    result.fine_tuning = fine_tuning_figures(scenario.training, model.architecture, parameters);
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
    result.communication = communication_model(scenario, result.params, training.bytes_per_param, result.compute);
    if (parts.communication_curve)
        result.communication_curve = communication_curve(scenario, result.params, training.bytes_per_param,
                                                         result.compute, result.compute.time_over_gpus);
    StepBytes fullest;
    training.min_gpus = fewest_gpus_fully_sharded(scenario, result, memory_per_gpu, kept_on_gpu, fullest);
    if (training.min_gpus < 0) result.notes.push_back(overflow_note(scenario, fullest, shown_controls));
    return result;
}

namespace {

void write_architecture(json::Writer& w, const Architecture& a, bool assumed) {
    w.key("architecture").begin_object();
    write_architecture_fields(w, a);
    w.field_bool("assumed", assumed);
    w.end_object();
}

void write_states(json::Writer& w, const ModelStateBytes& states) {
    w.field("weights", states.weights).field("gradients", states.gradients);
    w.field("master_weights", states.master_weights).field("optimizer_states", states.optimizer_states);
}

void write_error_list(json::Writer& w, const std::vector<FieldError>& errors) {
    w.key("errors").begin_array();
    for (const auto& error : errors) {
        w.begin_object().field("field", error.field).field("message", error.message).end_object();
    }
    w.end_array();
}

// docs/model.md §15: the method's own figures (docs/scenario.md, training.fine_tuning).
void write_fine_tuning(json::Writer& w, const TrainingSettings& training, const FineTuningFigures& f) {
    w.key("fine_tuning").begin_object();
    w.field("method", fine_tuning_method_name(training.method));
    w.field("trainable_params", f.trainable_params).field("frozen_params", f.frozen_params);
    w.field("adapter_params", f.adapter_params).field("quantized_params", f.quantized_params);
    w.field("base_storage", training.method == FineTuningMethod::full
                                ? std::string_view(format_name(training.precision))
                                : base_storage_name(training.base_storage));
    w.field("base_bytes_per_param", f.base_bytes_per_param).field("base_bits_per_param", 8 * f.base_bytes_per_param);
    w.field("base_weights", f.base_weights_bytes).field("checkpoint_bytes", f.checkpoint_bytes);
    w.field("trainable_bytes_per_param", f.trainable_bytes.total());
    w.end_object();
}

// docs/model.md §16 (docs/scenario.md, training.offload).
void write_offload(json::Writer& w, const TrainingSettings& training, const OffloadFigures& o) {
    w.key("offload").begin_object();
    w.field("mode", offload_name(training.offload));
    w.key("cpu_per_gpu").begin_object();
    write_states(w, o.moved);
    w.field("total", o.moved.total());
    w.end_object();
    w.field("gpus_per_node", o.gpus_per_node).field("cpu_bytes_per_node", o.cpu_bytes_per_node);
    w.field("to_cpu_bytes", o.to_cpu_bytes).field("to_gpu_bytes", o.to_gpu_bytes);
    w.field("pcie_bandwidth", o.pcie_bandwidth).field_bool("pcie_assumed", o.pcie_assumed);
    w.field("pcie_seconds", o.pcie_seconds);
    w.end_object();
}

}  // namespace

std::string_view format_label(NumberFormat format) {
    switch (format) {
        case NumberFormat::fp32:
            return "FP32";
        case NumberFormat::bf16:
            return "BF16";
        case NumberFormat::fp16:
            return "FP16";
        case NumberFormat::fp8:
            return "FP8";
        case NumberFormat::int8:
            return "INT8";
        case NumberFormat::int4:
            return "INT4";
    }
    return "BF16";
}

std::vector<BytesPerParamPart> bytes_per_param_parts(const TrainingSettings& training, const BytesPerParam& bytes) {
    // Mixed precision: 16-bit weights and gradients, FP32 master and moments (Micikevicius et al.
    // 2018, §3.1; ZeRO §3.1, docs/model.md §3). FP32 training keeps everything in FP32, no master.
    const NumberFormat pass = training.precision;
    std::vector<BytesPerParamPart> parts;
    const auto first_moment = [] { return message("estimate.part.first_moment", "first moment (m)"); };
    const auto second_moment = [] { return message("estimate.part.second_moment", "second moment (v)"); };
    parts.push_back({"weights", message("estimate.part.weights", "weights"), pass, bytes.weights});
    parts.push_back({"gradients", message("estimate.part.gradients", "gradients"),
                     bytes.gradients == 4 ? NumberFormat::fp32 : pass, bytes.gradients});
    if (bytes.master_weights > 0)
        parts.push_back({"master_weights", message("estimate.part.master_copy", "master copy"), NumberFormat::fp32,
                         bytes.master_weights});
    switch (training.optimizer) {
        case Optimizer::adam:
        case Optimizer::adamw:
            parts.push_back({"optimizer_states", first_moment(), NumberFormat::fp32, bytes.optimizer_states / 2});
            parts.push_back({"optimizer_states", second_moment(), NumberFormat::fp32, bytes.optimizer_states / 2});
            break;
        case Optimizer::adam_8bit:
            // Two 8-bit moments, each with its share of the block scales (Dettmers et al. 2021, §2).
            parts.push_back({"optimizer_states", first_moment(), NumberFormat::int8, bytes.optimizer_states / 2});
            parts.push_back({"optimizer_states", second_moment(), NumberFormat::int8, bytes.optimizer_states / 2});
            break;
        case Optimizer::sgd_momentum:
            parts.push_back({"optimizer_states", message("estimate.part.momentum", "momentum"), NumberFormat::fp32,
                             bytes.optimizer_states});
            break;
        case Optimizer::adafactor:
            parts.push_back({"optimizer_states",
                             message("estimate.part.factored_second_moment", "factored second moment"),
                             NumberFormat::fp32, bytes.optimizer_states});
            break;
        case Optimizer::sgd:
            break;
    }
    return parts;
}

std::string bytes_per_param_sum(const std::vector<BytesPerParamPart>& parts) {
    std::string text;
    double total = 0;
    for (const auto& part : parts) {
        if (!text.empty()) text += " + ";
        text += quantity::format_significant(part.bytes);
        total += part.bytes;
    }
    return text + " = " + quantity::format_significant(total);
}

std::string accounting_label(AccountingConvention accounting) {
    if (accounting == AccountingConvention::fp32_gradients)
        return message("estimate.accounting.fp32_gradients.label", "FP32 gradients");
    return message("estimate.accounting.zero.label", "ZeRO paper");
}

std::string accounting_explanation(AccountingConvention accounting, const TrainingSettings& training,
                                   const Architecture& architecture, double parameters) {
    // docs/model.md §2: the sum is this optimizer's and precision's, written by the engine.
    TrainingSettings under = training;
    under.accounting = accounting;
    const std::string sum =
        bytes_per_param_sum(bytes_per_param_parts(under, training_bytes_per_param(under, architecture, parameters)));
    if (accounting == AccountingConvention::zero)
        return message("estimate.accounting.zero.explanation",
                       "The ZeRO paper's count, and the lesson's: gradients stored in the training precision, {sum} "
                       "bytes per parameter.",
                       {{"sum", sum}});
    return message("estimate.accounting.fp32_gradients.explanation",
                   "Hugging Face's memory guide and DeepSpeed's ZeRO-3 estimator count the gradients in FP32, as when "
                   "they are accumulated in FP32: {sum} bytes per parameter.",
                   {{"sum", sum}});
}

std::string number_formats_json() {
    json::Writer w;
    w.begin_array();
    for (const NumberFormat format : {NumberFormat::fp32, NumberFormat::bf16, NumberFormat::fp16, NumberFormat::fp8,
                                      NumberFormat::int8, NumberFormat::int4}) {
        const double bytes = bytes_per_value(format);
        w.begin_object();
        w.field("id", format_name(format)).field("name", format_label(format)).field("bytes", bytes);
        const std::string bytes_text = quantity::format_significant(bytes);
        w.field("label", bytes == 1 ? message("estimate.number_format.label_one", "{format} ({bytes} byte)",
                                              {{"format", format_label(format)}, {"bytes", bytes_text}})
                                    : message("estimate.number_format.label_other", "{format} ({bytes} bytes)",
                                              {{"format", format_label(format)}, {"bytes", bytes_text}}));
        w.end_object();
    }
    w.end_array();
    return w.take();
}

namespace {

void write_estimate_gpu(json::Writer& w, const Scenario& scenario, const Estimate& e) {
    const Gpu& gpu = scenario.hardware.gpu;
    w.key("gpu").begin_object();
    w.field("id", gpu.id).field("name", gpu.name).field("memory_bytes", gpu.memory_bytes);
    w.field("peak_flops", gpu.peak_flops).field("watts", gpu.watts);
    w.field("memory_bandwidth", e.step.memory_bandwidth).field("source", gpu.source);
    write_gpu_interconnect(w, gpu);
    w.end_object();
}

void write_estimate_inference(json::Writer& w, const Estimate& e) {
    w.key("inference").begin_object();
    w.field("bytes_per_param", e.inference.bytes_per_param);
    w.field("weights", e.inference.weights).field("kv_cache", e.inference.kv_cache);
    w.field("total", e.inference.total()).field("min_gpus", e.inference_min_gpus);
    w.end_object();
}

// The training object's first half: bytes per parameter, their parts, fine-tuning, offload and
// the accounting conventions.
void write_training_bytes(json::Writer& w, const Scenario& scenario, const Estimate& e) {
    const TrainingMemory& t = e.training;
    w.key("training").begin_object();
    w.key("bytes_per_param").begin_object();
    w.field("weights", t.bytes_per_param.weights).field("gradients", t.bytes_per_param.gradients);
    w.field("master_weights", t.bytes_per_param.master_weights);
    w.field("optimizer_states", t.bytes_per_param.optimizer_states).field("total", t.bytes_per_param.total());
    w.end_object();
    // The same bytes, one entry per stored value, so prose can say "2 + 2 + 4 + 4 + 4 = 16" for
    // whatever optimizer and precision are on screen.
    // With LoRA they are the adapters' bytes, each trainable parameter's (docs/model.md §15).
    const std::vector<BytesPerParamPart> parts =
        bytes_per_param_parts(scenario.training, e.fine_tuning.trainable_bytes);
    w.key("bytes_per_param_parts").begin_array();
    for (const auto& part : parts) {
        w.begin_object();
        w.field("part", part.part).field("label", part.label).field("format", format_name(part.format));
        w.field("bytes", part.bytes);
        w.end_object();
    }
    w.end_array();
    w.field("bytes_per_param_sum", bytes_per_param_sum(parts));
    write_fine_tuning(w, scenario.training, e.fine_tuning);
    write_offload(w, scenario.training, e.offload);
    // The accounting conventions, each explained with its sum for this optimizer and precision,
    // so the page can offer the choice and say why another tool says 18 (docs/model.md §2).
    const double parameters = e.params.total;
    w.key("accounting").begin_object();
    w.field("id", accounting_name(scenario.training.accounting))
        .field("label", accounting_label(scenario.training.accounting));
    w.field("explanation",
            accounting_explanation(scenario.training.accounting, scenario.training, e.architecture, parameters));
    w.end_object();
    w.key("accounting_choices").begin_array();
    for (const AccountingConvention option : {AccountingConvention::zero, AccountingConvention::fp32_gradients}) {
        TrainingSettings under = scenario.training;
        under.accounting = option;
        w.begin_object();
        w.field("id", accounting_name(option)).field("label", accounting_label(option));
        w.field("bytes_per_param", training_bytes_per_param(under, e.architecture, parameters).total());
        w.field("explanation", accounting_explanation(option, scenario.training, e.architecture, parameters));
        w.end_object();
    }
    w.end_array();
}

// The training object's second half: the model states, what one GPU holds, and whether it fits.
void write_training_states(json::Writer& w, const Estimate& e) {
    const TrainingMemory& t = e.training;
    w.key("model_states").begin_object();
    write_states(w, t.model_states);
    w.field("total", t.model_states.total());
    w.end_object();
    w.key("per_gpu").begin_object();
    write_states(w, t.per_gpu_states);
    // The four model states on one GPU as one figure: what ZeRO shards (quiz: "per GPU with ZeRO-3").
    w.field("model_states", t.per_gpu_states.total());
    // Held at the step's peak (docs/model.md §9); without recompute or ZeRO-2/3 that is the whole
    // pile of activations and the logits, where the backward pass begins.
    w.field("activations", t.per_gpu_peak.activations).field("logits", t.per_gpu_peak.logits);
    w.field("gathered_weights", t.per_gpu_peak.gathered_weights).field("temporary", t.per_gpu_peak.temporary);
    w.field("total", t.per_gpu_total());
    w.end_object();
    w.field("activations_per_layer", t.activations.per_layer);
    w.field("activations_without_recompute", t.activations_without_recompute);
    w.field("activations_saved_by_recompute", t.activations_without_recompute - t.activations.layers);
    w.field("data_parallel", t.data_parallel);
    w.field_bool("fits", t.fits).field("min_gpus", t.min_gpus);
    w.field("min_gpus_for_states", t.min_gpus_for_states);
    w.end_object();
}

// The second curve (docs/model.md §13): the time the communication model predicts on each GPU
// count the layout divides, the same tokens and global batch.
void write_communication_curve(json::Writer& w, const CommunicationCurve& curve) {
    w.key("time_over_gpus_communication").begin_array();
    for (const auto& point : curve.points) {
        w.begin_object().field("gpus", point.gpus).field("seconds", point.seconds);
        w.field("predicted_mfu", point.predicted_mfu);
        w.field("dominant", point.idle ? "idle" : point.has_dominant ? comm_term_name(point.dominant) : "");
        w.end_object();
    }
    w.end_array();
}

void write_estimate_compute(json::Writer& w, const Scenario& scenario, const Estimate& e) {
    const TrainingCompute& c = e.compute;
    w.key("compute").begin_object();
    // Which tokens the run counts (docs/scenario.md, training.tokens): the time section says so.
    w.field("tokens_origin", tokens_origin_sentence(scenario));
    w.field("flops", c.model_flops).field("hardware_flops", c.hardware_flops);
    w.field("recompute_overhead", c.recompute_overhead());
    w.field("seconds", c.seconds).field("gpu_hours", c.gpu_hours).field("mfu", c.model_flops_utilization);
    w.field("seconds_on_one_gpu", c.seconds_on_one_gpu);
    w.field("cost", c.cost).field("energy_joules", c.energy_joules);
    // The time figure's curve, its reference lines and the lesson's cluster (docs/model.md §6).
    w.key("time_over_gpus").begin_array();
    for (const auto& point : c.time_over_gpus)
        w.begin_object().field("gpus", point.gpus).field("seconds", point.seconds).end_object();
    w.end_array();
    w.key("time_references").begin_array();
    for (const auto& line : reference_durations())
        w.begin_object().field("seconds", line.seconds).field("label", line.label).end_object();
    w.end_array();
    w.field("lesson_cluster_gpus", lesson_cluster_gpus());
    if (e.parts.communication_curve) write_communication_curve(w, e.communication_curve);
    w.end_object();
}

// The step as modelled, in time: compute and the exposed communication as phases (docs/model.md §13).
void write_communication_schedule(json::Writer& w, const std::vector<CommPhase>& schedule) {
    w.key("schedule").begin_array();
    for (const CommPhase& phase : schedule) {
        w.begin_object();
        w.field("phase", phase.is_compute ? "compute" : comm_term_name(phase.term));
        w.field("micro_batch", phase.micro_batch).field("micro_batch_last", phase.micro_batch_last);
        w.field("start", phase.start).field("seconds", phase.seconds);
        w.end_object();
    }
    w.end_array();
}

void write_estimate_communication(json::Writer& w, const Estimate& e) {
    const TrainingCompute& c = e.compute;
    const CommunicationModel& comm = e.communication;
    w.key("communication").begin_object();
    w.field("arithmetic_efficiency", comm.arithmetic_efficiency);
    w.field("predicted_mfu", comm.predicted_mfu).field("achieved_mfu", c.model_flops_utilization);
    w.field("micro_batches", comm.micro_batches);
    w.field("compute_seconds", comm.compute_seconds).field("step_seconds", comm.step_seconds);
    w.field("exposed_seconds", comm.exposed_seconds());
    w.field("dominant", comm.has_dominant ? comm_term_name(comm.dominant) : "");
    w.field("dominant_label", comm.has_dominant ? comm_term_label(comm.dominant) : std::string());
    w.key("terms").begin_array();
    for (const auto& term : comm.terms) {
        w.begin_object();
        w.field("id", comm_term_name(term.term)).field("label", comm_term_label(term.term));
        w.field("seconds", term.seconds).field("exposed_seconds", term.exposed_seconds);
        w.field("group", term.group).field("bandwidth", term.bandwidth).field_bool("within_node", term.within_node);
        w.end_object();
    }
    w.end_array();
    w.field_bool("interconnect_assumed", comm.interconnect_assumed);
    if (e.parts.communication_schedule) write_communication_schedule(w, comm.schedule);
    if (e.parts.communication_curve) {
        const CommunicationCurve& curve = e.communication_curve;
        w.field("global_batch", curve.global_batch).field("stops_paying_gpus", curve.stops_paying_gpus);
        w.field("stops_paying_dominant", curve.stops_paying_gpus <= 0 ? ""
                                         : curve.idle                 ? "idle"
                                         : curve.has_dominant         ? comm_term_name(curve.dominant)
                                                                      : "");
        w.field("summary", communication_summary(comm, curve, c.model_flops_utilization));
    }
    w.end_object();
}

void write_estimate_step(json::Writer& w, const Estimate& e) {
    // One training step on one GPU (docs/model.md §9); the events themselves come from stepTimeline.
    const StepTimeline& step = e.step;
    w.key("step").begin_object();
    w.field("seconds", step.seconds()).field("compute_seconds", step.compute_seconds);
    w.field("optimizer_seconds", step.optimizer_seconds).field("memory_bandwidth", step.memory_bandwidth);
    w.field("layers", static_cast<double>(step.layers))
        .field("prefetch_layers", static_cast<double>(step.prefetch_layers));
    w.field("micro_batches", static_cast<double>(step.micro_batches))
        .field("in_flight", static_cast<double>(step.in_flight));
    w.field("micro_batch_seconds", step.micro_batch_seconds);
    w.field("events", static_cast<double>(step.event_count));
    w.field("peak_bytes", step.peak().total()).field("peak_event", static_cast<double>(step.peak_event));
    w.field("peak_phase", step_phase_name(step.peak_phase)).field("peak_block", step_block_name(step.peak_block));
    w.field("peak_layer", static_cast<double>(step.peak_layer));
    w.field("peak_micro_batch", static_cast<double>(step.peak_micro_batch));
    w.end_object();
}

}  // namespace

std::string write_estimate(const Scenario& scenario, const Estimate& e, bool* all_finite) {
    json::Writer w;
    w.begin_object();
    write_error_list(w, {});
    w.key("notes").begin_array();
    for (const auto& note : e.notes) w.string(note);
    w.end_array();

    w.key("scenario").raw(write_scenario(scenario));
    w.field("params", e.params.total).field("active_params", e.params.active);
    write_architecture(w, e.architecture, scenario.model.architecture_assumed);
    write_estimate_gpu(w, scenario, e);
    write_estimate_inference(w, e);
    write_training_bytes(w, scenario, e);
    write_training_states(w, e);
    // The lesson's "eight times": bytes per parameter to train over bytes per parameter to run.
    w.field("ratio_training_to_inference", e.training.bytes_per_param.total() / e.inference.bytes_per_param);

    write_estimate_compute(w, scenario, e);
    write_estimate_communication(w, e);
    write_estimate_step(w, e);

    w.end_object();
    if (all_finite) *all_finite = w.all_numbers_finite();
    return w.take();
}

std::string write_errors(const std::vector<FieldError>& errors) {
    json::Writer w;
    w.begin_object();
    write_error_list(w, errors);
    w.key("notes").begin_array().end_array();
    w.end_object();
    return w.take();
}

}  // namespace trainscope
