#include "engine/api/api.hpp"

#include "engine/api/estimate_json.hpp"
#include "engine/api/timeline_json.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/hardware.hpp"
#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

std::string too_large_errors() {
    return write_errors(
        {{"scenario", message("scenario.too_large", "gives a result too large to compute; try smaller values")}});
}

std::string estimate_json(std::string_view scenario_json) {
    const ScenarioReading reading = read_scenario_text(scenario_json);
    if (!reading.ok()) return write_errors(reading.errors);
    const Estimate result = estimate(reading.scenario);
    bool all_finite = true;
    std::string text = write_estimate(reading.scenario, result, &all_finite);
    // Validation keeps every product finite; this guard makes sure no NaN can ever reach a page.
    if (!all_finite) return too_large_errors();
    return text;
}

std::string step_timeline_json(std::string_view scenario_json) {
    const ScenarioReading reading = read_scenario_text(scenario_json);
    if (!reading.ok()) return write_errors(reading.errors);
    const Estimate result = estimate(reading.scenario, StepDetail::events);
    bool all_finite = true;
    std::string text = write_step_timeline(result.step, &all_finite);
    if (!all_finite) return too_large_errors();
    return text;
}

std::string step_timeline_columns(std::string_view scenario_json, std::vector<double>& numbers) {
    numbers.clear();
    const ScenarioReading reading = read_scenario_text(scenario_json);
    if (!reading.ok()) return write_errors(reading.errors);
    const Estimate result = estimate(reading.scenario, StepDetail::events);
    bool all_finite = true;
    std::string text = write_step_timeline_columns(result.step, numbers, &all_finite);
    if (!all_finite) {
        numbers.clear();
        return too_large_errors();
    }
    return text;
}

std::string presets_json() {
    json::Writer w;
    w.begin_array();
    for (const auto& preset : model_presets()) {
        const ParameterCount count = count_parameters(preset.architecture);
        w.begin_object();
        w.field("id", preset.id).field("name", preset.name);
        w.field("params", count.total).field("active_params", count.active);
        w.field("published_params", preset.published_params);
        w.field("training_tokens", preset.training_tokens).field("training_gpus", preset.training_gpus);
        w.field("training_gpu", preset.training_gpu).field("source", preset.source);
        w.key("architecture").begin_object();
        write_architecture_fields(w, preset.architecture);
        w.end_object();
        w.field("published_active_params",
                preset.published_active_params > 0 ? preset.published_active_params : preset.published_params);
        w.field("context_window", preset.context_window);
        // Published training runs, each with the scenario that loads it "as it was" (docs/scenario.md).
        w.key("runs").begin_array();
        for (const TrainingRun& run : preset.runs) {
            w.begin_object();
            w.field("id", run.id).field("name", run.name()).field("gpu", run.gpu).field("gpus", run.gpus);
            w.field("tensor", run.tensor).field("pipeline", run.pipeline).field("context", run.context);
            w.field("expert", run.expert).field("data", run.gpus / (run.tensor * run.pipeline * run.context));
            w.key("zero_stage").integer(run.zero_stage);
            w.field("sequence", run.sequence).field("global_batch", run.global_batch).field("tokens", run.tokens);
            w.field("published_gpu_hours", run.published_gpu_hours);
            w.field("published_mfu_low", run.published_mfu_low).field("published_mfu_high", run.published_mfu_high);
            w.field("published_flops", run.published_flops);
            w.field("note", run.note ? run.note() : std::string()).field("source", run.source);
            w.key("scenario").raw(run_scenario_json(preset, run));
            w.end_object();
        }
        w.end_array();
        w.end_object();
    }
    w.end_array();
    return w.take();
}

std::string gpus_json() {
    json::Writer w;
    w.begin_array();
    for (const auto& gpu : gpu_catalogue()) {
        w.begin_object();
        w.field("id", gpu.id).field("name", gpu.name).field("memory_bytes", gpu.memory_bytes);
        w.field("peak_flops", gpu.peak_flops).field("watts", gpu.watts);
        w.field("memory_bandwidth", gpu.memory_bandwidth).field("source", gpu.source);
        write_gpu_interconnect(w, gpu);
        w.end_object();
    }
    w.end_array();
    return w.take();
}

std::string time_axis_marks_json() {
    json::Writer w;
    w.begin_array();
    for (const auto& mark : quantity::time_axis_marks()) {
        w.begin_object();
        w.field("seconds", mark.seconds).field("label", mark.label);
        w.end_object();
    }
    w.end_array();
    return w.take();
}

std::string duration_ticks_json(double max_seconds, int count) {
    json::Writer w;
    w.begin_array();
    for (const double seconds : quantity::duration_ticks(max_seconds, count)) w.number(seconds);
    w.end_array();
    return w.take();
}

std::string default_scenario_json() {
    const ScenarioReading reading = read_scenario_text("{}");
    return write_scenario(reading.scenario);
}

}  // namespace trainscope
