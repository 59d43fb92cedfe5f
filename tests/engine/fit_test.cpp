// The inverse search (docs/model.md §17): exact against brute force, every answer at its boundary,
// and the same memory figure as the estimate.
#include "catch_include.hpp"

#include <cmath>
#include <map>
#include <string>
#include <tuple>

#include "engine/api/fit.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/fit.hpp"
#include "engine/model/memory.hpp"
#include "engine/model/offload.hpp"
#include "engine/model/scenario.hpp"
#include "engine/model/timeline.hpp"
#include "estimate_support.hpp"
#include "fit_support.hpp"

using namespace trainscope;
using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;

namespace {

using LayoutKey = std::tuple<double, double, double, double, double, int, int>;

LayoutKey key_of(const Scenario& s) {
    const ParallelSettings& l = s.parallel;
    return {
        l.tensor, l.pipeline, l.interleave, l.context, l.expert, l.zero_stage, static_cast<int>(s.training.recompute)};
}

// A small model on small GPUs: a dense and a mixture-of-experts block of 4 layers. `memory` is what
// the tensors get: the GPU also holds the CUDA context (hardware.hpp), added to its memory here.
Scenario small_cluster(double gpus, double global_batch, bool experts, double tensor_memory) {
    const double memory = tensor_memory + trainscope::cuda_context_bytes;
    const std::string architecture =
        experts
            ? R"("layers":4,"hidden":256,"heads":8,"kv_heads":4,"mlp":512,"vocab":2000,"experts":4,"experts_per_token":2)"
            : R"("layers":4,"hidden":256,"heads":8,"kv_heads":4,"mlp":688,"vocab":2000)";
    const std::string text =
        R"({"model":{"architecture":{)" + architecture + R"(}},"training":{"sequence":256,"global_batch":)" +
        std::to_string(global_batch) + R"(},"parallel":{"gpus":)" + std::to_string(gpus) +
        R"(},"hardware":{"gpu":"custom","memory_bytes":)" + std::to_string(memory) + R"(,"peak_flops":1e15}})";
    const ScenarioReading reading = read_scenario_text(text);
    REQUIRE(reading.ok());
    return reading.scenario;
}

// The single GPU's peak at micro-batch 1: memory budgets are set as fractions of it, so that
// some layouts fit and some do not.
double one_gpu_peak(bool experts) {
    const Scenario s = small_cluster(1, 0, experts, 1e12);
    return check_layout(s, scenario_parameters(s), false).peak_bytes;
}

}  // namespace

namespace {

// The listed layout a stage at one sharding rank (d·c = 1) repeats, if any (docs/model.md §17): a
// lower ZeRO stage of the same (t, p, c, e, v, recompute), listed, whose micro-batch, peak and step
// time this stage has too, by check_layout's own figures.
const FitLayout* repeated_by(const FitSearch& search, const Scenario& stage, const ParameterCount& params) {
    if (stage.parallel.data_parallel() * stage.parallel.context != 1) return nullptr;
    for (const FitLayout& listed : search.layouts) {
        LayoutKey lower = key_of(listed.scenario), own = key_of(stage);
        if (std::get<5>(lower) >= std::get<5>(own)) continue;
        std::get<5>(lower) = std::get<5>(own);
        if (lower != own) continue;
        Scenario at = stage;
        at.training.micro_batch = listed.scenario.training.micro_batch;
        const LayoutCheck check = check_layout(at, params);
        if (check.fits && check.peak_bytes == listed.check.peak_bytes &&
            check.step_seconds == listed.check.step_seconds)
            return &listed;
    }
    return nullptr;
}

}  // namespace

