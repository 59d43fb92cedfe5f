#include "engine/api/methods.hpp"

#include "engine/api/api.hpp"
#include "engine/api/estimate_json.hpp"
#include "engine/model/choices.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"

namespace trainscope {

namespace {

// What one GPU holds at the step's peak, in the four kinds the lesson names plus the rest
// (docs/model.md §9: logits, gathered weights and gradient buffers).
void write_per_gpu(json::Writer& w, const StepBytes& peak) {
    w.key("per_gpu").begin_object();
    w.field("weights", peak.weights).field("gradients", peak.gradients);
    w.field("master_weights", peak.master_weights).field("optimizer_states", peak.optimizer_states);
    w.field("activations", peak.activations);
    w.field("other", peak.gathered_weights + peak.logits + peak.temporary);
    w.field("total", peak.total()).end_object();
}

// The tokens every method is timed on: the comparison is of methods on one run, so full training
// counts the fine-tuning run LoRA and QLoRA would (full fine-tuning), not the preset's pre-training
// run; tokens the learner set are kept for all three (finetune.hpp).
double compared_tokens(const Scenario& scenario) {
    if (trains_adapters(scenario.training.method) || scenario.training.tokens_origin == TokensOrigin::given)
        return scenario.training.tokens;
    return default_fine_tuning_run().tokens();
}

void write_method(json::Writer& w, const Scenario& scenario, FineTuningMethod method) {
    Scenario trial = with_fine_tuning_method(scenario, method);
    trial.training.tokens = compared_tokens(scenario);
    name_given_tokens(trial);
    const Estimate e = estimate(trial);
    const FineTuningFigures& f = e.fine_tuning;
    w.begin_object();
    w.field("method", fine_tuning_method_name(method)).field("label", fine_tuning_method_label(method));
    w.field_bool("current", scenario.training.method == method);
    w.field_bool("fits", e.training.fits).field("memory_bytes", trial.hardware.gpu.memory_bytes);
    w.field("peak_bytes", e.training.per_gpu_total());
    write_per_gpu(w, e.training.per_gpu_peak);
    w.field("params", e.params.total).field("trainable_params", f.trainable_params);
    w.field("base_storage", method == FineTuningMethod::full ? std::string_view(format_name(trial.training.precision))
                                                             : base_storage_name(trial.training.base_storage));
    w.field("base_bytes_per_param", f.base_bytes_per_param).field("checkpoint_bytes", f.checkpoint_bytes);
    w.field("tokens", trial.training.tokens);
    // Timed as "What fits" times its layouts (issue 33): at the utilisation the engine predicts for
    // this layout, communication and offload included, so a column and a layout card agree.
    w.field("run_seconds", e.communication.run_seconds);
    w.field("gpu_hours", e.communication.run_seconds * trial.parallel.gpus / 3600);
    w.field("predicted_mfu", e.communication.predicted_mfu);
    w.key("scenario").raw(write_scenario(trial));
    w.end_object();
}

}  // namespace

std::string fine_tuning_methods_json(std::string_view scenario_json) {
    const ScenarioReading reading = read_scenario_text(scenario_json);
    if (!reading.errors.empty()) return write_errors(reading.errors);
    json::Writer w;
    w.begin_object();
    w.key("errors").begin_array().end_array();
    w.key("notes").begin_array().end_array();
    w.key("methods").begin_array();
    for (const FineTuningMethod method : {FineTuningMethod::full, FineTuningMethod::lora, FineTuningMethod::qlora})
        write_method(w, reading.scenario, method);
    w.end_array();
    w.end_object();
    // Validation keeps every product finite; this guard makes sure no NaN can ever reach a page.
    if (!w.all_numbers_finite()) return too_large_errors();
    return w.take();
}

}  // namespace trainscope
