// What the page draws after one input, in one call: the estimate, the "one whole copy" reference
// (the same scenario on one GPU, unsharded: section 1's comparison), and the step timeline when
// the step section is on screen (docs/scenario.md, "The page's view"). Asking once keeps one
// input to one scenario read and one estimate, where the page asked three times before.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainscope {

struct ViewRequest {
    // The reference key of the last view the caller holds: when the reference is the same, it is
    // not computed again and the answer says "unchanged" (dragging a parallelism control leaves
    // one whole copy as it was).
    std::string known_reference;
    // The step timeline, in columns (write_step_timeline_columns): its numbers go to `step_numbers`.
    bool step = false;
    // The estimate's parts only some sections draw (EstimateParts), computed and written only
    // when asked: the time section's second curve and its summary; the step section's schedule.
    bool communication_curve = false;
    bool communication_schedule = false;
    // The scenario fields the page shows controls for, separated by spaces, or "*" for all: the
    // notes' advice names only these (estimate's shown_controls).
    std::string shown_controls = "*";
};

// Scenario JSON → {"estimate": …, "reference": {"key", then "estimate" | "unchanged": true |
// "same": true}, "text": {"zero_formula"}, "step": … (when asked)}. The estimate is estimate_json's
// without the parts not asked for; the reference's estimate has none of them (section 1 draws
// memory only). Bad input yields {"errors": […]} alone, as estimate_json does, and no numbers. Never throws.
std::string view_json(std::string_view scenario_json, const ViewRequest& request, std::vector<double>& step_numbers);

// The "one whole copy" reference of a scenario, as scenario JSON: the same model, data and
// hardware on one GPU, with no tensor, pipeline or ZeRO sharding. Bad input yields {"errors"}.
std::string reference_scenario_json(std::string_view scenario_json);

}  // namespace trainscope
