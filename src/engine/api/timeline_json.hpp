// The step timeline as JSON (docs/scenario.md, "Step timeline"): whole, or in columns for a page
// that asks on every slider step.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "engine/model/timeline.hpp"

namespace trainscope {

// The timeline as JSON (docs/scenario.md, "Step timeline"). Sets `all_finite` false on NaN/infinity.
std::string write_step_timeline(const StepTimeline& timeline, bool* all_finite = nullptr);

// Numbers per event in write_step_timeline_columns: the phase's and block's indices into "phases"
// and "blocks", layer, layer_last, micro_batch, micro_batch_last, start, seconds, then held's
// weights … temporary and total ("event_fields", "held_fields").
constexpr std::size_t step_event_numbers = 17;

// The same timeline for a page that asks for it on every slider step: the JSON of
// write_step_timeline without "events", plus event_count, event_fields, held_fields, phases and
// blocks; `numbers` gets step_event_numbers per event, in order (docs/scenario.md, "Step
// timeline, in columns"). Writing and parsing 1,500 event objects is what this avoids.
std::string write_step_timeline_columns(const StepTimeline& timeline, std::vector<double>& numbers,
                                        bool* all_finite = nullptr);

}  // namespace trainscope
