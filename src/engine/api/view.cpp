#include "engine/api/view.hpp"

#include <cstdint>

#include "engine/api/api.hpp"
#include "engine/api/estimate_json.hpp"
#include "engine/api/timeline_json.hpp"
#include "engine/model/choices.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/scenario.hpp"
#include "engine/model/timeline.hpp"
#include "engine/text/json.hpp"
#include "engine/text/messages.hpp"

namespace trainscope {

namespace {

// Section 1 compares one whole copy of the model: the scenario on one GPU, unsharded. Every
// parallel check of read_scenario passes for it whenever it passes for the scenario. With offload
// the copy keeps the ZeRO stage: on one GPU it shards nothing, but it is what decides what leaves
// the GPU (ZeRO-Offload moves the gradients from stage 2 on, offload.cpp; offload needs stage 1 or
// 3, scenario.cpp), so the bars draw what the offload note says moved (issue 33, item 6).
Scenario one_whole_copy(const Scenario& scenario) {
    Scenario copy = scenario;
    copy.parallel = ParallelSettings{};
    if (scenario.training.offload != Offload::none) copy.parallel.zero_stage = scenario.parallel.zero_stage;
    return copy;
}

// FNV-1a, 64 bits, as 16 hex digits: a short name for a scenario, not a security measure.
std::string short_hash(std::string_view text) {
    std::uint64_t hash = 0xcbf29ce484222325ULL;
    for (const char c : text) {
        hash ^= static_cast<unsigned char>(c);
        hash *= 0x100000001b3ULL;
    }
    // Written by hand: snprintf would link libc's printf (~7 KB gzipped of wasm) for one number.
    std::string hex(16, '0');
    for (int digit = 15; digit >= 0; --digit, hash >>= 4)
        hex[static_cast<std::size_t>(digit)] = "0123456789abcdef"[hash & 0xf];
    return hex;
}

// The reference member: its key, and its estimate unless the caller holds it or it is the estimate itself.
bool write_reference(json::Writer& w, const Scenario& scenario, const ViewRequest& request) {
    const Scenario copy = one_whole_copy(scenario);
    const std::string copy_text = write_scenario(copy);
    const std::string key = short_hash(copy_text);
    w.key("reference").begin_object().field("key", key);
    if (key == request.known_reference) {
        w.field_bool("unchanged", true);
    } else if (copy_text == write_scenario(scenario)) {
        w.field_bool("same", true);
    } else {
        bool all_finite = true;
        // Section 1 draws the reference's memory: the parts only other sections draw are left out.
        const EstimateParts memory_only{false, false};
        const std::string text = write_estimate(copy, estimate(copy, StepDetail::peak, memory_only), &all_finite);
        if (!all_finite) return false;
        w.key("estimate").raw(text);
    }
    w.end_object();
    return true;
}

}  // namespace

std::string view_json(std::string_view scenario_json, const ViewRequest& request, std::vector<double>& step_numbers) {
    step_numbers.clear();
    const ScenarioReading reading = read_scenario_text(scenario_json);
    if (!reading.ok()) return write_errors(reading.errors);
    // One estimate serves the figures and the step chart: its events are kept only when asked for.
    EstimateParts parts;
    parts.communication_curve = request.communication_curve;
    parts.communication_schedule = request.communication_schedule;
    const Estimate result =
        estimate(reading.scenario, request.step ? StepDetail::events : StepDetail::peak, parts, request.shown_controls);
    bool all_finite = true;
    const std::string estimate_text = write_estimate(reading.scenario, result, &all_finite);
    if (!all_finite) return too_large_errors();
    json::Writer w;
    w.begin_object();
    w.key("estimate").raw(estimate_text);
    if (!write_reference(w, reading.scenario, request)) return too_large_errors();
    // Sentences a section shows that depend on the scenario but are not the estimate's figures.
    w.key("text").begin_object().field("zero_formula", zero_stage_formula(result.training.bytes_per_param));
    w.field("zero_unsharded",
            zero_unsharded_sentence(reading.scenario.parallel.zero_stage, result.training.data_parallel))
        .end_object();
    if (request.step) {
        const std::string step_text = write_step_timeline_columns(result.step, step_numbers, &all_finite);
        if (!all_finite) {
            step_numbers.clear();
            return too_large_errors();
        }
        w.key("step").raw(step_text);
    }
    w.end_object();
    return w.take();
}

std::string reference_scenario_json(std::string_view scenario_json) {
    const ScenarioReading reading = read_scenario_text(scenario_json);
    if (!reading.ok()) return write_errors(reading.errors);
    return write_scenario(one_whole_copy(reading.scenario));
}

}  // namespace trainscope
