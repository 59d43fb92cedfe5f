// The engine's text interface: JSON in, JSON out, one schema everywhere (docs/scenario.md).
// The CLI, the wasm bindings and the quiz all go through these; none of them throws.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainscope {

// {errors} for a scenario every field of which is valid but whose result would not be finite:
// what every call answers when its JSON writer met a NaN or an infinity.
std::string too_large_errors();

// Scenario JSON → estimate JSON. Malformed or invalid input yields an estimate whose
// "errors" list names each bad field; the numbers are then absent.
std::string estimate_json(std::string_view scenario_json);

// Scenario JSON → one training step on one GPU, event by event (docs/scenario.md, "Step
// timeline"): {errors, layers, prefetch_layers, seconds, …, peak, events: [{phase, block, layer,
// start, seconds, held: {weights, …, total}}]}. Bad input yields {errors} naming each field.
std::string step_timeline_json(std::string_view scenario_json);

// The same, in columns (write_step_timeline_columns): the JSON without "events", the events'
// numbers in `numbers`. Bad input yields {errors} and no numbers.
std::string step_timeline_columns(std::string_view scenario_json, std::vector<double>& numbers);

// The model presets, as a JSON array of {id, name, params, active_params, source, architecture,
// published_active_params, context_window, runs: [{id, name, …, scenario}]} (docs/scenario.md, "Presets").
std::string presets_json();

// The GPU catalogue, as a JSON array of {id, name, memory_bytes, peak_flops, watts,
// memory_bandwidth, source, short_name, model_name, gpus_per_node, intra_node_bandwidth,
// inter_node_bandwidth, pcie_bandwidth, interconnect_source} (docs/scenario.md, "GPU catalogue").
std::string gpus_json();

// The marks of a logarithmic time axis, as a JSON array of {seconds, label}: "1 second" …
// "100 million years" (quantity::time_axis_marks).
std::string time_axis_marks_json();
// A linear time axis's round ticks (quantity::duration_ticks), as a JSON array of seconds.
std::string duration_ticks_json(double max_seconds, int count);

// The scenario used when a field is not given, fully spelled out.
std::string default_scenario_json();

}  // namespace trainscope
