// The estimate as JSON (docs/scenario.md): what estimate_json, the page's view, the fit search and
// the side-by-side methods write.
#pragma once

#include <string>
#include <vector>

#include "engine/model/estimate.hpp"

namespace trainscope {

// The estimate, including the resolved scenario's GPU and notes, with the parts it was computed
// with (estimate.parts) and no member of those it was not. `all_finite` is set false if any number
// was NaN or infinite (written as null).
std::string write_estimate(const Scenario& scenario, const Estimate& estimate, bool* all_finite = nullptr);

// An estimate that carries only errors.
std::string write_errors(const std::vector<FieldError>& errors);

// Every number format: [{id, name, bytes, label: "BF16 (2 bytes)"}], for labels that state bytes.
std::string number_formats_json();

}  // namespace trainscope