TEST_CASE("the search lists every layout brute force finds fitting, and no other, each figure once", "[fit][exact]") {
    double repeats = 0;
    for (const bool experts : {false, true}) {
        for (const double gpus : {1.0, 2.0, 4.0, 6.0, 8.0}) {
            for (const double global_batch : {0.0, 16.0}) {
                for (const double share : {0.2, 0.45, 0.9}) {
                    const Scenario s = small_cluster(gpus, global_batch, experts, share * one_gpu_peak(experts));
                    const ParameterCount params = scenario_parameters(s);
                    std::map<LayoutKey, FitLayout> brute;  // layout → at the largest micro-batch found fitting (≤ 16)
                    for (const FitLayout& f : brute_force_fits(s, 16)) {
                        auto found = brute.find(key_of(f.scenario));
                        if (found == brute.end())
                            brute.emplace(key_of(f.scenario), f);
                        else if (f.scenario.training.micro_batch > found->second.scenario.training.micro_batch)
                            found->second = f;
                    }
                    const FitSearch search = search_fits(s, 1e9);
                    std::map<LayoutKey, double> listed;
                    for (const FitLayout& f : search.layouts)
                        listed[key_of(f.scenario)] = f.scenario.training.micro_batch;
                    INFO("gpus " << gpus << ", global batch " << global_batch << ", experts " << experts << ", share "
                                 << share);
                    double unlisted = 0;
                    for (const auto& [key, fitting] : brute) {
                        const double micro_batch = fitting.scenario.training.micro_batch;
                        const FitLayout* lower =
                            listed.count(key) == 1 ? nullptr : repeated_by(search, fitting.scenario, params);
                        // Listed, or a stage at one rank with a lower stage's figures (listed in its place).
                        REQUIRE((listed.count(key) == 1 || lower != nullptr));
                        if (lower != nullptr) ++unlisted;
                        const double found = lower != nullptr ? lower->scenario.training.micro_batch : listed[key];
                        // Without a global batch memory rises with the micro-batch: the search's is the largest.
                        if (global_batch == 0) CHECK(std::min(found, 16.0) == micro_batch);
                    }
                    CHECK(search.layouts_total + unlisted == static_cast<double>(brute.size()));
                    repeats += unlisted;
                }
            }
        }
    }
    CHECK(repeats > 0);  // the rule was exercised: one GPU's stages repeat each other
}

TEST_CASE("brute force finds both layouts that fit and layouts that do not, so the comparison can fail",
          "[fit][exact]") {
    const Scenario s = small_cluster(8, 0, false, 0.45 * one_gpu_peak(false));
    const FitSearch search = search_fits(s, 1e9);
    CHECK(search.layouts_total > 0);
    CHECK(search.layouts_total < search.layouts_examined);
}

TEST_CASE("every listed layout fits at its micro-batch and not at one more", "[fit][boundary]") {
    for (const double global_batch : {0.0, 16.0}) {
        const Scenario s = small_cluster(8, global_batch, true, 0.45 * one_gpu_peak(true));
        const ParameterCount params = scenario_parameters(s);
        const FitSearch search = search_fits(s, 1e9);
        REQUIRE(!search.layouts.empty());
        for (const FitLayout& layout : search.layouts) {
            CHECK(check_layout(layout.scenario, params, false).fits);
            Scenario more = layout.scenario;
            more.training.micro_batch += 1;
            const bool at_cap =
                global_batch > 0 &&
                layout.scenario.training.micro_batch * layout.scenario.parallel.data_parallel() >= global_batch;
            if (!at_cap) CHECK_FALSE(check_layout(more, params, false).fits);
        }
    }
}

TEST_CASE("the largest micro-batch and sequence fit, and one more sequence or twice the tokens do not",
          "[fit][boundary]") {
    const Scenario s = small_cluster(4, 0, false, 1.5 * one_gpu_peak(false));
    const ParameterCount params = scenario_parameters(s);
    const FitSearch search = search_fits(s, 20);
    REQUIRE(search.largest_micro_batch >= 1);
    Scenario at = s;
    at.training.micro_batch = search.largest_micro_batch;
    CHECK(check_layout(at, params, false).fits);
    at.training.micro_batch += 1;
    CHECK_FALSE(check_layout(at, params, false).fits);
    REQUIRE(search.largest_sequence >= 1);
    at = s;
    at.training.sequence = search.largest_sequence;
    CHECK(check_layout(at, params, false).fits);
    // An exact whole number of tokens (issue 32), not a power of two: one token more does not fit.
    at.training.sequence += 1;
    CHECK_FALSE(check_layout(at, params, false).fits);
}

