#include "engine/model/fit.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "engine/model/communication.hpp"
#include "engine/model/compute.hpp"
#include "engine/model/field_limits.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/hardware.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/offload.hpp"
#include "engine/model/timeline.hpp"

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

ParameterCount scenario_parameters(const Scenario& scenario) {
    if (!scenario.model.architecture_assumed) return count_parameters(scenario.model.architecture);
    ParameterCount params;
    params.total = params.active = scenario.model.given_params;  // as estimate() counts a bare count
    return params;
}

LayoutCheck check_layout(const Scenario& s, const ParameterCount& params, Timing timing) {
    const Architecture& a = s.model.architecture;
    // The estimate's own chain (estimate.cpp), without what the peak and the step time do not need.
    const FineTuningFigures fine_tuning = fine_tuning_figures(s.training, a, params.total);
    const BytesPerParam bytes = fine_tuned_bytes_per_param(fine_tuning, params.total);
    ModelStateBytes states = per_gpu_model_states(bytes, params, s.parallel);
    const ActivationBytes activations = training_activations(a, s.training, s.parallel);
    offload_states(s, bytes, fine_tuning.trainable_bytes, params, activations.micro_batches, states);
    const TrainingCompute compute = training_compute(a, params.active, s);
    // Grouping a timeline's events changes no peak (docs/scenario.md, "Step timeline"): the fewest will do.
    const StepTimeline timeline =
        step_timeline(s, params, bytes, states, activations, compute, StepDetail::peak, nullptr, 0);
    LayoutCheck check;
    check.peak_bytes = timeline.peak().total();
    check.fits = check.peak_bytes <= s.hardware.gpu.memory_bytes;
    check.micro_batches = activations.micro_batches;
    if (timing == Timing::always || (timing == Timing::if_fits && check.fits)) {
        const CommunicationModel communication = communication_model(s, params, bytes, compute);
        check.step_seconds = communication.step_seconds;
        // docs/model.md §17: the run's tokens in steps of μ·b·d sequences.
        const double sequences = activations.micro_batches * s.training.micro_batch * s.parallel.data_parallel();
        check.run_seconds = s.training.tokens / (sequences * s.training.sequence) * communication.step_seconds;
    }
    return check;
}

bool layout_is_valid(const Scenario& s) {
    const ParallelSettings& l = s.parallel;
    const Architecture& a = s.model.architecture;
    const double product = l.tensor * l.pipeline * l.context;
    if (std::fmod(l.gpus, product) != 0 || std::fmod(a.heads, l.tensor) != 0) return false;
    if (l.pipeline > a.layers || l.pipeline * l.interleave > a.layers) return false;
    if (l.context > 1 && std::fmod(s.training.sequence, 2 * l.context) != 0) return false;
    if (l.expert > 1 && (a.experts <= 1 || std::fmod(a.experts, l.expert) != 0 ||
                         std::fmod(l.gpus / product * l.context, l.expert) != 0))
        return false;
    if (s.training.offload == Offload::optimizer && l.zero_stage < 1) return false;
    if (s.training.offload == Offload::parameters && l.zero_stage < 3) return false;
    return true;
}

