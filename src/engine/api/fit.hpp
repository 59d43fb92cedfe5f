// The inverse search as text (docs/scenario.md, "What fits"): a scenario in, what fits out.
#pragma once

#include <string>
#include <string_view>

namespace trainscope {

// A scenario, or {"scenario": {...}, "max_layouts": 20} → {errors, notes, scenario, current,
// largest_micro_batch, largest_sequence, layouts, layouts_total, layouts_examined, complete,
// changes, reasons} (docs/scenario.md). Never throws; bad input gives {errors, notes} only.
std::string fit_json(std::string_view input_json);

}  // namespace trainscope
