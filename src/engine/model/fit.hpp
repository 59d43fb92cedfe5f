// The inverse question (docs/model.md §17): what fits on these GPUs. Every answer is judged by the
// estimate's own per-GPU peak (the step timeline's, docs/model.md §9) and timed with the
// communication model (§13), so the search and the estimate never disagree.
#pragma once

#include <cmath>
#include <string>
#include <vector>

#include "engine/model/model.hpp"
#include "engine/model/scenario.hpp"

namespace trainscope {

// One scenario's memory and time, as the estimate computes them.
struct LayoutCheck {
    bool fits = false;
    double peak_bytes = 0;     // = the estimate's training.per_gpu.total
    double step_seconds = 0;   // the communication model's step (bubble and communication included)
    double run_seconds = 0;    // the run's tokens at that step time
    double micro_batches = 1;  // μ
};

// The model's parameters as the estimate counts them (a bare count, or the architecture's).
ParameterCount scenario_parameters(const Scenario& scenario);

// When check_layout times the step: always, never (memory alone), or only when the scenario fits.
enum class Timing { always, never, if_fits };

// Memory (and time, as `timing` asks) of one scenario that read_scenario accepted.
LayoutCheck check_layout(const Scenario& scenario, const ParameterCount& params, Timing timing);
inline LayoutCheck check_layout(const Scenario& scenario, const ParameterCount& params, bool with_time = true) {
    return check_layout(scenario, params, with_time ? Timing::always : Timing::never);
}

// True when the scenario's layout obeys the reader's layout rules (docs/scenario.md, "Layout rules").
bool layout_is_valid(const Scenario& scenario);

// The largest value in [1, cap] with which `fits` holds and value + 1 does not (or cap), found by
// doubling then halving: exact where memory rises with the value, and where it does not (a
// pipeline with a fixed global batch) still a value that fits next to one that does not.
// 0 when even 1 does not fit.
template <typename Fits>
double largest_fitting(double cap, Fits fits) {
    if (cap < 1 || !fits(1.0)) return 0;
    double low = 1, high = 2;
    while (high <= cap && fits(high)) {
        low = high;
        high *= 2;
    }
    if (high > cap) {
        if (fits(cap)) return cap;
        high = cap;
    }
    while (high - low > 1) {
        const double middle = std::floor((low + high) / 2);
        if (fits(middle))
            low = middle;
        else
            high = middle;
    }
    return low;
}

struct FitLayout {
    Scenario scenario;  // the layout, with its largest micro-batch
    LayoutCheck check;
};

// A change to a setup that does not fit (docs/model.md §17), and what it does.
enum class FitChangeKind { more_gpus, larger_gpu, zero_stage, recompute, micro_batch, sequence, offload, method };
const char* fit_change_name(FitChangeKind kind);

// What a change costs the person (docs/model.md §17, "Changes"), the order the changes come in:
// a setting that leaves the run no longer, a setting that lengthens it, hardware to buy or rent;
// and apart from those, a change of goal (another method on a fine-tuning run's tokens, shorter
// sequences): it makes another run fit, not this one.
enum class FitChangeCost { nothing, time, money, goal };
const char* fit_change_cost_name(FitChangeCost cost);

struct FitChange {
    FitChangeKind kind = FitChangeKind::more_gpus;
    Scenario scenario;
    LayoutCheck check;
    bool new_layout = false;  // the change fits on another layout (no layout of the scenario's GPUs fits without it)
    FitChangeCost cost = FitChangeCost::nothing;
};

struct FitSearch {
    LayoutCheck current;
    double largest_micro_batch = 0;  // 0: not even one sequence fits
    LayoutCheck largest_micro_batch_check;
    double largest_sequence = 0;  // whole tokens (a multiple of 2c with context parallelism); 0: none fits
    LayoutCheck largest_sequence_check;
    std::vector<FitLayout> layouts;  // ranked by run time, at most `max_layouts`
    double layouts_total = 0;        // layouts that fit (stages at one ZeRO rank with the same figures once, §17)
    double layouts_examined = 0;     // layouts the rules allow (each is judged, most by bounds alone)
    double timelines_walked = 0;     // layouts whose peak bounds left the verdict open: the timeline decided
    double steps_timed = 0;          // layouts timed with the communication model at micro-batch 1
    double steps_bounded = 0;        // layouts whose cheap run-time bound left them in the running: step time alone
    double least_states = 0;         // the fewest model-state bytes any layout keeps per GPU
    std::vector<FitChange> changes;  // for a setup that does not fit: each change's cheapest setting that fits, by cost
    bool complete = true;            // false when the layouts outnumbered the search's budget (fit_check_budget)
};

// The most memory checks one search makes, so that no input the schema accepts takes seconds;
// a search that reaches it says so (FitSearch::complete).
constexpr double fit_check_budget = 200000;

// How the search decides (docs/model.md §17): with bounds that skip the work they prove needless
// (the same answer), or every layout walked and timed (the reference the tests compare with).
enum class FitPruning { exact, none };

// docs/model.md §17. `max_layouts` bounds the ranked list (its total is counted either way).
FitSearch search_fits(const Scenario& scenario, double max_layouts, FitPruning pruning = FitPruning::exact);

// Every layout the rules allow, each with every micro-batch from 1 to `max_micro_batch`: what the
// search's pruning must agree with (tests), never used by the search itself.
std::vector<FitLayout> brute_force_fits(const Scenario& scenario, double max_micro_batch);

}  // namespace trainscope