namespace {

// Divisors of a whole number up to 10^7 (parallel.gpus' limit), ascending.
std::vector<double> divisors(double n) {
    std::vector<double> low, high;
    for (double k = 1; k * k <= n; ++k) {
        if (std::fmod(n, k) != 0) continue;
        low.push_back(k);
        if (k * k != n) high.push_back(n / k);
    }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

// Interleaving (virtual stages per GPU): 1, or with a pipeline whose stages split the layers
// evenly, every divisor of the layers per stage (Megatron's rule for the interleaved schedule).
std::vector<double> interleave_choices(const Architecture& a, double pipeline) {
    if (pipeline <= 1 || std::fmod(a.layers, pipeline) != 0) return {1};
    return divisors(a.layers / pipeline);
}

// Calls visit(scenario) for every layout of the scenario's GPUs that the rules allow: tensor,
// pipeline and interleave, context, expert, ZeRO stage and recompute; even stages, micro-batch 1.
// Stops early when visit returns false.
template <typename Visit>
void for_each_layout(const Scenario& base, Visit visit) {
    const Architecture& a = base.model.architecture;
    Scenario s = base;
    s.parallel.first_stage_layers = s.parallel.last_stage_layers = 0;
    s.training.micro_batch = 1;
    const double gpus = base.parallel.gpus;
    for (const double t : divisors(gpus)) {
        if (std::fmod(a.heads, t) != 0) continue;
        for (const double p : divisors(gpus / t)) {
            if (p > a.layers) break;
            for (const double c : divisors(gpus / (t * p))) {
                if (c > 1 && std::fmod(base.training.sequence, 2 * c) != 0) continue;
                const double data_context = gpus / (t * p);
                for (const double e : a.experts > 1 ? divisors(a.experts) : std::vector<double>{1}) {
                    if (std::fmod(data_context, e) != 0) continue;
                    for (const double m : interleave_choices(a, p)) {
                        s.parallel.tensor = t, s.parallel.pipeline = p, s.parallel.context = c;
                        s.parallel.expert = e, s.parallel.interleave = m;
                        for (int zero = 0; zero <= 3; ++zero) {
                            s.parallel.zero_stage = zero;
                            if (!layout_is_valid(s)) continue;
                            for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
                                s.training.recompute = r;
                                if (!visit(s)) return;
                            }
                        }
                    }
                }
            }
        }
    }
}

// The largest micro-batch worth trying: the field's limit, or with a global batch the most
// sequences one data-parallel replica takes per step (beyond it the step only grows).
double micro_batch_cap(const Scenario& s) {
    const double limit = find_field_limit("training.micro_batch")->max;
    if (s.training.global_batch <= 0) return limit;
    return std::fmin(limit, std::fmax(1.0, std::ceil(s.training.global_batch / s.parallel.data_parallel() - 1e-9)));
}

double largest_micro_batch_of(const Scenario& s, const ParameterCount& params) {
    Scenario trial = s;
    return largest_fitting(micro_batch_cap(s), [&](double b) {
        trial.training.micro_batch = b;
        return check_layout(trial, params, false).fits;
    });
}

// Sequences on powers of two from the shortest the context split allows (2c tokens) to the field's limit.
double largest_sequence_of(const Scenario& s, const ParameterCount& params) {
    const double shortest = s.parallel.context > 1 ? 2 * s.parallel.context : 1;
    const double longest = find_field_limit("training.sequence")->max;
    const double steps = std::floor(std::log2(longest / shortest)) + 1;
    Scenario trial = s;
    const double step = largest_fitting(steps, [&](double k) {
        trial.training.sequence = shortest * std::exp2(k - 1);
        return check_layout(trial, params, false).fits;
    });
    return step > 0 ? shortest * std::exp2(step - 1) : 0;
}

// A fitting layout while the search runs: its settings alone, cheap to keep and sort (a
// Scenario carries strings); the listed ones become scenarios again.
struct Candidate {
    ParallelSettings parallel;
    Recompute recompute = Recompute::none;
    double order = 0;      // its place in the enumeration: the last tie-break, so the ranking is one
    double least_run = 0;  // a lower bound on its run time: cheap, then exact (docs/model.md §17)
    bool bounded = false;  // least_run is the exact bound
    LayoutCheck check;     // memory and time, once timed
};

// Shorter run first; at equal time, less memory; then the enumeration's order.
bool faster(const Candidate& x, const Candidate& y) {
    if (x.check.run_seconds != y.check.run_seconds) return x.check.run_seconds < y.check.run_seconds;
    if (x.check.peak_bytes != y.check.peak_bytes) return x.check.peak_bytes < y.check.peak_bytes;
    return x.order < y.order;
}

// What every layout of one search shares (docs/model.md §17): the figures that depend on the
// model, the training settings and the GPU count alone, worked out once.
struct SharedFigures {
    ParameterCount params;
    FineTuningFigures fine_tuning;
    BytesPerParam bytes;
    LayerParameters layer;
    TrainingCompute compute[3];  // by recompute: none, selective, full
};

SharedFigures shared_figures(const Scenario& scenario, const ParameterCount& params) {
    SharedFigures shared;
    shared.params = params;
    shared.fine_tuning = fine_tuning_figures(scenario.training, scenario.model.architecture, params.total);
    shared.bytes = fine_tuned_bytes_per_param(shared.fine_tuning, params.total);
    shared.layer = layer_parameters(scenario.model.architecture, params);
    Scenario s = scenario;
    for (const Recompute r : {Recompute::none, Recompute::selective, Recompute::full}) {
        s.training.recompute = r;
        shared.compute[static_cast<int>(r)] = training_compute(s.model.architecture, params.active, s);
    }
    return shared;
}

// The run's steps at micro-batch 1 (docs/model.md §17: the run's tokens in steps of μ·b·d sequences).
double steps_of_run(const Scenario& s) {
    const double sequences = micro_batches_per_step(s.training, s.parallel) * s.parallel.data_parallel();
    return s.training.tokens / (sequences * s.training.sequence);
}

// A layout's run time at micro-batch 1 as check_layout computes it (the same step, the same
// arithmetic), times a factor just below 1: a lower bound whatever the rounding.
double least_run_seconds(const Scenario& s, const SharedFigures& shared) {
    const TrainingCompute& compute = shared.compute[static_cast<int>(s.training.recompute)];
    const double step = communication_step_seconds(s, shared.params, shared.bytes, compute);
    return steps_of_run(s) * step * (1 - 1e-9);
}

// A cheaper lower bound on the same run time: the step's arithmetic and its pipeline bubble alone
// (docs/model.md §13; Narayanan et al. 2021 §2.2: (p − 1)/v micro-batches' worth), every other
// term being exposed time ≥ 0; lowered by 1 − 10⁻⁶, far more than the rounding of either.
double cheap_run_seconds(const Scenario& s, const SharedFigures& shared, double sustained_flops) {
    const TrainingCompute& compute = shared.compute[static_cast<int>(s.training.recompute)];
    const ParallelSettings& l = s.parallel;
    const double tokens = s.training.tokens > 0 ? s.training.tokens : 1;
    const double micro_batch_seconds =
        compute.hardware_flops / tokens * s.training.sequence / (l.tensor * l.pipeline * l.context) / sustained_flops;
    const double micro_batches = micro_batches_per_step(s.training, l);
    const double bubble = l.pipeline > 1 ? (l.pipeline - 1) / l.interleave : 0.0;
    return steps_of_run(s) * micro_batch_seconds * (micro_batches + bubble) * (1 - 1e-6);
}

// Whether a layout fits at micro-batch 1, and its states. The bounds on the step's peak decide
// most layouts; the ones between them (within a relative 1e-12 of the memory, for rounding) walk
// the timeline, which stays the reference.
struct MemoryVerdict {
    bool fits = false;
    double states = 0;
};

// A layout's activations at micro-batch 1 depend on t, p, c, v and recompute, not on the ZeRO
// stage or e: the enumeration's four ZeRO stages (and expert splits) reuse one computation.
class ActivationMemo {
public:
    // The activations of the layout with the given recompute (the enumeration's other training
    // settings being fixed).
    const ActivationBytes& of(const Scenario& s, Recompute recompute) {
        Entry& entry = entries_[static_cast<int>(recompute)];
        const ParallelSettings& l = s.parallel;
        if (!entry.valid) {
            entry.training = s.training;
            entry.training.recompute = recompute;
        }
        if (!entry.valid || entry.tensor != l.tensor || entry.pipeline != l.pipeline || entry.context != l.context ||
            entry.interleave != l.interleave) {
            entry.valid = true;
            entry.tensor = l.tensor, entry.pipeline = l.pipeline, entry.context = l.context;
            entry.interleave = l.interleave;
            entry.bytes = training_activations(s.model.architecture, entry.training, l);
        }
        return entry.bytes;
    }

private:
    struct Entry {
        bool valid = false;
        double tensor = 0, pipeline = 0, context = 0, interleave = 0;
        TrainingSettings training;
        ActivationBytes bytes;
    };
    Entry entries_[3];  // by recompute: none, selective, full
};

MemoryVerdict judge_memory(const Scenario& s, const SharedFigures& shared, bool prune, ActivationMemo& memo,
                           FitSearch& search) {
    ModelStateBytes states = per_gpu_model_states(shared.bytes, shared.params, s.parallel);
    // = training_activations(...).micro_batches, without the activations a layout the states overflow never needs.
    const double micro_batches = micro_batches_per_step(s.training, s.parallel);
    offload_states(s, shared.bytes, shared.fine_tuning.trainable_bytes, shared.params, micro_batches, states);
    MemoryVerdict verdict;
    verdict.states = states.total();
    const double memory = s.hardware.gpu.memory_bytes;
    // The states are held at every event: a layout they overflow fits at no micro-batch.
    if (verdict.states > memory) return verdict;
    const ActivationBytes& activations = memo.of(s, s.training.recompute);
    // What a recomputed layer rebuilds (timeline.cpp's event_sizes): the layout's activations without recompute.
    const ActivationBytes& without_recompute = memo.of(s, Recompute::none);
    if (prune) {
        const StepPeakBounds bounds =
            step_peak_bounds(s, shared.params, shared.layer, shared.bytes, states, activations, &without_recompute);
        if (bounds.upper * (1 + 1e-12) <= memory) {
            verdict.fits = true;
            return verdict;
        }
        if (bounds.lower * (1 - 1e-12) > memory) return verdict;
    }
    ++search.timelines_walked;
    verdict.fits = check_layout(s, shared.params, Timing::never).fits;
    return verdict;
}

// The run time a candidate's exact bound gives, for a scenario set to its layout.
double exact_bound(Scenario& s, const Candidate& candidate, const SharedFigures& shared, FitSearch& search) {
    s.parallel = candidate.parallel;
    s.training.recompute = candidate.recompute;
    ++search.steps_bounded;
    return least_run_seconds(s, shared);
}

// Keeps in `least` (a max-heap) the `count` least values offered; returns whether it took this one.
bool keep_least(std::vector<double>& least, std::size_t count, double value) {
    if (least.size() < count) {
        least.push_back(value);
    } else if (value < least.front()) {
        std::pop_heap(least.begin(), least.end());
        least.back() = value;
    } else {
        return false;
    }
    std::push_heap(least.begin(), least.end());
    return true;
}

// Drops the candidates that cannot be among the `shown` fastest, and gives the others their exact
// bound (least_run_seconds). `best` keeps the `shown` least exact bounds of distinct layouts so
// far; its greatest, raised by 10⁻⁸ (far above the bound's 10⁻⁹ and the rounding), is at least the
// run time of `shown` layouts: a candidate whose cheap, then exact, bound exceeds it is slower
// than all of them. The `shown` least cheap bounds seed it, so that it starts low.
void narrow_candidates(const Scenario& scenario, const SharedFigures& shared, std::size_t shown,
                       std::vector<Candidate>& fitting, FitSearch& search) {
    Scenario s = scenario;
    std::vector<double> cheap, best;
    for (const Candidate& candidate : fitting) keep_least(cheap, shown, candidate.least_run);
    for (Candidate& candidate : fitting) {
        if (best.size() == shown || candidate.least_run > cheap.front()) continue;
        candidate.least_run = exact_bound(s, candidate, shared, search);
        candidate.bounded = true;
        keep_least(best, shown, candidate.least_run);
    }
    std::size_t kept = 0;
    for (Candidate& candidate : fitting) {
        if (candidate.least_run > best.front() * (1 + 1e-8)) continue;
        if (!candidate.bounded) {
            candidate.least_run = exact_bound(s, candidate, shared, search);
            keep_least(best, shown, candidate.least_run);
        }
        if (candidate.least_run <= best.front() * (1 + 1e-8)) fitting[kept++] = candidate;
    }
    fitting.resize(kept);
}

// Times candidates (the full check at micro-batch 1) until the `shown` fastest are certain: in
// order of their exact lower bounds, stopping once the next bound exceeds the shown-th run time.
// With `prune` false every candidate is timed (the exhaustive reference).
void time_candidates(const Scenario& scenario, const SharedFigures& shared, std::size_t shown, bool prune,
                     std::vector<Candidate>& fitting, FitSearch& search) {
    if (shown == 0) return;
    if (prune) narrow_candidates(scenario, shared, shown, fitting, search);
    // A heap of (bound, index) pairs, least bound on top: small to move, unlike the candidates.
    using Bound = std::pair<double, std::size_t>;
    std::vector<Bound> bounds(fitting.size());
    for (std::size_t k = 0; k < fitting.size(); ++k) bounds[k] = {fitting[k].least_run, k};
    auto later_bound = [](const Bound& x, const Bound& y) { return x.first > y.first; };
    std::make_heap(bounds.begin(), bounds.end(), later_bound);
    std::vector<Candidate> timed;  // a max-heap by `faster`: the slowest of the best `shown` on top
    Scenario s = scenario;
    s.training.micro_batch = 1;
    s.parallel.first_stage_layers = s.parallel.last_stage_layers = 0;
    auto end = bounds.end();
    while (end != bounds.begin()) {
        if (prune && timed.size() == shown && bounds.front().first > timed.front().check.run_seconds) break;
        std::pop_heap(bounds.begin(), end, later_bound);
        --end;
        Candidate& next = fitting[end->second];
        s.parallel = next.parallel;
        s.training.recompute = next.recompute;
        next.check = check_layout(s, shared.params, Timing::always);
        ++search.steps_timed;
        if (timed.size() < shown) {
            timed.push_back(next);
            std::push_heap(timed.begin(), timed.end(), faster);
        } else if (faster(next, timed.front())) {
            std::pop_heap(timed.begin(), timed.end(), faster);
            timed.back() = next;
            std::push_heap(timed.begin(), timed.end(), faster);
        }
    }
    std::sort_heap(timed.begin(), timed.end(), faster);
    fitting = std::move(timed);
}

// The listed layouts at their largest micro-batch, ranked again at it (a stable sort: ties keep
// the order at micro-batch 1).
void list_layouts(const Scenario& scenario, const ParameterCount& params, const std::vector<Candidate>& best,
                  FitSearch& search) {
    for (const Candidate& candidate : best) {
        FitLayout layout{scenario, {}};
        layout.scenario.parallel = candidate.parallel;
        layout.scenario.training.recompute = candidate.recompute;
        layout.scenario.training.micro_batch = 1;
        layout.scenario.training.micro_batch = largest_micro_batch_of(layout.scenario, params);
        layout.check = check_layout(layout.scenario, params);
        search.layouts.push_back(std::move(layout));
    }
    std::stable_sort(search.layouts.begin(), search.layouts.end(), [](const FitLayout& x, const FitLayout& y) {
        return x.check.run_seconds != y.check.run_seconds ? x.check.run_seconds < y.check.run_seconds
                                                          : x.check.peak_bytes < y.check.peak_bytes;
    });
}

void rank_layouts(const Scenario& scenario, const ParameterCount& params, double max_layouts, bool prune,
                  FitSearch& search) {
    const SharedFigures shared = shared_figures(scenario, params);
    double checks = 0;
    search.least_states = -1;
    const double sustained_flops = scenario.hardware.gpu.peak_flops * arithmetic_efficiency;
    std::vector<Candidate> fitting;
    fitting.reserve(4096);
    ActivationMemo memo;
    for_each_layout(scenario, [&](const Scenario& s) {
        ++search.layouts_examined;
        const MemoryVerdict verdict = judge_memory(s, shared, prune, memo, search);
        if (search.least_states < 0 || verdict.states < search.least_states) search.least_states = verdict.states;
        if (verdict.states > s.hardware.gpu.memory_bytes) return true;
        // Micro-batch 1 holds the fewest activations of any micro-batch (docs/model.md §17):
        // a layout fits at some micro-batch exactly when it fits at 1.
        if (verdict.fits)
            fitting.push_back({s.parallel, s.training.recompute, search.layouts_examined,
                               prune ? cheap_run_seconds(s, shared, sustained_flops) : 0.0, false, LayoutCheck{}});
        if (++checks >= fit_check_budget) search.complete = false;
        return search.complete;
    });
    if (search.least_states < 0) search.least_states = 0;
    search.layouts_total = static_cast<double>(fitting.size());
    const std::size_t shown = static_cast<std::size_t>(std::fmin(max_layouts, search.layouts_total));
    time_candidates(scenario, shared, shown, prune, fitting, search);
    list_layouts(scenario, params, fitting, search);
}

}  // namespace

