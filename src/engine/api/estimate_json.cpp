// The estimate as JSON (docs/scenario.md): one writer per member, in the schema's order.
#include "engine/api/estimate_json.hpp"

#include "engine/model/choices.hpp"
#include "engine/model/compute.hpp"
#include "engine/model/field_limits.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

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
    // Section 1's run card: the model run as training holds it (issue 33), and training's bytes
    // per parameter over it.
    const InferenceBytes& run = e.run_as_trained;
    w.key("run_as_trained").begin_object();
    w.field("bytes_per_param", run.bytes_per_param).field("weights", run.weights).field("kv_cache", run.kv_cache);
    w.field("total", run.total()).field("min_gpus", e.run_as_trained_min_gpus);
    w.field("ratio_training_to_run", e.training.bytes_per_param.total() / run.bytes_per_param);
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
void write_training_states(json::Writer& w, const Scenario& scenario, const Estimate& e) {
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
    // Where the global batch's slider starts: the sequences "the fewest" (0) resolves to (field_limits.hpp).
    w.field("fewest_global_batch", fewest_global_batch(scenario));
    // docs/model.md §9: the process's own slice beside the tensors, and the peak as PyTorch reserves
    // it and as nvidia-smi shows it; `fits` compares per_gpu.total with the memory less the context.
    w.key("overhead").begin_object();
    w.field("cuda_context", t.cuda_context).field("allocator_reserve", t.allocator_reserve);
    w.field("allocated", t.per_gpu_total()).field("reserved", t.reserved()).field("in_use", t.in_use());
    w.field("memory_for_tensors", t.memory_for_tensors);
    w.end_object();
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

// The equation's terms and words from the engine (docs/model.md §6, §15): 6 × parameters for full
// training, 4 × frozen + 6 × adapter parameters for LoRA and QLoRA; the page writes no factor.
void write_flops_rule(json::Writer& w, const Scenario& scenario, const Estimate& e) {
    const FlopsRule rule =
        flops_rule(e.compute, e.params.active != e.params.total, fine_tuning_method_label(scenario.training.method));
    w.key("flops_rule").begin_object();
    w.key("terms").begin_array();
    for (const FlopsRuleTerm& term : rule.terms)
        w.begin_object()
            .field("factor", term.factor)
            .field("params", term.params)
            .field("unit", term.unit)
            .end_object();
    w.end_array();
    w.field_bool("attention", rule.attention).field("sentence", rule.sentence).field("why", rule.why);
    w.field("explanation", rule.explanation).field("formula", rule.formula);
    w.end_object();
}

void write_estimate_compute(json::Writer& w, const Scenario& scenario, const Estimate& e) {
    const TrainingCompute& c = e.compute;
    w.key("compute").begin_object();
    // Which tokens the run counts (docs/scenario.md, training.tokens): the time section says so.
    w.field("tokens_origin", e.tokens_origin);
    w.field("flops", c.model_flops).field("hardware_flops", c.hardware_flops);
    write_flops_rule(w, scenario, e);
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

void write_estimate_communication(json::Writer& w, const Scenario& scenario, const Estimate& e) {
    const TrainingCompute& c = e.compute;
    const CommunicationModel& comm = e.communication;
    w.key("communication").begin_object();
    w.field("arithmetic_efficiency", comm.arithmetic_efficiency);
    w.field("predicted_mfu", comm.predicted_mfu).field("achieved_mfu", c.model_flops_utilization);
    w.field("micro_batches", comm.micro_batches);
    w.field("compute_seconds", comm.compute_seconds).field("step_seconds", comm.step_seconds);
    // The run at the predicted utilisation: what "What fits" ranks and shows (docs/model.md §17).
    const double predicted_gpu_hours = comm.run_seconds * scenario.parallel.gpus / 3600;
    w.field("run_seconds", comm.run_seconds).field("gpu_hours", predicted_gpu_hours);
    w.field("cost", predicted_gpu_hours * scenario.hardware.price_per_gpu_hour);
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
    write_training_states(w, scenario, e);
    // The lesson's "eight times": bytes per parameter to train over bytes per parameter to run.
    w.field("ratio_training_to_inference", e.training.bytes_per_param.total() / e.inference.bytes_per_param);

    write_estimate_compute(w, scenario, e);
    write_estimate_communication(w, scenario, e);
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