TEST_CASE("the longest sequence is exact: two cards of different memory get different answers", "[fit][boundary]") {
    // Issue 32: Llama 3 8B QLoRA on a 40 GiB and a 48 GiB card both read 32,768 when the search
    // walked powers of two. With context parallelism the answer is a multiple of 2c.
    double longest[2] = {0, 0};
    int index = 0;
    for (const char* memory : {"42949672960", "51539607552"}) {
        const ScenarioReading reading = read_scenario_text(
            std::string(R"({"model":{"preset":"llama3-8b"},"training":{"method":"qlora","recompute":"full"},)") +
            R"("hardware":{"gpu":"custom","memory_bytes":)" + memory + R"(,"peak_flops":1e15}})");
        REQUIRE(reading.ok());
        const FitSearch search = search_fits(reading.scenario, 1);
        longest[index++] = search.largest_sequence;
        Scenario more = reading.scenario;
        more.training.sequence = search.largest_sequence + 1;
        CHECK_FALSE(check_layout(more, scenario_parameters(more), false).fits);
    }
    CHECK(longest[0] > 0);
    CHECK(longest[1] > longest[0]);
    CHECK(std::fmod(longest[0], 1024) != 0);  // not a power of two (nor a round multiple)
}

TEST_CASE("more GPUs: the change fits, and one data-parallel group fewer does not", "[fit][boundary]") {
    // Llama 3 70B on 8 H100s does not fit; whole groups of t·p·c GPUs with ZeRO-3 make it fit.
    const ScenarioReading reading =
        read_scenario_text(R"({"model":{"preset":"llama3-70b"},"training":{"recompute":"full"},
        "parallel":{"gpus":8,"tensor":2,"zero_stage":1}})");
    REQUIRE(reading.ok());
    const ParameterCount params = scenario_parameters(reading.scenario);
    const FitSearch search = search_fits(reading.scenario, 5);
    REQUIRE_FALSE(search.current.fits);
    bool found = false;
    for (const FitChange& change : search.changes) {
        CHECK(change.check.fits);
        if (change.kind != FitChangeKind::more_gpus) continue;
        found = true;
        Scenario fewer = change.scenario;
        fewer.parallel.gpus -= 2;  // one group of t·p·c = 2 GPUs
        if (fewer.parallel.gpus > reading.scenario.parallel.gpus) CHECK_FALSE(check_layout(fewer, params, false).fits);
    }
    CHECK(found);
}

TEST_CASE("the search's memory is the estimate's per-GPU peak", "[fit][exact]") {
    // docs/model.md §17: the same chain as the estimate, with the timeline's fewest events.
    for (
        const char* text :
        {R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":8,"zero_stage":3}})",
         R"({"model":{"preset":"llama3-70b"},"training":{"recompute":"selective","global_batch":64},
                                 "parallel":{"gpus":64,"tensor":8,"pipeline":4,"interleave":5,"zero_stage":1}})",
         R"({"model":{"preset":"mixtral-8x22b"},"parallel":{"gpus":64,"tensor":4,"expert":8,"zero_stage":2}})",
         R"({"model":{"preset":"llama2-7b"},"training":{"method":"qlora","offload":"optimizer"},"parallel":{"zero_stage":1}})"}) {
        const ScenarioReading reading = read_scenario_text(text);
        REQUIRE(reading.ok());
        const LayoutCheck check = check_layout(reading.scenario, scenario_parameters(reading.scenario));
        CHECK(check.peak_bytes == number_at(estimate_of(text), "training.per_gpu.total"));
    }
}

TEST_CASE("a search with no answer says why, field by field", "[fit][errors]") {
    const auto result = json::parse(
        fit_json(R"({"model":{"preset":"llama3-405b"},"parallel":{"gpus":1},"hardware":{"gpu":"rtx-4090"}})"));
    REQUIRE(result.ok);
    CHECK(number_at(result.value, "layouts_total") == 0);
    std::map<std::string, int> fields;
    for (const auto& reason : result.value.find("reasons")->items) ++fields[reason.find("field")->text];
    CHECK(fields["training.micro_batch"] == 1);
    CHECK(fields["training.sequence"] == 1);
    CHECK(fields["parallel.gpus"] == 1);
}

TEST_CASE("the search takes a scenario or {scenario, max_layouts}, and refuses anything else by field",
          "[fit][errors]") {
    const auto listed =
        json::parse(fit_json(R"({"scenario":{"model":{"preset":"llama3-8b"},"parallel":{"gpus":8}},"max_layouts":3})"));
    REQUIRE(listed.ok);
    CHECK(listed.value.find("layouts")->items.size() == 3);
    CHECK(has_error_for(json::parse(fit_json(R"({"scenario":{},"max_layouts":0})")).value, "max_layouts"));
    CHECK(has_error_for(json::parse(fit_json(R"({"scenario":{},"limit":3})")).value, "limit"));
    CHECK(has_error_for(json::parse(fit_json(R"({"parallel":{"gpus":0}})")).value, "parallel.gpus"));
    CHECK(json::parse(fit_json("{not json")).value.find("errors")->items.size() == 1);
}

