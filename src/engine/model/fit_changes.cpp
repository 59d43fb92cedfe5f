#include "engine/model/fit_changes.hpp"

#include <algorithm>
#include <cmath>

#include "engine/model/field_limits.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/hardware.hpp"

namespace trainscope {

const char* fit_change_name(FitChangeKind kind) {
    switch (kind) {
        case FitChangeKind::more_gpus:
            return "more_gpus";
        case FitChangeKind::larger_gpu:
            return "larger_gpu";
        case FitChangeKind::zero_stage:
            return "zero_stage";
        case FitChangeKind::recompute:
            return "recompute";
        case FitChangeKind::micro_batch:
            return "micro_batch";
        case FitChangeKind::sequence:
            return "sequence";
        case FitChangeKind::offload:
            return "offload";
        case FitChangeKind::method:
            return "method";
    }
    return "more_gpus";
}

const char* fit_change_cost_name(FitChangeCost cost) {
    switch (cost) {
        case FitChangeCost::nothing:
            return "nothing";
        case FitChangeCost::time:
            return "time";
        case FitChangeCost::money:
            return "money";
        case FitChangeCost::goal:
            return "goal";
    }
    return "nothing";
}

FitChangeCost fit_change_cost(const FitChange& change, const Scenario& scenario, double current_run_seconds) {
    switch (change.kind) {
        case FitChangeKind::method:
        case FitChangeKind::sequence:
            // Another method trains adapters on a fine-tuning run's tokens; shorter sequences teach a
            // shorter context: each makes another run fit (docs/model.md §15, §8).
            return FitChangeCost::goal;
        case FitChangeKind::more_gpus:
        case FitChangeKind::larger_gpu:
            return FitChangeCost::money;
        default:
            break;
    }
    // A setting of the same GPUs costs time when the run it times is longer than the scenario's own
    // (recompute's extra forward pass, a smaller micro-batch, offload's PCIe traffic), else nothing.
    const bool same_tokens = change.scenario.training.tokens == scenario.training.tokens;
    const bool longer =
        !(current_run_seconds > 0) || !same_tokens || change.check.run_seconds > current_run_seconds * (1 + 1e-9);
    return longer ? FitChangeCost::time : FitChangeCost::nothing;
}

namespace {

// Adds the change when the changed scenario obeys the rules and fits.
bool try_change(std::vector<FitChange>& changes, FitChangeKind kind, const Scenario& changed,
                const ParameterCount& params) {
    // The bounds turn most changes that do not fit away without their timeline or their step time.
    if (!layout_is_valid(changed) || !fits_judged(changed, params)) return false;
    const LayoutCheck check = check_layout(changed, params);
    if (!check.fits) return false;
    changes.push_back({kind, changed, check});
    return true;
}

// Adds the change on the fastest layout that fits with it (the search's own, docs/model.md §17).
bool try_change_with_layout(std::vector<FitChange>& changes, FitChangeKind kind, const Scenario& changed,
                            const ParameterCount& params) {
    FitLayout fastest;
    if (!fastest_fitting_layout(changed, params, fastest)) return false;
    changes.push_back({kind, std::move(fastest.scenario), fastest.check, true});
    return true;
}

// try_change, and with ChangeLayouts::any, when the change does not fit at the scenario's layout,
// try_change_with_layout.
bool try_change_on(ChangeLayouts layouts, std::vector<FitChange>& changes, FitChangeKind kind, const Scenario& changed,
                   const ParameterCount& params) {
    if (try_change(changes, kind, changed, params)) return true;
    return layouts == ChangeLayouts::any && try_change_with_layout(changes, kind, changed, params);
}

// The fewest GPUs of this type that fit at this layout: whole data-parallel groups (t·p·c GPUs,
// as many of them as expert groups need), doubling then halving. Only ZeRO-3 shrinks every state
// with more GPUs (ZeRO-0 to 2 keep the 16-bit weights whole), so the change brings it along, as
// the estimate's fewest GPUs do (docs/model.md §3).
void more_gpus(const Scenario& s, const ParameterCount& params, std::vector<FitChange>& changes) {
    const ParallelSettings& l = s.parallel;
    double groups_per_unit = 1;
    while (std::fmod(groups_per_unit * l.context, l.expert) != 0) ++groups_per_unit;  // e ≤ 10^4
    const double unit = l.tensor * l.pipeline * l.context * groups_per_unit;
    const double limit = find_field_limit("parallel.gpus")->max;
    Scenario trial = s;
    trial.parallel.zero_stage = 3;
    const double first = std::floor(l.gpus / unit) + 1, cap = std::floor(limit / unit);
    if (first > cap) return;
    // Units of GPUs above the scenario's: fits(k) is true when first + k − 1 units fit.
    const double k = largest_fitting(cap - first + 1, [&](double units) {
        trial.parallel.gpus = (cap - units + 1) * unit;  // counted from the top: more GPUs, less memory
        return fits_judged(trial, params);
    });
    if (k <= 0) return;
    trial.parallel.gpus = (cap - k + 1) * unit;
    try_change(changes, FitChangeKind::more_gpus, trial, params);
}

// The smallest larger GPU of the catalogue that fits at the scenario's layout; failing that, with
// ChangeLayouts::any, the smallest on which some layout fits. A layout's model states do not
// depend on the GPU, so one with less memory than the fewest states any layout keeps
// (`least_states`) is not searched.
void larger_gpu(const Scenario& s, const ParameterCount& params, ChangeLayouts layouts, double least_states,
                std::vector<FitChange>& changes) {
    std::vector<const Gpu*> larger;
    for (const Gpu& gpu : gpu_catalogue())
        if (gpu.memory_bytes > s.hardware.gpu.memory_bytes) larger.push_back(&gpu);
    std::sort(larger.begin(), larger.end(),
              [](const Gpu* x, const Gpu* y) { return x->memory_bytes < y->memory_bytes; });
    Scenario trial = s;
    for (const Gpu* gpu : larger) {
        trial.hardware.gpu = *gpu;
        if (try_change(changes, FitChangeKind::larger_gpu, trial, params)) return;
    }
    if (layouts != ChangeLayouts::any) return;
    for (const Gpu* gpu : larger) {
        if (tensor_memory_bytes(*gpu) < least_states) continue;
        trial.hardware.gpu = *gpu;
        if (try_change_with_layout(changes, FitChangeKind::larger_gpu, trial, params))
            return;  // its layout failed above
    }
}

void settings_changes(const Scenario& s, const ParameterCount& params, std::vector<FitChange>& changes) {
    Scenario trial = s;
    for (int zero = s.parallel.zero_stage + 1; zero <= 3; ++zero) {
        trial.parallel.zero_stage = zero;
        if (try_change(changes, FitChangeKind::zero_stage, trial, params)) break;
    }
    trial = s;
    for (const Recompute r : {Recompute::selective, Recompute::full}) {
        if (r <= s.training.recompute) continue;
        trial.training.recompute = r;
        if (try_change(changes, FitChangeKind::recompute, trial, params)) break;
    }
    trial = s;
    if (s.training.micro_batch > 1) {
        const double b = largest_fitting(s.training.micro_batch - 1, [&](double value) {
            trial.training.micro_batch = value;
            return fits_judged(trial, params);
        });
        trial.training.micro_batch = b;
        if (b >= 1) try_change(changes, FitChangeKind::micro_batch, trial, params);
    }
    trial = s;
    for (double sequence = std::floor(s.training.sequence / 2); sequence >= 1; sequence = std::floor(sequence / 2)) {
        trial.training.sequence = sequence;
        if (try_change(changes, FitChangeKind::sequence, trial, params)) break;
    }
}

void memory_saving_changes(const Scenario& s, const ParameterCount& params, ChangeLayouts layouts,
                           std::vector<FitChange>& changes) {
    Scenario trial = s;
    if (s.training.offload == Offload::none) {
        trial.training.offload = Offload::optimizer;
        trial.parallel.zero_stage = std::max(1, s.parallel.zero_stage);
        if (!try_change_on(layouts, changes, FitChangeKind::offload, trial, params)) {
            trial.training.offload = Offload::parameters;
            trial.parallel.zero_stage = 3;
            try_change_on(layouts, changes, FitChangeKind::offload, trial, params);
        }
    }
    // LoRA on a 16-bit base, then QLoRA's 4-bit one (docs/model.md §15), with their defaults and
    // the fine-tuning run's tokens, as the page's method control sets them (finetune.hpp).
    if (s.training.method == FineTuningMethod::full &&
        try_change_on(layouts, changes, FitChangeKind::method, with_fine_tuning_method(s, FineTuningMethod::lora),
                      params))
        return;
    if (s.training.method != FineTuningMethod::qlora)
        try_change_on(layouts, changes, FitChangeKind::method, with_fine_tuning_method(s, FineTuningMethod::qlora),
                      params);
}

}  // namespace

std::vector<FitChange> fit_changes(const Scenario& scenario, const ParameterCount& params, ChangeLayouts layouts,
                                   double current_run_seconds, double least_states) {
    std::vector<FitChange> changes;
    more_gpus(scenario, params, changes);
    larger_gpu(scenario, params, layouts, least_states, changes);
    settings_changes(scenario, params, changes);
    memory_saving_changes(scenario, params, layouts, changes);
    for (FitChange& change : changes) change.cost = fit_change_cost(change, scenario, current_run_seconds);
    // What it costs first (a setting that costs nothing before one that costs time, before hardware,
    // before another goal); within one cost, the shortest run first.
    std::stable_sort(changes.begin(), changes.end(), [](const FitChange& x, const FitChange& y) {
        if (x.cost != y.cost) return x.cost < y.cost;
        return x.check.run_seconds < y.check.run_seconds;
    });
    return changes;
}

}  // namespace trainscope
