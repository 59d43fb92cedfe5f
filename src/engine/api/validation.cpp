#include "engine/api/validation.hpp"

#include "engine/text/json.hpp"

namespace trainscope {

ValidationSummary validation_summary() {
    // docs/validation.md, "Results": the validation test's summary line today (its last row).
    ValidationSummary summary;
    summary.runs_compared = 55;
    summary.runs_with_peak = 49;
    summary.projects = 5;
    summary.median_error = 0.087;
    summary.worst_error = 0.401;
    summary.verdicts_wrong = 2;
    return summary;
}

std::string validation_summary_json() {
    const ValidationSummary summary = validation_summary();
    json::Writer w;
    w.begin_object();
    w.field("runs_compared", summary.runs_compared).field("runs_with_peak", summary.runs_with_peak);
    w.field("projects", summary.projects).field("median_error", summary.median_error);
    w.field("worst_error", summary.worst_error).field("verdicts_wrong", summary.verdicts_wrong);
    w.end_object();
    return w.take();
}

}  // namespace trainscope