TEST_CASE("a setup that does not fit gets changes that fit, each with its time against the setup's", "[fit]") {
    const auto result = json::parse(fit_json(R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":8}})"));
    REQUIRE(result.ok);
    CHECK_FALSE(result.value.find_path("current.fits")->boolean);
    const auto& changes = result.value.find("changes")->items;
    REQUIRE(!changes.empty());
    int with_ratio = 0;
    for (const auto& change : changes) {
        CHECK(change.find("fits")->boolean);
        CHECK(change.find_path("scenario.parallel.gpus") != nullptr);  // a whole scenario, to load
        // A ratio only over the same tokens: the method change times a fine-tuning run instead.
        const bool same_tokens =
            number_at(change, "scenario.training.tokens") == number_at(result.value, "scenario.training.tokens");
        INFO(change.find("kind")->text);
        CHECK((change.find("time_ratio") != nullptr) == same_tokens);
        if (!same_tokens) continue;
        ++with_ratio;
        CHECK(number_at(change, "time_ratio") ==
              Approx(number_at(change, "run_seconds") / number_at(result.value, "current.run_seconds")));
    }
    CHECK(with_ratio > 0);
}

TEST_CASE("a larger GPU's label states its memory once", "[fit]") {
    // QLoRA of Llama 3 8B on one 24 GB card does not fit; the catalogue's V100 32 GB does. Its
    // short name carries the memory ("V100 32 GB"), so the label names the model alone beside it.
    const auto result = json::parse(
        fit_json(R"({"model":{"preset":"llama3-8b"},"hardware":{"gpu":"rtx-4090"},"training":{"method":"qlora"}})"));
    REQUIRE(result.ok);
    bool found = false;
    for (const auto& change : result.value.find("changes")->items) {
        if (change.find("kind")->text != "larger_gpu") continue;
        found = true;
        const std::string label = change.find("label")->text;
        INFO(label);
        CHECK(label.find("GB") == label.rfind("GB"));
    }
    CHECK(found);
}

namespace {

Scenario read_or_fail(const std::string& text) {
    const ScenarioReading reading = read_scenario_text(text);
    REQUIRE(reading.ok());
    return reading.scenario;
}

// Both bounds of step_peak_bounds, and the timeline's own peak, by the estimate's chain (check_layout's).
struct PeakAndBounds {
    double peak = 0;
    StepPeakBounds bounds;
};

PeakAndBounds peak_and_bounds(const Scenario& s) {
    const ParameterCount params = scenario_parameters(s);
    const FineTuningFigures fine_tuning = fine_tuning_figures(s.training, s.model.architecture, params.total);
    const BytesPerParam bytes = fine_tuned_bytes_per_param(fine_tuning, params.total);
    ModelStateBytes states = per_gpu_model_states(bytes, params, s.parallel);
    const ActivationBytes activations = training_activations(s.model.architecture, s.training, s.parallel);
    offload_states(s, bytes, fine_tuning.trainable_bytes, params, activations.micro_batches, states);
    return {check_layout(s, params, false).peak_bytes,
            step_peak_bounds(s, params, layer_parameters(s.model.architecture, params), bytes, states, activations)};
}

// The training settings the bounds and the pruning are tried with: full training, LoRA, and
// QLoRA with its optimizer states offloaded (which needs ZeRO ≥ 1, so some layouts drop out).
const char* const trainings[] = {R"({"sequence":2048)", R"({"sequence":4096,"method":"lora","global_batch":64)",
                                 R"({"sequence":1024,"method":"qlora","offload":"optimizer","flash_attention":false)"};

}  // namespace