namespace {

// Adds the change when the changed scenario obeys the rules and fits.
bool try_change(std::vector<FitChange>& changes, FitChangeKind kind, const Scenario& changed,
                const ParameterCount& params) {
    if (!layout_is_valid(changed)) return false;
    const LayoutCheck check = check_layout(changed, params);
    if (!check.fits) return false;
    changes.push_back({kind, changed, check});
    return true;
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
        return check_layout(trial, params, false).fits;
    });
    if (k <= 0) return;
    trial.parallel.gpus = (cap - k + 1) * unit;
    try_change(changes, FitChangeKind::more_gpus, trial, params);
}

void larger_gpu(const Scenario& s, const ParameterCount& params, std::vector<FitChange>& changes) {
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
            return check_layout(trial, params, false).fits;
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

void memory_saving_changes(const Scenario& s, const ParameterCount& params, std::vector<FitChange>& changes) {
    Scenario trial = s;
    if (s.training.offload == Offload::none) {
        trial.training.offload = Offload::optimizer;
        trial.parallel.zero_stage = std::max(1, s.parallel.zero_stage);
        if (!try_change(changes, FitChangeKind::offload, trial, params)) {
            trial.training.offload = Offload::parameters;
            trial.parallel.zero_stage = 3;
            try_change(changes, FitChangeKind::offload, trial, params);
        }
    }
    // LoRA on a 16-bit base, then QLoRA's 4-bit one (docs/model.md §15), with their defaults and
    // the fine-tuning run's tokens, as the page's method control sets them (finetune.hpp).
    if (s.training.method == FineTuningMethod::full &&
        try_change(changes, FitChangeKind::method, with_fine_tuning_method(s, FineTuningMethod::lora), params))
        return;
    if (s.training.method != FineTuningMethod::qlora)
        try_change(changes, FitChangeKind::method, with_fine_tuning_method(s, FineTuningMethod::qlora), params);
}

}  // namespace

