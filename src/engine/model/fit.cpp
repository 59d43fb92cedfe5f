#include "engine/model/fit.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <limits>
#include <utility>

#include "engine/model/choices.hpp"
#include "engine/model/communication.hpp"
#include "engine/model/compute.hpp"
#include "engine/model/field_limits.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/fit_changes.hpp"
#include "engine/model/hardware.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/offload.hpp"
#include "engine/model/timeline.hpp"

namespace trainscope {

ParameterCount scenario_parameters(const Scenario& scenario) {
    if (!scenario.model.architecture_assumed) return count_parameters(scenario.model.architecture);
    ParameterCount params;
    params.total = params.active = scenario.model.given_params;  // as estimate() counts a bare count
    return params;
}

namespace {

// docs/model.md §17: the run's tokens in steps of μ·b·d sequences, as the estimate's predicted time
// counts them (communication.cpp), so a loaded layout shows the time its card showed.
double run_seconds_of(const Scenario& s, double micro_batches, double step_seconds) {
    return run_seconds_at_step(s, micro_batches, step_seconds);
}

// check_layout with the figures that depend on the model and the training settings alone given.
LayoutCheck check_layout_given(const Scenario& s, const ParameterCount& params, const FineTuningFigures& fine_tuning,
                               const BytesPerParam& bytes, const TrainingCompute& compute, Timing timing) {
    const Architecture& a = s.model.architecture;
    ModelStateBytes states = per_gpu_model_states(bytes, params, s.parallel);
    const ActivationBytes activations = training_activations(a, s.training, s.parallel);
    offload_states(s, bytes, fine_tuning.trainable_bytes, params, activations.micro_batches, states);
    // Grouping a timeline's events changes no peak (docs/scenario.md, "Step timeline"): the fewest will do.
    const StepTimeline timeline =
        step_timeline(s, params, bytes, states, activations, compute, StepDetail::peak, nullptr, 0);
    LayoutCheck check;
    check.peak_bytes = timeline.peak().total();
    check.fits = check.peak_bytes <= tensor_memory_bytes(s.hardware.gpu);
    check.micro_batches = activations.micro_batches;
    if (timing == Timing::always || (timing == Timing::if_fits && check.fits)) {
        const CommunicationModel communication = communication_model(s, params, bytes, compute);
        check.step_seconds = communication.step_seconds;
        check.run_seconds = run_seconds_of(s, activations.micro_batches, communication.step_seconds);
    }
    return check;
}

}  // namespace

LayoutCheck check_layout(const Scenario& s, const ParameterCount& params, Timing timing) {
    const Architecture& a = s.model.architecture;
    // The estimate's own chain (estimate.cpp), without what the peak and the step time do not need.
    const FineTuningFigures fine_tuning = fine_tuning_figures(s.training, a, params.total);
    const BytesPerParam bytes = fine_tuned_bytes_per_param(fine_tuning, params.total);
    const TrainingCompute compute = training_compute(a, params.active, s);
    return check_layout_given(s, params, fine_tuning, bytes, compute, timing);
}

namespace {

// Whether k divides n, as std::fmod(n, k) == 0 says, by integer division when both are whole
// numbers (the layouts' figures are): libm's fmod loops over the exponents' difference, and the
// search asks tens of thousands of times.
bool divides(double k, double n) {
    constexpr double exact_integers = 9007199254740992.0;  // 2^53
    if (k >= 1 && n >= 0 && k < exact_integers && n < exact_integers) {
        const auto whole_k = static_cast<std::int64_t>(k), whole_n = static_cast<std::int64_t>(n);
        if (static_cast<double>(whole_k) == k && static_cast<double>(whole_n) == n) return whole_n % whole_k == 0;
    }
    return std::fmod(n, k) == 0;
}

}  // namespace

bool layout_is_valid(const Scenario& s) {
    const ParallelSettings& l = s.parallel;
    const Architecture& a = s.model.architecture;
    const double product = l.tensor * l.pipeline * l.context;
    if (!divides(product, l.gpus) || !divides(l.tensor, a.heads)) return false;
    if (l.pipeline > a.layers || l.pipeline * l.interleave > a.layers) return false;
    if (l.context > 1 && !divides(2 * l.context, s.training.sequence)) return false;
    if (l.expert > 1 &&
        (a.experts <= 1 || !divides(l.expert, a.experts) || !divides(l.expert, l.gpus / product * l.context)))
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
        if (!divides(k, n)) continue;
        low.push_back(k);
        if (k * k != n) high.push_back(n / k);
    }
    low.insert(low.end(), high.rbegin(), high.rend());
    return low;
}

// The divisors of n among `candidates` (the divisors of a multiple of n), ascending, into `found`
// (its room kept from one call to the next): every divisor of a divisor of G is a divisor of G, so
// G's list serves every quotient.
void divisors_among(const std::vector<double>& candidates, double n, std::vector<double>& found) {
    found.clear();
    for (const double k : candidates) {
        if (k > n) break;
        if (divides(k, n)) found.push_back(k);
    }
}