TEST_CASE("the step's peak lies between the bounds the search judges a layout by, for every preset",
          "[fit][exact][bounds]") {
    // docs/model.md §17: the bounds decide a layout only when the memory lies outside them, so
    // they must hold the timeline's peak between them for any layout, ZeRO stage, recompute and micro-batch.
    double layouts = 0, tight_upper = 0;
    for (const ModelPreset& preset : model_presets()) {
        for (const char* training : trainings) {
            testing::for_each_grid_layout(preset.id, std::string(training) + "}", [&](const Scenario& s) {
                const PeakAndBounds found = peak_and_bounds(s);
                const ParallelSettings& l = s.parallel;
                INFO(preset.id << " " << training << " t" << l.tensor << " p" << l.pipeline << " c" << l.context << " e"
                               << l.expert << " zero " << l.zero_stage << " recompute "
                               << static_cast<int>(s.training.recompute) << " b " << s.training.micro_batch);
                CHECK(found.bounds.lower <= found.peak * (1 + 1e-12));
                CHECK(found.peak <= found.bounds.upper * (1 + 1e-12));
                ++layouts;
                if (found.bounds.upper <= found.peak * (1 + 1e-12)) ++tight_upper;
            });
        }
    }
    CHECK(layouts > 10000);
    CHECK(tight_upper > 0);  // the upper bound is reached by some layouts: it is not loose everywhere
}

namespace {

// Everything a search reports about its layouts, for comparing two searches.
void check_same_search(const FitSearch& pruned, const FitSearch& exhaustive) {
    CHECK(pruned.layouts_total == exhaustive.layouts_total);
    CHECK(pruned.layouts_examined == exhaustive.layouts_examined);
    CHECK(pruned.least_states == exhaustive.least_states);
    CHECK(pruned.complete == exhaustive.complete);
    REQUIRE(pruned.layouts.size() == exhaustive.layouts.size());
    for (std::size_t k = 0; k < pruned.layouts.size(); ++k) {
        INFO("layout " << k);
        CHECK(key_of(pruned.layouts[k].scenario) == key_of(exhaustive.layouts[k].scenario));
        CHECK(pruned.layouts[k].scenario.training.micro_batch == exhaustive.layouts[k].scenario.training.micro_batch);
        CHECK(pruned.layouts[k].check.peak_bytes == exhaustive.layouts[k].check.peak_bytes);
        CHECK(pruned.layouts[k].check.run_seconds == exhaustive.layouts[k].check.run_seconds);
    }
}

}  // namespace

TEST_CASE("the pruned search lists the same layouts in the same order as the exhaustive one", "[fit][exact]") {
    // docs/model.md §17: bounds decide most layouts' memory and skip the full check of layouts
    // that cannot reach the list; the exhaustive search walks and times every layout.
    double walked = 0, examined = 0, bounded = 0, timed = 0, fitting = 0;
    for (const char* preset : {"llama3-8b", "llama2-13b", "mixtral-8x7b", "deepseek-v3", "gpt2-124m"}) {
        for (const char* training : trainings) {
            for (const char* gpu : {"h100-sxm", "rtx-4090"}) {
                for (const double gpus : {8.0, 16.0, 64.0}) {
                    const Scenario s =
                        read_or_fail(R"({"model":{"preset":")" + std::string(preset) + R"("},"training":)" + training +
                                     R"(},"parallel":{"zero_stage":1,"gpus":)" + std::to_string(gpus) +
                                     R"(},"hardware":{"gpu":")" + gpu + R"("}})");
                    // Listing every layout at its largest micro-batch is slow: on the smallest cluster only.
                    for (const double max_layouts : {1.0, 7.0, gpus == 8 ? 1e9 : 3.0}) {
                        INFO(preset << " " << training << " on " << gpus << " " << gpu << ", " << max_layouts);
                        const FitSearch pruned = search_fits(s, max_layouts);
                        check_same_search(pruned, search_fits(s, max_layouts, FitPruning::none));
                        if (max_layouts != 7) continue;
                        walked += pruned.timelines_walked, examined += pruned.layouts_examined;
                        bounded += pruned.steps_bounded, timed += pruned.steps_timed;
                        fitting += pruned.layouts_total;
                    }
                }
            }
        }
    }
    // The comparison means something only when layouts fit and others do not, and pruning skipped work.
    CHECK(fitting > 0);
    CHECK(walked < examined / 4);
    CHECK(timed < fitting / 4);
    // The cheap bound (compute and bubble) spares some fitting layouts their exact step time.
    CHECK(bounded < fitting);
}

TEST_CASE("the pruned search agrees with the exhaustive one on small clusters at memory's edge", "[fit][exact]") {
    for (const bool experts : {false, true})
        for (const double gpus : {8.0, 16.0, 64.0})
            for (const double global_batch : {0.0, 64.0})
                for (const double share : {0.05, 0.2, 0.45, 0.9}) {
                    const Scenario s = small_cluster(gpus, global_batch, experts, share * one_gpu_peak(experts));
                    INFO("gpus " << gpus << ", experts " << experts << ", share " << share);
                    for (const double max_layouts : {3.0, gpus <= 16 ? 1e9 : 1.0})
                        check_same_search(search_fits(s, max_layouts), search_fits(s, max_layouts, FitPruning::none));
                }
}