FitSearch search_fits(const Scenario& scenario, double max_layouts, FitPruning pruning) {
    FitSearch search;
    const ParameterCount params = scenario_parameters(scenario);
    search.current = check_layout(scenario, params);
    search.largest_micro_batch = largest_micro_batch_of(scenario, params);
    if (search.largest_micro_batch > 0) {
        Scenario at = scenario;
        at.training.micro_batch = search.largest_micro_batch;
        search.largest_micro_batch_check = check_layout(at, params);
    }
    search.largest_sequence = largest_sequence_of(scenario, params);
    if (search.largest_sequence > 0) {
        Scenario at = scenario;
        at.training.sequence = search.largest_sequence;
        search.largest_sequence_check = check_layout(at, params);
    }
    rank_layouts(scenario, params, max_layouts, pruning == FitPruning::exact, search);
    if (!search.current.fits) {
        more_gpus(scenario, params, search.changes);
        larger_gpu(scenario, params, search.changes);
        settings_changes(scenario, params, search.changes);
        memory_saving_changes(scenario, params, search.changes);
        std::sort(search.changes.begin(), search.changes.end(),
                  [](const FitChange& x, const FitChange& y) { return x.check.run_seconds < y.check.run_seconds; });
    }
    return search;
}

std::vector<FitLayout> brute_force_fits(const Scenario& scenario, double max_micro_batch) {
    const ParameterCount params = scenario_parameters(scenario);
    std::vector<FitLayout> fitting;
    // Every layout at every micro-batch, none skipped: no floor, no monotonicity.
    for_each_layout(scenario, [&](const Scenario& layout) {
        Scenario s = layout;
        for (double b = 1; b <= max_micro_batch; ++b) {
            s.training.micro_batch = b;
            const LayoutCheck check = check_layout(s, params, false);
            if (check.fits) fitting.push_back({s, check});
        }
        return true;
    });
    return fitting;
}

}  // namespace trainscope
