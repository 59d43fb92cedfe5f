// The changes that make a setup fit (docs/model.md §17) when no layout of its GPUs fits: each comes
// with the fastest layout that fits with it, and that layout is the search's own answer.
#include "catch_include.hpp"

#include <algorithm>
#include <iterator>
#include <string>

#include "engine/api/fit.hpp"
#include "engine/model/choices.hpp"
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

// Issue 33, item 10: the changes come in the order of what they cost the person (nothing, time,
// money), and the changes of goal (another method, shorter sequences) come last, apart.
namespace {

void check_ordered_by_cost(const FitSearch& search) {
    for (size_t i = 1; i < search.changes.size(); ++i) {
        const FitChange& before = search.changes[i - 1];
        const FitChange& after = search.changes[i];
        INFO(fit_change_name(before.kind) << " before " << fit_change_name(after.kind));
        CHECK(before.cost <= after.cost);
        if (before.cost == after.cost) CHECK(before.check.run_seconds <= after.check.run_seconds);
    }
    for (const FitChange& change : search.changes) {
        INFO(fit_change_name(change.kind));
        const bool hardware = change.kind == FitChangeKind::more_gpus || change.kind == FitChangeKind::larger_gpu;
        const bool goal = change.kind == FitChangeKind::method || change.kind == FitChangeKind::sequence;
        CHECK((change.cost == FitChangeCost::money) == hardware);
        CHECK((change.cost == FitChangeCost::goal) == goal);
        if (change.cost == FitChangeCost::nothing) CHECK(change.check.run_seconds <= search.current.run_seconds);
        if (change.cost == FitChangeCost::time) CHECK(change.check.run_seconds > search.current.run_seconds);
    }
}

size_t position_of(const FitSearch& search, FitChangeKind kind) {
    for (size_t i = 0; i < search.changes.size(); ++i)
        if (search.changes[i].kind == kind) return i;
    FAIL("no " << fit_change_name(kind) << " change");
    return 0;
}

}  // namespace

TEST_CASE("QLoRA on one 24 GB card at 8,192 tokens: checkpointing comes before a larger GPU", "[fit][changes]") {
    // The play-through's first card was "A larger GPU: H100 SXM (80 GB)", checkpointing the last.
    const Scenario s =
        scenario_of(R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":1},"hardware":{"gpu":"rtx-4090"},)"
                    R"("training":{"method":"qlora","sequence":8192}})");
    const FitSearch search = search_fits(s, 20);
    REQUIRE_FALSE(search.current.fits);
    REQUIRE(search.changes.size() >= 2);
    check_ordered_by_cost(search);
    CHECK(position_of(search, FitChangeKind::recompute) < position_of(search, FitChangeKind::larger_gpu));
    CHECK(search.changes.front().cost != FitChangeCost::money);
}

TEST_CASE("70B pre-training on 15T tokens: QLoRA is a change of goal, after every change of this run",
          "[fit][changes]") {
    const Scenario s =
        scenario_of(R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":1},"hardware":{"gpu":"h100-sxm"},)"
                    R"("training":{"tokens":15e12}})");
    const FitSearch search = search_fits(s, 20);
    REQUIRE_FALSE(search.current.fits);
    check_ordered_by_cost(search);
    const size_t method = position_of(search, FitChangeKind::method);
    CHECK(search.changes[method].cost == FitChangeCost::goal);
    for (size_t i = 0; i < method; ++i) CHECK(search.changes[i].cost != FitChangeCost::goal);
    CHECK(search.changes.front().kind != FitChangeKind::method);
}

TEST_CASE("every change's cost is in the answer, in the engine's order", "[fit][changes]") {
    const auto result = json::parse(fit_json(
        R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":1},"hardware":{"gpu":"rtx-4090"},"training":{"sequence":8192}})"));
    REQUIRE(result.ok);
    const auto& changes = result.value.find("changes")->items;
    REQUIRE(changes.size() >= 2);
    const std::string order[] = {"nothing", "time", "money", "goal"};
    int last = 0;
    for (const auto& change : changes) {
        const json::Value* cost = change.find("costs");
        REQUIRE(cost != nullptr);
        const int rank =
            static_cast<int>(std::find(std::begin(order), std::end(order), cost->text) - std::begin(order));
        REQUIRE(rank < 4);
        CHECK(rank >= last);
        last = rank;
    }
}

TEST_CASE("the search proposes only the interleaved stages a page's control offers", "[fit][interleave]") {
    // Issue 33, item 8: 70B on 64 H100s loaded 10 interleaved stages (80 layers over PP 8), which
    // the "Interleaved stages per GPU" control (1, 2, 3, 4, 8) could not show.
    const Scenario s = scenario_of(
        R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":64},"hardware":{"gpu":"h100-sxm"},"training":{"tokens":1.4e12}})");
    const FitSearch search = search_fits(s, 1000);
    REQUIRE(!search.layouts.empty());
    int interleaved = 0;
    for (const FitLayout& layout : search.layouts) {
        INFO("PP " << layout.scenario.parallel.pipeline << " interleave " << layout.scenario.parallel.interleave);
        CHECK(is_interleave_stop(layout.scenario.parallel.interleave));
        if (layout.scenario.parallel.interleave > 1) ++interleaved;
    }
    CHECK(interleaved > 0);  // the search still interleaves where the control can show it
    // And the control's values are the engine's: the choices list them in order.
    const auto choices = json::parse(choices_json());
    REQUIRE(choices.ok);
    const json::Value* offered = choices.value.find("parallel.interleave");
    REQUIRE(offered != nullptr);
    REQUIRE(offered->items.size() == std::size(interleave_stops));
    for (size_t i = 0; i < offered->items.size(); ++i)
        CHECK(number_at(offered->items[i], "value") == interleave_stops[i]);
}