TEST_CASE("the pruned search agrees with the exhaustive one on the largest presets and clusters", "[fit][exact]") {
    // docs/model.md §17: families of layouts are counted, bounded and ruled out together; the
    // exhaustive search walks and times every layout. The benchmark's own clusters (bench/), a
    // cluster with many divisors (720,720 = 2⁴·3²·5·7·11·13 GPUs: many pipelines, contexts and
    // interleavings), experts split every way DeepSeek-V3's 256 and Mixtral's 8 allow.
    double families_ruled_out = 0;
    for (const char* preset : {"llama3-405b", "deepseek-v3", "mixtral-8x7b"}) {
        for (const double gpus : {16384.0, 720720.0}) {
            const Scenario s =
                read_or_fail(R"({"model":{"preset":")" + std::string(preset) + R"("},"parallel":{"gpus":)" +
                             std::to_string(gpus) + R"(},"hardware":{"gpu":"h100-sxm"}})");
            for (const double max_layouts : {1.0, 20.0}) {
                INFO(preset << " on " << gpus << ", " << max_layouts);
                const FitSearch pruned = search_fits(s, max_layouts);
                check_same_search(pruned, search_fits(s, max_layouts, FitPruning::none));
                families_ruled_out += pruned.layouts_total - pruned.steps_bounded;
            }
        }
    }
    CHECK(families_ruled_out > 0);  // the floors spared fitting layouts their step time
}

TEST_CASE("the pruned search agrees with the exhaustive one with interleaving, offload and one data-parallel rank",
          "[fit][exact]") {
    // Interleaving (Llama 3 8B's 32 layers: v among the divisors of 32/p), the weights offloaded
    // (ZeRO-3 only), and clusters of 2 and 4 GPUs, where t·p·c = G leaves one data-parallel rank
    // and ZeRO-2's gradient buffer can cost more than ZeRO-1 saves (the peak is not monotone in
    // the stage there), at memory sizes between the layouts' peaks.
    for (const char* training :
         {R"({"sequence":4096})", R"({"sequence":2048,"offload":"parameters","method":"lora","global_batch":32})"}) {
        for (const double gpus : {2.0, 4.0, 32.0, 256.0}) {
            for (const char* gpu : {"rtx-4090", "a100-sxm-40", "h100-sxm"}) {
                const Scenario s = read_or_fail(R"({"model":{"preset":"llama3-8b"},"training":)" +
                                                std::string(training) + R"(,"parallel":{"zero_stage":3,"gpus":)" +
                                                std::to_string(gpus) + R"(},"hardware":{"gpu":")" + gpu + R"("}})");
                INFO(training << " on " << gpus << " " << gpu);
                for (const double max_layouts : {2.0, 20.0})
                    check_same_search(search_fits(s, max_layouts), search_fits(s, max_layouts, FitPruning::none));
            }
        }
    }
    for (const double gpus : {2.0, 4.0})
        for (const double share : {0.1, 0.15, 0.3, 0.6, 0.75}) {
            const Scenario s = small_cluster(gpus, 0, false, share * one_gpu_peak(false));
            INFO("gpus " << gpus << ", share " << share);
            check_same_search(search_fits(s, 1e9), search_fits(s, 1e9, FitPruning::none));
        }
}

TEST_CASE("the method change fine-tunes on the fine-tuning run's tokens, so its time reads in hours", "[fit][tokens]") {
    // finetune.hpp: leaving full training for LoRA or QLoRA takes QLoRA's Guanaco run (1,875 × 16 × 528 tokens).
    const auto result =
        json::parse(fit_json(R"({"model":{"preset":"llama3-8b"},"hardware":{"gpu":"rtx-4090"},"parallel":{"gpus":1},)"
                             R"("training":{"sequence":2048}})"));
    REQUIRE(result.ok);
    bool found = false;
    for (const auto& change : result.value.find("changes")->items) {
        if (change.find("kind")->text != "method") continue;
        found = true;
        CHECK(number_at(change, "scenario.training.tokens") == 1875.0 * 16 * 528);
        CHECK(number_at(change, "run_seconds") < 24 * 3600);
        CHECK(change.find("label")->text.find("fine-tuning on 15.8 million tokens") != std::string::npos);
    }
    CHECK(found);
}

