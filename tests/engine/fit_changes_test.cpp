// The changes that make a setup fit (docs/model.md §17) when no layout of its GPUs fits: each comes
// with the fastest layout that fits with it, and that layout is the search's own answer.
#include "catch_include.hpp"

#include <string>

#include "engine/api/fit.hpp"
#include "engine/model/finetune.hpp"
#include "engine/model/fit.hpp"
#include "engine/model/hardware.hpp"
#include "engine/model/scenario.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::number_at;

namespace {

Scenario scenario_of(const std::string& text) {
    const ScenarioReading reading = read_scenario_text(text);
    REQUIRE(reading.ok());
    return reading.scenario;
}

const FitChange* change_of(const FitSearch& search, FitChangeKind kind) {
    for (const FitChange& change : search.changes)
        if (change.kind == kind) return &change;
    return nullptr;
}

// What the change's layout must be: the first the search ranks for the changed scenario.
void check_fastest_with_change(const FitChange& change) {
    const LayoutCheck own = check_layout(change.scenario, scenario_parameters(change.scenario));
    CHECK(own.fits);
    CHECK(own.run_seconds == change.check.run_seconds);
    const FitSearch with_change = search_fits(change.scenario, 1);
    REQUIRE(!with_change.layouts.empty());
    CHECK(with_change.layouts.front().check.run_seconds == change.check.run_seconds);
    CHECK(with_change.layouts.front().scenario.parallel.tensor == change.scenario.parallel.tensor);
    CHECK(with_change.layouts.front().scenario.parallel.pipeline == change.scenario.parallel.pipeline);
    CHECK(with_change.layouts.front().scenario.parallel.context == change.scenario.parallel.context);
}

}  // namespace

TEST_CASE("with no layout of its GPUs fitting, QLoRA comes with the fastest layout that fits with it",
          "[fit][changes]") {
    // Llama 3 405B on eight H100s: 16 bytes per parameter is 6.5 TB, 812 GB per GPU even fully
    // sharded; QLoRA's 4-bit base is about a quarter of 16-bit weights' 810 GB.
    const Scenario s =
        scenario_of(R"({"model":{"preset":"llama3-405b"},"parallel":{"gpus":8},"hardware":{"gpu":"h100-sxm"}})");
    const FitSearch search = search_fits(s, 20);
    REQUIRE(search.layouts_total == 0);
    const FitChange* qlora = change_of(search, FitChangeKind::method);
    REQUIRE(qlora != nullptr);
    CHECK(qlora->scenario.training.method == FineTuningMethod::qlora);
    CHECK(qlora->new_layout);
    // The same GPUs, another layout: at the scenario's own layout QLoRA does not fit.
    CHECK(qlora->scenario.parallel.gpus == 8);
    CHECK(qlora->scenario.hardware.gpu.id == "h100-sxm");
    Scenario at_own_layout = with_fine_tuning_method(s, FineTuningMethod::qlora);
    CHECK_FALSE(check_layout(at_own_layout, scenario_parameters(at_own_layout), false).fits);
    check_fastest_with_change(*qlora);
}

TEST_CASE("with no layout fitting, a larger GPU is the smallest of the catalogue on which some layout fits",
          "[fit][changes]") {
    // Llama 3 70B on eight 24 GB cards: 141 GB of model states per GPU even fully sharded.
    const Scenario s =
        scenario_of(R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":8},"hardware":{"gpu":"rtx-4090"}})");
    const FitSearch search = search_fits(s, 20);
    REQUIRE(search.layouts_total == 0);
    const FitChange* larger = change_of(search, FitChangeKind::larger_gpu);
    REQUIRE(larger != nullptr);
    CHECK(larger->new_layout);
    check_fastest_with_change(*larger);
    // Every catalogue GPU between the two fits no layout at all: this one is the smallest that does.
    const double chosen = larger->scenario.hardware.gpu.memory_bytes;
    int smaller_tried = 0;
    for (const Gpu& gpu : gpu_catalogue()) {
        if (gpu.memory_bytes <= s.hardware.gpu.memory_bytes || gpu.memory_bytes >= chosen) continue;
        Scenario trial = s;
        trial.hardware.gpu = gpu;
        INFO(gpu.id);
        CHECK(search_fits(trial, 1).layouts_total == 0);
        ++smaller_tried;
    }
    CHECK(smaller_tried > 0);  // the comparison could fail: there are GPUs between 24 GB and the answer
}

TEST_CASE("when some layout of the GPUs fits, every change keeps the scenario's layout", "[fit][changes]") {
    // Llama 3 8B on eight H100s at ZeRO-0 without recompute does not fit; other layouts do.
    const Scenario s =
        scenario_of(R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":8},"hardware":{"gpu":"h100-sxm"}})");
    const FitSearch search = search_fits(s, 20);
    REQUIRE_FALSE(search.current.fits);
    REQUIRE(search.layouts_total > 0);
    REQUIRE(!search.changes.empty());
    for (const FitChange& change : search.changes) {
        INFO(fit_change_name(change.kind));
        CHECK_FALSE(change.new_layout);
        CHECK(change.scenario.parallel.tensor == s.parallel.tensor);
        CHECK(change.scenario.parallel.pipeline == s.parallel.pipeline);
    }
}

TEST_CASE("a change on another layout carries that layout in the answer, as a ranked layout does", "[fit][changes]") {
    const auto result = json::parse(
        fit_json(R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":8},"hardware":{"gpu":"rtx-4090"}})"));
    REQUIRE(result.ok);
    int with_layout = 0;
    for (const auto& change : result.value.find("changes")->items) {
        const json::Value* layout = change.find("layout");
        if (layout == nullptr) continue;
        ++with_layout;
        CHECK(number_at(*layout, "tensor") == number_at(change, "scenario.parallel.tensor"));
        CHECK(number_at(*layout, "pipeline") == number_at(change, "scenario.parallel.pipeline"));
        CHECK(number_at(*layout, "context") == number_at(change, "scenario.parallel.context"));
        CHECK(number_at(*layout, "zero_stage") == number_at(change, "scenario.parallel.zero_stage"));
        CHECK(number_at(*layout, "micro_batch") == number_at(change, "scenario.training.micro_batch"));
        CHECK(number_at(*layout, "data") * number_at(*layout, "tensor") * number_at(*layout, "pipeline") *
                  number_at(*layout, "context") ==
              8);
    }
    CHECK(with_layout > 0);
}
