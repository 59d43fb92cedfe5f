// The changes that make a setup fit (docs/model.md §17), and what they share with the search in
// fit.cpp. Inside the engine; fit.hpp is the interface.
#pragma once

#include <vector>

#include "engine/model/fit.hpp"

namespace trainscope {

// Whether a scenario fits: by the bounds on its peak where they decide, else by its timeline (the
// same answer as check_layout's, without walking the timeline most of the time).
bool fits_judged(const Scenario& scenario, const ParameterCount& params);

// The fastest layout of the scenario's GPUs that fits (the ranked search's first, at its largest
// micro-batch); false when none does.
bool fastest_fitting_layout(const Scenario& scenario, const ParameterCount& params, FitLayout& fastest);

// Which layouts a change is tried with: the scenario's own, or, when no layout of its GPUs fits,
// any: the change then comes with the fastest layout that fits with it.
enum class ChangeLayouts { current, any };

// For a scenario that does not fit: each kind of change's cheapest setting that fits, ordered by what
// it costs (FitChangeCost: nothing, time, money, then the changes of goal), fastest first within each.
// `current_run_seconds`: the scenario's own run time at its layout (what "costs time" is against);
// `least_states`: the fewest model-state bytes any layout of the scenario keeps per GPU (the search's).
std::vector<FitChange> fit_changes(const Scenario& scenario, const ParameterCount& params, ChangeLayouts layouts,
                                   double current_run_seconds, double least_states);

// What `change` costs against a run of `current_run_seconds` on the scenario's own GPUs.
FitChangeCost fit_change_cost(const FitChange& change, const Scenario& scenario, double current_run_seconds);

}  // namespace trainscope