namespace {

Scenario scenario_of(const std::string& text) {
    const ScenarioReading reading = read_scenario_text(text);
    REQUIRE(reading.ok());
    return reading.scenario;
}

using SettingsKey = std::tuple<double, double, double, double, double, int, double>;  // t, p, c, e, v, recompute, b

SettingsKey settings_of(const FitLayout& f) {
    const ParallelSettings& l = f.scenario.parallel;
    return {l.tensor,
            l.pipeline,
            l.context,
            l.expert,
            l.interleave,
            static_cast<int>(f.scenario.training.recompute),
            f.scenario.training.micro_batch};
}

}  // namespace

// The learner's report (issue 25's follow-up): one RTX 4090 listed the same layout at ZeRO 0, 1, 2
// and 3 with the same peak and time: with one rank ZeRO has nothing to shard.
TEST_CASE("on one GPU the search lists each layout once, at the lowest ZeRO stage", "[fit][repeats]") {
    const FitSearch search = search_fits(
        scenario_of(R"({"model":{"preset":"llama3-8b"},"hardware":{"gpu":"rtx-4090"},"training":{"method":"qlora"}})"),
        1e9);
    REQUIRE(!search.layouts.empty());
    std::map<SettingsKey, int> seen;
    for (const FitLayout& f : search.layouts) {
        CHECK(++seen[settings_of(f)] == 1);
        CHECK(f.scenario.parallel.zero_stage == 0);
    }
    CHECK(search.layouts_total == static_cast<double>(search.layouts.size()));
    CHECK(search.layouts_examined == 12);  // 4 stages × 3 recompute choices, each still judged
}

// Under optimizer offload ZeRO-2 sends each GPU's gradients to the CPU (docs/model.md §16) and ZeRO-1
// keeps them: at one rank their peaks differ (21.58 vs 21.59 GB here), so both are layouts of their own.
TEST_CASE("on one GPU stages whose figures differ are both listed", "[fit][repeats]") {
    const Scenario s =
        scenario_of(R"({"model":{"preset":"llama3-8b"},"hardware":{"gpu":"rtx-4090"},)"
                    R"("training":{"method":"qlora","offload":"optimizer"},"parallel":{"zero_stage":1}})");
    const FitSearch search = search_fits(s, 1e9);
    const FitLayout* stage[4] = {nullptr, nullptr, nullptr, nullptr};
    for (const FitLayout& f : search.layouts)
        if (f.scenario.training.recompute == Recompute::full) stage[f.scenario.parallel.zero_stage] = &f;
    REQUIRE(stage[1] != nullptr);
    REQUIRE(stage[2] != nullptr);
    CHECK(stage[1]->check.peak_bytes != stage[2]->check.peak_bytes);
    // ZeRO-3 without offloaded weights gathers nothing at one rank: the same figures as ZeRO-2's.
    CHECK(stage[3] == nullptr);
    Scenario zero3 = stage[2]->scenario;
    zero3.parallel.zero_stage = 3;
    const LayoutCheck check = check_layout(zero3, scenario_parameters(zero3));
    CHECK(check.peak_bytes == stage[2]->check.peak_bytes);
    CHECK(check.step_seconds == stage[2]->check.step_seconds);
}

// With d > 1 each stage shards the states over d ranks and differs from the others: all stay.
TEST_CASE("on eight GPUs a data-parallel layout is listed at every ZeRO stage", "[fit][repeats]") {
    const FitSearch search = search_fits(
        scenario_of(
            R"({"model":{"preset":"llama3-8b"},"hardware":{"gpu":"h100-sxm"},"parallel":{"gpus":8},"training":{"method":"lora"}})"),
        1e9);
    for (const Recompute recompute : {Recompute::none, Recompute::selective, Recompute::full}) {
        bool stage_listed[4] = {false, false, false, false};
        for (const FitLayout& f : search.layouts) {
            const ParallelSettings& l = f.scenario.parallel;
            if (l.tensor == 1 && l.pipeline == 1 && l.context == 1 && f.scenario.training.recompute == recompute)
                stage_listed[l.zero_stage] = true;
        }
        for (int zero = 0; zero <= 3; ++zero) CHECK(stage_listed[zero]);
    }
}