// Interleaving (virtual stages per GPU): 1, or with a pipeline whose stages split the layers
// evenly, every divisor of the layers per stage (Megatron's rule for the interleaved schedule)
// that the page's control offers (choices.hpp): a layout the search loads is one a page shows.
std::vector<double> interleave_choices(const Architecture& a, double pipeline) {
    if (pipeline <= 1 || !divides(pipeline, a.layers)) return {1};
    std::vector<double> offered;
    for (const double stages : divisors(a.layers / pipeline))
        if (is_interleave_stop(stages)) offered.push_back(stages);
    return offered;
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
        if (!divides(t, a.heads)) continue;
        for (const double p : divisors(gpus / t)) {
            if (p > a.layers) break;
            for (const double c : divisors(gpus / (t * p))) {
                if (c > 1 && !divides(2 * c, base.training.sequence)) continue;
                const double data_context = gpus / (t * p);
                for (const double e : a.experts > 1 ? divisors(a.experts) : std::vector<double>{1}) {
                    if (!divides(e, data_context)) continue;
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

// check_layout for a layout of the search's own scenario (another t, p, c, e, v, ZeRO stage,
// recompute or micro-batch, the same G and training otherwise): the shared figures are the ones
// check_layout would work out, since none of them reads those settings (finetune.cpp,
// compute.cpp). Without shared figures (the exhaustive reference), check_layout itself.
LayoutCheck check_in_search(const Scenario& s, const ParameterCount& params, const SharedFigures* shared,
                            Timing timing) {
    if (shared == nullptr) return check_layout(s, params, timing);
    return check_layout_given(s, params, shared->fine_tuning, shared->bytes,
                              shared->compute[static_cast<int>(s.training.recompute)], timing);
}

// The largest micro-batch worth trying: the field's limit, or with a global batch the most
// sequences one data-parallel replica takes per step (beyond it the step only grows).
double micro_batch_cap(const Scenario& s) {
    const double limit = find_field_limit("training.micro_batch")->max;
    if (s.training.global_batch <= 0) return limit;
    return std::fmin(limit, std::fmax(1.0, std::ceil(s.training.global_batch / s.parallel.data_parallel() - 1e-9)));
}

// What the bounds on a scenario's peak say (docs/model.md §17): it fits, it does not, or they
// leave it open (within a relative 10⁻¹² of the memory either side, for rounding).
enum class BoundVerdict { fits, overflows, open };

BoundVerdict judge_by_bounds(const Scenario& s, const ParameterCount& params, const FineTuningFigures& fine_tuning,
                             const BytesPerParam& bytes, const LayerParameters& layer) {
    const Architecture& a = s.model.architecture;
    const double memory = tensor_memory_bytes(s.hardware.gpu);
    ModelStateBytes states = per_gpu_model_states(bytes, params, s.parallel);
    const ActivationBytes activations = training_activations(a, s.training, s.parallel);
    offload_states(s, bytes, fine_tuning.trainable_bytes, params, activations.micro_batches, states);
    if (states.total() > memory) return BoundVerdict::overflows;  // held at every event
    TrainingSettings without = s.training;
    without.recompute = Recompute::none;
    const ActivationBytes without_recompute =
        s.training.recompute == Recompute::none ? activations : training_activations(a, without, s.parallel);
    const StepPeakBounds bounds = step_peak_bounds(s, params, layer, bytes, states, activations, &without_recompute);
    if (bounds.upper * (1 + 1e-12) <= memory) return BoundVerdict::fits;
    if (bounds.lower * (1 - 1e-12) > memory) return BoundVerdict::overflows;
    return BoundVerdict::open;
}

}  // namespace

bool fits_judged(const Scenario& s, const ParameterCount& params) {
    const FineTuningFigures fine_tuning = fine_tuning_figures(s.training, s.model.architecture, params.total);
    const BytesPerParam bytes = fine_tuned_bytes_per_param(fine_tuning, params.total);
    const BoundVerdict verdict =
        judge_by_bounds(s, params, fine_tuning, bytes, layer_parameters(s.model.architecture, params));
    if (verdict != BoundVerdict::open) return verdict == BoundVerdict::fits;
    return check_layout(s, params, Timing::never).fits;
}

namespace {

// Whether a layout of the search's own scenario fits, at any micro-batch: as fits_judged, with the
// search's shared figures. Without them (the exhaustive reference), by the timeline alone.
bool fits_in_search(const Scenario& s, const ParameterCount& params, const SharedFigures* shared) {
    if (shared == nullptr) return check_layout(s, params, Timing::never).fits;
    const BoundVerdict verdict = judge_by_bounds(s, params, shared->fine_tuning, shared->bytes, shared->layer);
    if (verdict != BoundVerdict::open) return verdict == BoundVerdict::fits;
    return check_in_search(s, params, shared, Timing::never).fits;
}

// The largest micro-batch with which `fits` holds (largest_fitting's answer), the rest of `s` fixed.
template <typename Fits>
double largest_micro_batch_by(const Scenario& s, Fits fits) {
    Scenario trial = s;
    return largest_fitting(micro_batch_cap(s), [&](double b) {
        trial.training.micro_batch = b;
        return fits(trial);
    });
}

double largest_micro_batch_of(const Scenario& s, const ParameterCount& params, const SharedFigures* shared = nullptr) {
    return largest_micro_batch_by(s, [&](const Scenario& trial) { return fits_in_search(trial, params, shared); });
}

// docs/model.md §17: the longest sequence as an exact whole number of tokens, among those the
// layout accepts: with context parallelism a multiple of 2c (each rank takes two equal chunks), else
// any. Memory rises with the sequence, so largest_fitting's doubling and halving over the multiples
// finds the last one that fits, with the next one not fitting.
double largest_sequence_of(const Scenario& s, const ParameterCount& params) {
    const double unit = s.parallel.context > 1 ? 2 * s.parallel.context : 1;
    const double longest = find_field_limit("training.sequence")->max;
    Scenario trial = s;
    const double multiple = largest_fitting(std::floor(longest / unit), [&](double k) {
        trial.training.sequence = unit * k;
        return fits_judged(trial, params);
    });
    return unit * multiple;
}

// The least ZeRO stage the offload allows (layout_is_valid's rule).
int least_zero_stage(const Scenario& s) {
    return s.training.offload == Offload::parameters ? 3 : s.training.offload == Offload::optimizer ? 1 : 0;
}

// docs/model.md §17: at one sharding rank (d·c = 1) ZeRO has nothing to shard, so its stages
// often give the same layout. A stage is listed (and counted) once, at the lowest stage the
// offload allows, when the engine's own figures for it — its largest micro-batch, and the peak and
// step time there — are those of a lower stage of the same (t, p, c, e, v, recompute) that fits.
// Where they differ (ZeRO-2's gradient buffers at the peak, the gradients it sends to the CPU under
// offload, ZeRO-3's gathered weights when they are offloaded) the stages stay apart.
struct ListedFigures {
    double micro_batch = 0;
    double peak_bytes = 0;
    double step_seconds = 0;
};

bool at_one_sharding_rank(const Scenario& s) { return s.parallel.data_parallel() * s.parallel.context == 1; }

ListedFigures listed_figures(const Scenario& layout, const ParameterCount& params, const SharedFigures* shared) {
    Scenario s = layout;
    s.training.micro_batch = 1;
    s.training.micro_batch = largest_micro_batch_of(s, params, shared);
    const LayoutCheck check = check_in_search(s, params, shared, Timing::always);
    return {s.training.micro_batch, check.peak_bytes, check.step_seconds};
}

bool same_figures(const ListedFigures& x, const ListedFigures& y) {
    return x.micro_batch == y.micro_batch && x.peak_bytes == y.peak_bytes && x.step_seconds == y.step_seconds;
}

// Which of one (t, p, c, e, v, recompute)'s fitting ZeRO stages at one rank repeat a lower one:
// `fits[k]` says whether stage least_zero + k fits; the returned bits mark the repeats.
unsigned repeated_stages(Scenario s, const bool fits[4], int least_zero, const ParameterCount& params,
                         const SharedFigures* shared) {
    ListedFigures kept[4];
    int kept_count = 0;
    unsigned repeats = 0;
    for (int k = 0; least_zero + k <= 3; ++k) {
        if (!fits[k]) continue;
        s.parallel.zero_stage = least_zero + k;
        const ListedFigures figures = listed_figures(s, params, shared);
        bool repeat = false;
        for (int j = 0; j < kept_count && !repeat; ++j) repeat = same_figures(figures, kept[j]);
        if (repeat)
            repeats |= 1u << k;
        else
            kept[kept_count++] = figures;
    }
    return repeats;
}

// A fitting layout while the search runs: its settings alone, cheap to keep and sort (a
// Scenario carries strings); the listed ones become scenarios again.
struct Candidate {
    ParallelSettings parallel;
    Recompute recompute = Recompute::none;
    double order = 0;      // its place in the enumeration: the last tie-break, so the ranking is one
    double least_run = 0;  // a lower bound on its run time (docs/model.md §17)
    // Memory and time, once timed. The pruned search times with the step alone and works the peak
    // out when a tie in run time asks for it (time_candidates): a cache, hence mutable.
    mutable LayoutCheck check;
    mutable bool peak_known = false;
};

constexpr Recompute recompute_choices[3] = {Recompute::none, Recompute::selective, Recompute::full};

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

// The model states one layout keeps per GPU (the estimate's chain: §3, then §16's offload).
double states_of(const Scenario& s, const SharedFigures& shared, double micro_batches) {
    ModelStateBytes states = per_gpu_model_states(shared.bytes, shared.params, s.parallel);
    offload_states(s, shared.bytes, shared.fine_tuning.trainable_bytes, shared.params, micro_batches, states);
    return states.total();
}

// The exhaustive reference (FitPruning::none) walks every layout and times every fitting one; the
// pruned search shares its last stage (time_candidates).

// Keeps in `least` (a max-heap) the `count` least values offered.
void keep_least(std::vector<double>& least, std::size_t count, double value) {
    if (least.size() < count) {
        least.push_back(value);
    } else if (value < least.front()) {
        std::pop_heap(least.begin(), least.end());
        least.back() = value;
    } else {
        return;
    }
    std::push_heap(least.begin(), least.end());
}

// A fitting layout's time at micro-batch 1, as check_layout works it out (run_seconds_of, the
// communication model's step: communication_step_seconds is its step bit for bit), without the
// timeline: its peak only breaks ties.
LayoutCheck time_at_one(const Scenario& s, const SharedFigures& shared) {
    LayoutCheck check;
    check.fits = true;
    check.micro_batches = micro_batches_per_step(s.training, s.parallel);
    const TrainingCompute& compute = shared.compute[static_cast<int>(s.training.recompute)];
    check.step_seconds = communication_step_seconds(s, shared.params, shared.bytes, compute);
    check.run_seconds = run_seconds_of(s, check.micro_batches, check.step_seconds);
    return check;
}

// Times the candidates at micro-batch 1, least bound first, and keeps the `shown` fastest: the
// exhaustive reference with the full check, the pruned search with the step alone (time_at_one)
// and a peak only where run times tie. With `prune`, stops once the next bound exceeds the
// shown-th run time: every candidate left is slower than all of them.
void time_candidates(const Scenario& scenario, const SharedFigures& shared, std::size_t shown, bool prune,
                     std::vector<Candidate>& fitting, FitSearch& search) {
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
    Scenario probe = s;  // a candidate whose peak a tie asks for
    auto peak_of = [&](const Candidate& candidate) {
        if (!candidate.peak_known) {
            probe.parallel = candidate.parallel;
            probe.training.recompute = candidate.recompute;
            candidate.check.peak_bytes = check_in_search(probe, shared.params, &shared, Timing::never).peak_bytes;
            candidate.peak_known = true;
        }
        return candidate.check.peak_bytes;
    };
    // Shorter run first; at equal time, less memory; then the enumeration's order.
    auto faster = [&](const Candidate& x, const Candidate& y) {
        if (x.check.run_seconds != y.check.run_seconds) return x.check.run_seconds < y.check.run_seconds;
        const double x_peak = peak_of(x), y_peak = peak_of(y);
        if (x_peak != y_peak) return x_peak < y_peak;
        return x.order < y.order;
    };
    auto end = bounds.end();
    while (end != bounds.begin() && shown > 0) {
        if (prune && timed.size() == shown && bounds.front().first > timed.front().check.run_seconds) break;
        std::pop_heap(bounds.begin(), end, later_bound);
        --end;
        Candidate& next = fitting[end->second];
        s.parallel = next.parallel;
        s.training.recompute = next.recompute;
        next.check = prune ? time_at_one(s, shared) : check_in_search(s, shared.params, nullptr, Timing::always);
        next.peak_known = !prune;
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

// Every layout's states, then (when they leave room) its timeline; every fitting layout kept.
std::vector<Candidate> walk_every_layout(const Scenario& scenario, const SharedFigures& shared, FitSearch& search) {
    std::vector<Candidate> fitting;
    double checks = 0;
    for_each_layout(scenario, [&](const Scenario& s) {
        ++search.layouts_examined;
        const double states = states_of(s, shared, micro_batches_per_step(s.training, s.parallel));
        if (search.least_states < 0 || states < search.least_states) search.least_states = states;
        // The states are held at every event: a layout they overflow fits at no micro-batch.
        if (states > tensor_memory_bytes(s.hardware.gpu)) return true;
        ++search.timelines_walked;
        if (check_layout(s, shared.params, Timing::never).fits)
            fitting.push_back({s.parallel, s.training.recompute, search.layouts_examined, 0.0, LayoutCheck{}});
        if (++checks >= fit_check_budget) search.complete = false;
        return search.complete;
    });
    return fitting;
}

// The exhaustive reference's fitting layouts (in the enumeration's order, a family's stages and
// recompute choices together) without the stages at one sharding rank that repeat a lower one:
// the rule drop_repeated_stages applies, here by check_layout alone.
void drop_repeated_candidates(const Scenario& scenario, const ParameterCount& params, std::vector<Candidate>& fitting) {
    const int least_zero = least_zero_stage(scenario);
    auto same_family = [](const ParallelSettings& x, const ParallelSettings& y) {
        return x.tensor == y.tensor && x.pipeline == y.pipeline && x.context == y.context && x.expert == y.expert &&
               x.interleave == y.interleave;
    };
    std::vector<bool> repeated(fitting.size(), false);
    Scenario s = scenario;
    s.parallel.first_stage_layers = s.parallel.last_stage_layers = 0;
    for (std::size_t first = 0, end = 0; first < fitting.size(); first = end) {
        for (end = first + 1; end < fitting.size() && same_family(fitting[first].parallel, fitting[end].parallel);)
            ++end;
        s.parallel = fitting[first].parallel;
        if (!at_one_sharding_rank(s)) continue;
        for (int r = 0; r < 3; ++r) {
            bool fits[4] = {false, false, false, false};
            for (std::size_t k = first; k < end; ++k)
                if (fitting[k].recompute == recompute_choices[r])
                    fits[fitting[k].parallel.zero_stage - least_zero] = true;
            s.training.recompute = recompute_choices[r];
            const unsigned repeats = repeated_stages(s, fits, least_zero, params, nullptr);
            for (std::size_t k = first; k < end; ++k)
                if (fitting[k].recompute == recompute_choices[r] &&
                    (repeats >> (fitting[k].parallel.zero_stage - least_zero) & 1u) != 0)
                    repeated[k] = true;
        }
    }
    std::size_t kept = 0;
    for (std::size_t k = 0; k < fitting.size(); ++k)
        if (!repeated[k]) fitting[kept++] = fitting[k];
    fitting.resize(kept);
}

// One family of layouts for the pruned search (docs/model.md §17): a (t, p, c, e, v) whose ZeRO
// stages and recompute choices it judges together; which of them fit, and a floor under each
// recompute choice's run time that holds for every ZeRO stage and expert split.
struct Family {
    ParallelSettings parallel;  // its t, p, c, e and v
    double first_order = 0;     // the enumeration's count before its first layout
    int least_zero = 0;         // the first ZeRO stage the offload allows; the stages from it on are its layouts
    unsigned fitting = 0;       // bit 3·(zero − least_zero) + recompute: that layout fits at micro-batch 1
    double floor_run[3] = {0, 0, 0};
    double least_floor = 0;  // the least floor among the recompute choices that fit
};

// What a (t, p, c, v) gives every family under it, per recompute choice: the activations' part of
// the peak bounds and the run time's floor, each worked out when first needed. Neither depends on
// the ZeRO stage or the expert split (step_peak_parts, communication_step_floor).
struct ShapeFigures {
    double micro_batches = 0;  // 0: not yet known
    bool has_activations = false;
    ActivationBytes activations[3];  // by recompute choice (training_activations_by_recompute)
    bool has_parts[3] = {false, false, false};
    ActivationPeakParts parts[3];
    bool has_floors = false;
    double floor_run[3] = {0, 0, 0};
    double most_held = -1;  // the most pile + rebuilt layer + logits of the three choices; -1: not yet known
};

// The activations' part for recompute choice r, with `s` set to a layout of the shape with that choice.
const ActivationPeakParts& activation_parts(const Scenario& s, ShapeFigures& shape, int r) {
    if (shape.has_parts[r]) return shape.parts[r];
    const Architecture& a = s.model.architecture;
    if (!shape.has_activations) {
        training_activations_by_recompute(a, s.training, s.parallel, shape.activations);
        shape.has_activations = true;
    }
    shape.parts[r] = step_activation_parts(s, shape.activations[r], shape.activations[0]);
    shape.has_parts[r] = true;
    return shape.parts[r];
}

// The run-time floor for recompute choice r, with `s` set to a layout of the shape: the floors
// of the three choices come from one shape (communication_step_floors), each ≤ the step of every
// ZeRO stage and expert split with that choice, bit for bit.
double floor_run_of(const Scenario& s, const SharedFigures& shared, ShapeFigures& shape, int r) {
    if (!shape.has_floors) {
        double floors[3];
        communication_step_floors(s, shared.params, shared.bytes, shared.compute, floors);
        const double steps = steps_of_run(s);
        for (int k = 0; k < 3; ++k) shape.floor_run[k] = steps * floors[k] * (1 - 1e-9);
        shape.has_floors = true;
    }
    return shape.floor_run[r];
}

// Whether one layout fits at micro-batch 1, by the bounds on its peak (docs/model.md §17), or
// when they leave it open (within a relative 10⁻¹² of the memory either side, for rounding), by
// walking its timeline, which stays the reference.
bool fits_at_one(const Scenario& s, const SharedFigures& shared, double states,
                 const ActivationPeakParts& activation_parts, const WeightPeakParts& weight_parts, FitSearch& search) {
    const double memory = tensor_memory_bytes(s.hardware.gpu);
    const StepPeakBounds bounds = step_peak_from_parts(states, activation_parts, weight_parts);
    if (bounds.upper * (1 + 1e-12) <= memory) return true;
    if (bounds.lower * (1 - 1e-12) > memory) return false;
    ++search.timelines_walked;
    return check_in_search(s, shared.params, &shared, Timing::never).fits;
}

// The weights' part of a layout's peak bounds (gathered layers and head, gradient buffers), for a
// scenario without recompute: it reads no activation figure, so none are worked out.
WeightPeakParts weight_parts_of(const Scenario& s, const SharedFigures& shared) {
    return step_peak_parts(s, shared.params, shared.layer, shared.bytes, ActivationBytes{}).weights;
}

// A layout's model states and the weights' part of its peak bounds depend on t·p, e, the ZeRO
// stage, d·c (= G/(t·p)) and the training settings, not on c or v by themselves (memory.cpp's
// per_gpu_model_states, offload.cpp's offload_states, timeline.cpp's event_sizes): worked out once
// per (t, p, e, ZeRO stage) and shared by the contexts and interleavings under it.
struct StateFigures {
    bool has_states = false, has_weight_parts = false;
    double states = 0;
    WeightPeakParts weight_parts;
};

// True when the upper bound of each recompute choice fits: then the three layouts of this ZeRO
// stage fit without judging each (`s` is set to the stage's layout). Each choice's own parts are
// taken: which group of extras is largest depends on the choice (a recomputing stage holds a
// rebuilt layer, a smaller pile), so no one choice's bound covers the others'.
//
// First, every extra at once (the bound before the groups: the walk never holds more than the pile,
// the rebuilt layer, the logits, two gathered layers, the gathered head and both gradient buffers
// together, and step_peak_from_parts' groups are each within it): one sum for the three choices,
// the shape's most worked out once. Where it fits, each choice's own bound does; most layouts of a
// large cluster are settled so, without three bounds each.
bool all_three_fit(Scenario& s, ShapeFigures& shape, double states, const WeightPeakParts& weight_parts) {
    if (shape.most_held < 0) {
        double most = 0;
        for (int r = 0; r < 3; ++r) {
            s.training.recompute = recompute_choices[r];
            const ActivationPeakParts& parts = activation_parts(s, shape, r);
            most = std::max(most, parts.pile + parts.rebuilt + parts.logits);
        }
        shape.most_held = most;
    }
    const WeightPeakParts& w = weight_parts;
    const double every_weight_extra =
        2 * w.gathered_layer + w.gathered_head + w.layer_gradients + w.head_gradients + w.optimizer_temporary;
    if ((states + shape.most_held + every_weight_extra) * (1 + 1e-12) <= tensor_memory_bytes(s.hardware.gpu))
        return true;
    for (int r = 0; r < 3; ++r) {
        s.training.recompute = recompute_choices[r];
        const StepPeakBounds bounds = step_peak_from_parts(states, activation_parts(s, shape, r), weight_parts);
        if (bounds.upper * (1 + 1e-12) > tensor_memory_bytes(s.hardware.gpu)) return false;
    }
    return true;
}

// Judges one family's layouts in the enumeration's order (ZeRO stage, then recompute), counting
// examined and fitting ones as the exhaustive walk does; false once the check budget is spent.
bool judge_family(Scenario& s, const SharedFigures& shared, ShapeFigures& shape, StateFigures* by_zero, Family& family,
                  double& checks, FitSearch& search) {
    const double memory = tensor_memory_bytes(s.hardware.gpu);
    for (int zero = family.least_zero; zero <= 3; ++zero) {
        s.parallel.zero_stage = zero;
        StateFigures& known = by_zero[zero];
        if (!known.has_states) known.states = states_of(s, shared, shape.micro_batches), known.has_states = true;
        const double states = known.states;
        if (search.least_states < 0 || states < search.least_states) search.least_states = states;
        if (states > memory) {  // held at every event: none of the three fits
            search.layouts_examined += 3;
            continue;
        }
        s.training.recompute = Recompute::none;
        // Below ZeRO-2 a layer holds no gradient buffer and gathers nothing (offloading the weights
        // needs ZeRO-3): only the optimizer step's temporary (timeline.cpp's event_sizes).
        if (!known.has_weight_parts) known.weight_parts = weight_parts_of(s, shared), known.has_weight_parts = true;
        const WeightPeakParts& weight_parts = known.weight_parts;
        if (all_three_fit(s, shape, states, weight_parts) && checks + 3 < fit_check_budget) {
            search.layouts_examined += 3, search.layouts_total += 3, checks += 3;
            family.fitting |= 7u << (3 * (zero - family.least_zero));
            continue;
        }
        for (int r = 0; r < 3; ++r) {
            ++search.layouts_examined;
            s.training.recompute = recompute_choices[r];
            if (fits_at_one(s, shared, states, activation_parts(s, shape, r), weight_parts, search)) {
                family.fitting |= 1u << (3 * (zero - family.least_zero) + r);
                ++search.layouts_total;
            }
            if (++checks >= fit_check_budget) return search.complete = false;
        }
    }
    return true;
}

// A family at one sharding rank without the stages that repeat a lower one (repeated_stages): they
// leave its fitting layouts and the count.
void drop_repeated_stages(Family& family, Scenario s, const SharedFigures& shared, FitSearch& search) {
    for (int r = 0; r < 3; ++r) {
        bool fits[4] = {false, false, false, false};
        for (int k = 0; family.least_zero + k <= 3; ++k) fits[k] = (family.fitting >> (3 * k + r) & 1u) != 0;
        s.training.recompute = recompute_choices[r];
        const unsigned repeats = repeated_stages(s, fits, family.least_zero, shared.params, &shared);
        for (int k = 0; k < 4; ++k) {
            if ((repeats >> k & 1u) == 0) continue;
            family.fitting &= ~(1u << (3 * k + r));
            --search.layouts_total;
        }
    }
}

// The family's floors for its recompute choices that fit, and the least of them; `s` is set to
// one of its layouts.
void finish_family(Family& family, Scenario& s, const SharedFigures& shared, ShapeFigures& shape) {
    family.least_floor = -1;
    for (int r = 0; r < 3; ++r) {
        const unsigned mask = 1u << r | 1u << (3 + r) | 1u << (6 + r) | 1u << (9 + r);
        if ((family.fitting & mask) == 0) continue;
        s.training.recompute = recompute_choices[r];
        family.floor_run[r] = floor_run_of(s, shared, shape, r);
        if (family.least_floor < 0 || family.floor_run[r] < family.least_floor)
            family.least_floor = family.floor_run[r];
    }
}

// Every family of the scenario's GPUs in the enumeration's order (for_each_layout's: t, p, c, e,
// v, then ZeRO stage and recompute), each judged; the ones with a layout that fits are kept.
std::vector<Family> judge_families(const Scenario& base, const SharedFigures& shared, FitSearch& search) {
    const Architecture& a = base.model.architecture;
    Scenario s = base;
    s.parallel.first_stage_layers = s.parallel.last_stage_layers = 0;
    s.training.micro_batch = 1;
    const int least_zero = least_zero_stage(base);
    const double gpus = base.parallel.gpus;
    const std::vector<double> expert_choices = a.experts > 1 ? divisors(a.experts) : std::vector<double>{1};
    const std::vector<double> gpu_divisors = divisors(gpus);
    std::vector<Family> families;
    families.reserve(4096);  // DeepSeek-V3 on 16,384 GPUs has 3,490 families: no copying as they come
    double checks = 0;
    // Lists and memos refilled for each t, p and c, their room kept (no allocation per family).
    std::vector<double> pipelines, contexts;
    std::vector<StateFigures> state_figures;
    std::vector<ShapeFigures> shapes;
    std::vector<char> expert_divides;  // by expert choice: e divides d·c = G/(t·p), the same for every c
    for (const double t : gpu_divisors) {
        if (!divides(t, a.heads)) continue;
        divisors_among(gpu_divisors, gpus / t, pipelines);
        for (const double p : pipelines) {
            if (p > a.layers) break;
            const std::vector<double> interleaves = interleave_choices(a, p);
            state_figures.assign(4 * expert_choices.size(), StateFigures{});
            expert_divides.assign(expert_choices.size(), 0);
            for (std::size_t k = 0; k < expert_choices.size(); ++k)
                expert_divides[k] = divides(expert_choices[k], gpus / (t * p)) ? 1 : 0;
            divisors_among(gpu_divisors, gpus / (t * p), contexts);
            for (const double c : contexts) {
                if (c > 1 && !divides(2 * c, base.training.sequence)) continue;
                shapes.assign(interleaves.size(), ShapeFigures{});
                for (std::size_t expert_index = 0; expert_index < expert_choices.size(); ++expert_index) {
                    if (expert_divides[expert_index] == 0) continue;
                    const double e = expert_choices[expert_index];
                    for (std::size_t k = 0; k < interleaves.size(); ++k) {
                        s.parallel.tensor = t, s.parallel.pipeline = p, s.parallel.context = c;
                        s.parallel.expert = e, s.parallel.interleave = interleaves[k], s.parallel.zero_stage = 3;
                        // The enumeration meets layout_is_valid's other rules by construction (t, p, c and
                        // e divisors, t of the heads, p ≤ L, 2c of s, e of the experts and of d·c; ZeRO
                        // stages from the offload's least): only p·v ≤ L is left to check. The exhaustive
                        // reference calls layout_is_valid on every layout, and the tests compare the two.
                        if (p * interleaves[k] > a.layers) continue;
                        if (shapes[k].micro_batches == 0)
                            shapes[k].micro_batches = micro_batches_per_step(s.training, s.parallel);
                        Family family;
                        family.parallel = s.parallel;
                        family.first_order = search.layouts_examined;
                        family.least_zero = least_zero;
                        const bool go_on = judge_family(s, shared, shapes[k], &state_figures[4 * expert_index], family,
                                                        checks, search);
                        if (family.fitting != 0 && at_one_sharding_rank(s))
                            drop_repeated_stages(family, s, shared, search);
                        if (family.fitting != 0) {
                            finish_family(family, s, shared, shapes[k]);
                            families.push_back(family);
                        }
                        if (!go_on) return families;
                    }
                }
            }
        }
    }
    return families;
}

// The layouts that may be among the `shown` fastest, each with its exact bound (least_run_seconds):
// families are taken least floor first. `best` keeps the `shown` least exact bounds so far; its
// greatest, raised by 10⁻⁸ (far above the bound's 10⁻⁹ and the rounding), is at least the run
// time of `shown` layouts, so a layout whose floor, or else exact bound, is over it is slower than
// all of them, and once a family's least floor is over it, so is every family after it.
std::vector<Candidate> bound_candidates(const Scenario& scenario, const SharedFigures& shared,
                                        const std::vector<Family>& families, std::size_t shown, FitSearch& search) {
    // (least floor, index) pairs, least on top: the families are taken in order without sorting them all.
    using Floor = std::pair<double, std::size_t>;
    std::vector<Floor> floors(families.size());
    for (std::size_t k = 0; k < families.size(); ++k) floors[k] = {families[k].least_floor, k};
    auto later = [](const Floor& x, const Floor& y) { return x > y; };
    std::make_heap(floors.begin(), floors.end(), later);
    Scenario s = scenario;
    s.training.micro_batch = 1;
    s.parallel.first_stage_layers = s.parallel.last_stage_layers = 0;
    std::vector<double> best;
    std::vector<Candidate> candidates;
    auto cut = [&] { return best.size() == shown ? best.front() * (1 + 1e-8) : std::numeric_limits<double>::max(); };
    for (auto end = floors.end(); end != floors.begin() && floors.front().first <= cut(); --end) {
        std::pop_heap(floors.begin(), end, later);
        const Family& family = families[(end - 1)->second];
        for (int bit = 0; bit < 12; ++bit) {
            const int r = bit % 3;
            if ((family.fitting >> bit & 1u) == 0 || family.floor_run[r] > cut()) continue;
            s.parallel = family.parallel;
            s.parallel.zero_stage = family.least_zero + bit / 3;
            s.training.recompute = recompute_choices[r];
            ++search.steps_bounded;
            const double bound = least_run_seconds(s, shared);
            keep_least(best, shown, bound);
            if (bound <= cut())
                candidates.push_back({s.parallel, s.training.recompute, family.first_order + bit + 1, bound, {}});
        }
    }
    const double last_cut = cut();
    candidates.erase(std::remove_if(candidates.begin(), candidates.end(),
                                    [&](const Candidate& candidate) { return candidate.least_run > last_cut; }),
                     candidates.end());
    return candidates;
}

// The listed layouts at their largest micro-batch, ranked again at it (a stable sort: ties keep
// the order at micro-batch 1).
void list_layouts(const Scenario& scenario, const ParameterCount& params, const SharedFigures* shared,
                  const std::vector<Candidate>& best, FitSearch& search) {
    for (const Candidate& candidate : best) {
        FitLayout layout{scenario, {}};
        layout.scenario.parallel = candidate.parallel;
        layout.scenario.training.recompute = candidate.recompute;
        layout.scenario.training.micro_batch = 1;
        layout.scenario.training.micro_batch = largest_micro_batch_of(layout.scenario, params, shared);
        layout.check = check_in_search(layout.scenario, params, shared, Timing::always);
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
    search.least_states = -1;
    std::vector<Candidate> fitting;
    std::vector<Family> families;
    if (prune)
        families = judge_families(scenario, shared, search);
    else
        fitting = walk_every_layout(scenario, shared, search);
    if (!prune) drop_repeated_candidates(scenario, params, fitting);
    if (!prune) search.layouts_total = static_cast<double>(fitting.size());
    if (search.least_states < 0) search.least_states = 0;
    const std::size_t shown = static_cast<std::size_t>(std::fmin(max_layouts, search.layouts_total));
    if (prune && shown > 0) fitting = bound_candidates(scenario, shared, families, shown, search);
    time_candidates(scenario, shared, shown, prune, fitting, search);
    list_layouts(scenario, params, prune ? &shared : nullptr, fitting, search);
}

}  // namespace

bool fastest_fitting_layout(const Scenario& scenario, const ParameterCount& params, FitLayout& fastest) {
    FitSearch search;
    rank_layouts(scenario, params, 1, true, search);
    if (search.layouts.empty()) return false;
    fastest = std::move(search.layouts.front());
    return true;
}

FitSearch search_fits(const Scenario& scenario, double max_layouts, FitPruning pruning) {
    FitSearch search;
    const ParameterCount params = scenario_parameters(scenario);
    search.current = check_layout(scenario, params);
    search.largest_micro_batch =
        largest_micro_batch_by(scenario, [&](const Scenario& trial) { return fits_judged(trial, params); });
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
        // With no layout of these GPUs fitting, a change is worth as much as the layouts it opens.
        const ChangeLayouts layouts = search.layouts_total > 0 ? ChangeLayouts::current : ChangeLayouts::any;
        search.changes = fit_changes(scenario, params, layouts, search.current.run_seconds, search.least_states);
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
