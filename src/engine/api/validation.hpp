// How close the engine is to measured runs (docs/validation.md, issue 32): the summary of the
// validation table, as data for the page. The figures are constants that
// tests/engine/validation_test.cpp recomputes from tests/engine/validation/runs.json (the engine on
// every run it models) and fails on any drift; change them only with the table.
#pragma once

#include <string>

namespace trainscope {

struct ValidationSummary {
    int runs_compared = 0;    // runs the engine models (a measured peak or an out-of-memory outcome)
    int runs_with_peak = 0;   // of those, runs that ran and published their peak
    int projects = 0;         // independent projects the runs come from
    double median_error = 0;  // median |engine − measured| / measured over the runs with a peak
    double worst_error = 0;   // the largest of those errors
    int verdicts_wrong = 0;   // fits / out-of-memory verdicts the engine gets wrong
};

ValidationSummary validation_summary();

// {runs_compared, runs_with_peak, projects, median_error, worst_error, verdicts_wrong}: errors as
// fractions (0.091 for 9.1%).
std::string validation_summary_json();

}  // namespace trainscope
