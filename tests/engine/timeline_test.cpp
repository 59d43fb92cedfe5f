// The step timeline (docs/model.md §9): one training step on one GPU, event by event.
#include <cmath>
#include <string>
#include <vector>

#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/api/timeline_json.hpp"
#include "engine/model/estimate.hpp"
#include "engine/model/model.hpp"
#include "engine/model/timeline.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;

namespace {

json::Value timeline_of(const std::string& scenario) {
    const json::ParseResult parsed = json::parse(step_timeline_json(scenario));
    REQUIRE(parsed.ok);
    return parsed.value;
}

const std::vector<std::string>& components() {
    static const std::vector<std::string> names = {"weights",        "gathered_weights", "gradients",
                                                   "master_weights", "optimizer_states", "activations",
                                                   "logits",         "temporary"};
    return names;
}

std::string scenario_with(const std::string& preset, const std::string& recompute, int zero_stage, double gpus,
                          bool flash = true) {
    return R"({"model":{"preset":")" + preset + R"("},"training":{"recompute":")" + recompute +
           R"(","flash_attention":)" + (flash ? "true" : "false") + R"(},"parallel":{"gpus":)" +
           json::format_number(gpus) + R"(,"zero_stage":)" + std::to_string(zero_stage) + "}}";
}

// Presets × recompute × ZeRO stage × FlashAttention, on 8 GPUs (data parallel 8).
std::vector<std::string> variants() {
    std::vector<std::string> scenarios;
    for (const auto& preset : model_presets())
        for (const char* recompute : {"none", "selective", "full"})
            for (int zero = 0; zero <= 3; ++zero)
                for (bool flash : {true, false})
                    scenarios.push_back(scenario_with(std::string(preset.id), recompute, zero, 8, flash));
    return scenarios;
}

double peak_of(const json::Value& timeline) { return number_at(timeline, "peak.total"); }

}  // namespace

TEST_CASE("the step's peak is the estimate's per-GPU training total, for every preset and setting", "[timeline]") {
    for (const auto& scenario : variants()) {
        INFO(scenario);
        const json::Value estimate = estimate_of(scenario);
        const json::Value timeline = timeline_of(scenario);
        CHECK(peak_of(timeline) == number_at(estimate, "training.per_gpu.total"));
        CHECK(number_at(estimate, "step.peak_bytes") == number_at(estimate, "training.per_gpu.total"));
        // The estimate's breakdown is what is held at the peak, so its parts add up to the total.
        double parts = number_at(estimate, "training.per_gpu.model_states");
        for (const char* part : {"activations", "logits", "gathered_weights", "temporary"})
            parts += number_at(estimate, std::string("training.per_gpu.") + part);
        CHECK(parts == Approx(number_at(estimate, "training.per_gpu.total")).epsilon(1e-12));
    }
}

TEST_CASE("without recompute or ZeRO-2/3 the peak is the published sum: states, the whole pile, the logits",
          "[timeline][published]") {
    // Korthikanti et al. 2022 Table 2 and ZeRO §3.1 add up: what the estimate published before the
    // timeline existed. The timeline adds nothing at that moment.
    for (const auto& preset : model_presets()) {
        for (int zero = 0; zero <= 1; ++zero) {
            const std::string scenario = scenario_with(std::string(preset.id), "none", zero, 8);
            INFO(scenario);
            const json::Value estimate = estimate_of(scenario);
            CHECK(number_at(estimate, "training.per_gpu.total") ==
                  Approx(number_at(estimate, "training.per_gpu.model_states") +
                         number_at(estimate, "training.activations_without_recompute") +
                         number_at(estimate, "training.per_gpu.logits"))
                      .epsilon(1e-12));
            CHECK(number_at(estimate, "training.per_gpu.logits") > 0);
        }
    }
}

TEST_CASE("the peak never exceeds the sum of each component's largest value", "[timeline]") {
    for (const auto& scenario : variants()) {
        INFO(scenario);
        const json::Value timeline = timeline_of(scenario);
        double sum_of_maxima = 0;
        for (const auto& component : components()) {
            double largest = 0;
            for (const auto& event : timeline.find("events")->items)
                largest = std::fmax(largest, event.find("held")->find(component)->number);
            sum_of_maxima += largest;
        }
        CHECK(peak_of(timeline) <= sum_of_maxima * (1 + 1e-12));
    }
}

TEST_CASE("activation checkpointing never raises the peak", "[timeline]") {
    for (const auto& preset : model_presets()) {
        for (int zero = 0; zero <= 3; ++zero) {
            for (bool flash : {true, false}) {
                const std::string id(preset.id);
                INFO(id << " ZeRO-" << zero << " flash " << flash);
                const double none = peak_of(timeline_of(scenario_with(id, "none", zero, 8, flash)));
                CHECK(peak_of(timeline_of(scenario_with(id, "selective", zero, 8, flash))) <= none);
                CHECK(peak_of(timeline_of(scenario_with(id, "full", zero, 8, flash))) <= none);
            }
        }
    }
}

TEST_CASE("the events' durations add up to the step time the estimate's compute figures give", "[timeline]") {
    for (const auto& scenario :
         {scenario_with("llama3-8b", "none", 0, 1), scenario_with("gpt3-175b", "full", 3, 64),
          scenario_with("llama3-70b", "selective", 2, 8, false),
          std::string(R"({"model":{"preset":"llama3-70b"},"training":{"micro_batch":2,"attention_flops":true},)"
                      R"("parallel":{"gpus":64,"tensor":8,"zero_stage":1}})")}) {
        INFO(scenario);
        const json::Value estimate = estimate_of(scenario);
        const json::Value timeline = timeline_of(scenario);
        // docs/model.md §6: this GPU's share (÷ t·p) of one micro-batch's hardware FLOPs, at the
        // sustained rate; then the optimizer step.
        const double tokens_in_step =
            number_at(estimate, "scenario.training.sequence") * number_at(estimate, "scenario.training.micro_batch");
        const double model_parallel =
            number_at(estimate, "scenario.parallel.tensor") * number_at(estimate, "scenario.parallel.pipeline");
        const double sustained =
            number_at(estimate, "gpu.peak_flops") * number_at(estimate, "scenario.hardware.utilization");
        const double compute_seconds = number_at(estimate, "compute.hardware_flops") /
                                       number_at(estimate, "scenario.training.tokens") * tokens_in_step /
                                       model_parallel / sustained;
        const double step_seconds = compute_seconds + number_at(estimate, "step.optimizer_seconds");
        double sum = 0;
        for (const auto& event : timeline.find("events")->items) sum += event.find("seconds")->number;
        CHECK(sum == Approx(step_seconds).epsilon(1e-9));
        CHECK(number_at(estimate, "step.seconds") == Approx(step_seconds).epsilon(1e-12));
    }
}

TEST_CASE("a GPT-style model without recompute peaks where the backward pass begins", "[timeline]") {
    // Korthikanti et al. 2022 §4: every layer's activations are held until the backward pass frees them.
    const json::Value timeline = timeline_of(scenario_with("gpt3-175b", "none", 0, 1024));
    const auto& events = timeline.find("events")->items;
    const auto peak = static_cast<std::size_t>(number_at(timeline, "peak_event"));
    REQUIRE(peak + 1 < events.size());
    CHECK(events[peak].find("phase")->text == "loss");
    CHECK(events[peak + 1].find("phase")->text == "backward");
    for (std::size_t e = 0; e < peak; ++e) CHECK(events[e].find("phase")->text == "forward");
}

TEST_CASE("ZeRO-3 gathers each layer's weights before its forward and its backward, one layer ahead", "[timeline]") {
    // ZeRO §5.3: parameters are gathered for use and released after; one layer is prefetched.
    const json::Value timeline = timeline_of(scenario_with("llama3-8b", "none", 3, 8));
    CHECK(number_at(timeline, "prefetch_layers") == 1);
    const double layers = number_at(timeline, "layers");
    int layer_gathers = 0;
    for (const auto& event : timeline.find("events")->items) {
        const double gathered = event.find("held")->find("gathered_weights")->number;
        const bool layer_block = event.find("block")->text == "layer";
        if (event.find("phase")->text == "gather" && layer_block) {
            ++layer_gathers;
            CHECK(gathered > 0);
        }
        // While a layer (not the last) runs forward, it and the next are gathered: 8B's layer is
        // 218M parameters, two of them in BF16, 7/8 of each from the other GPUs.
        if (event.find("phase")->text == "forward" && layer_block && event.find("layer")->number < layers)
            CHECK(gathered == Approx(2 * 218.1e6 * 2 * 7 / 8).epsilon(0.001));
    }
    CHECK(layer_gathers == 2 * layers);
    CHECK(timeline.find("events")->items.back().find("held")->find("gathered_weights")->number == 0);
    // Without ZeRO-3 nothing is gathered.
    CHECK(number_at(timeline_of(scenario_with("llama3-8b", "none", 2, 8)), "peak.gathered_weights") == 0);
}

TEST_CASE("full recompute rebuilds each layer before its backward pass", "[timeline]") {
    const json::Value timeline = timeline_of(scenario_with("llama3-8b", "full", 0, 1));
    int recomputes = 0;
    double before = 0;
    for (const auto& event : timeline.find("events")->items) {
        const double activations = event.find("held")->find("activations")->number;
        if (event.find("phase")->text == "recompute") {
            ++recomputes;
            CHECK(activations > before);  // a bump: the layer's activations are back
        }
        before = activations;
    }
    CHECK(recomputes == 32);
}

TEST_CASE("the optimizer step's time is the bytes it touches over the memory bandwidth", "[timeline]") {
    // Mixed-precision AdamW touches 28 bytes per parameter: reads gradient (2), master (4) and
    // moments (8), writes master and moments (12) and the BF16 weights (2). H100 SXM: 3.35 TB/s.
    const json::Value estimate = estimate_of(scenario_with("llama3-8b", "none", 0, 1));
    CHECK(number_at(estimate, "gpu.memory_bandwidth") == 3.35e12);
    CHECK(number_at(estimate, "step.optimizer_seconds") == Approx(number_at(estimate, "params") * 28 / 3.35e12));
    // ZeRO-1 on 8 GPUs: each updates its eighth.
    CHECK(number_at(estimate_of(scenario_with("llama3-8b", "none", 1, 8)), "step.optimizer_seconds") ==
          Approx(number_at(estimate, "params") * 28 / 3.35e12 / 8));
}

TEST_CASE("with the fewest GPUs the estimate names, fully sharded training fits, and with fewer it does not",
          "[timeline]") {
    for (const auto& preset : model_presets()) {
        for (const char* recompute : {"none", "full"}) {
            const std::string id(preset.id);
            const std::string training = std::string(R"("training":{"recompute":")") + recompute + R"("})";
            const double fewest = number_at(
                estimate_of(R"({"model":{"preset":")" + id + R"("},"parallel":{"zero_stage":3},)" + training + "}"),
                "training.min_gpus");
            INFO(id << " " << recompute << ": " << fewest);
            if (fewest < 0) continue;
            auto fits_on = [&](double gpus) {
                const json::Value estimate =
                    estimate_of(R"({"model":{"preset":")" + id + R"("},"parallel":{"gpus":)" +
                                json::format_number(gpus) + R"(,"zero_stage":3},)" + training + "}");
                return estimate.find_path("training.fits")->boolean;
            };
            CHECK(fits_on(fewest));
            if (fewest > 1) CHECK_FALSE(fits_on(fewest - 1));
        }
    }
}

TEST_CASE("every GPU in the catalogue has its datasheet memory bandwidth", "[timeline][published]") {
    const json::ParseResult gpus = json::parse(gpus_json());
    REQUIRE(gpus.ok);
    for (const auto& gpu : gpus.value.items) {
        INFO(gpu.find("id")->text);
        CHECK(gpu.find("memory_bandwidth")->number > 0);
    }
    // NVIDIA A100 datasheet: 2,039 GB/s (80 GB SXM), 1,555 GB/s (40 GB).
    CHECK(number_at(estimate_of(R"({"hardware":{"gpu":"a100-sxm-80"}})"), "gpu.memory_bandwidth") == 2.039e12);
    CHECK(number_at(estimate_of(R"({"hardware":{"gpu":"a100-sxm-40"}})"), "gpu.memory_bandwidth") == 1.555e12);
}

TEST_CASE("a custom GPU's optimizer step assumes the H100 SXM's bandwidth per FLOP, and says so", "[timeline]") {
    const json::Value timeline =
        timeline_of(R"({"hardware":{"gpu":"custom","memory_bytes":80e9,"peak_flops":494.5e12}})");
    CHECK(timeline.find("memory_bandwidth_assumed")->boolean);
    CHECK(number_at(timeline, "memory_bandwidth") == Approx(3.35e12 / 2));
    CHECK_FALSE(timeline_of(R"({"hardware":{"gpu":"h100-sxm"}})").find("memory_bandwidth_assumed")->boolean);
}

TEST_CASE("every byte count in a timeline is finite and never negative", "[timeline]") {
    std::vector<std::string> scenarios = variants();
    scenarios.push_back(R"({"model":{"params":7e9},"parallel":{"gpus":16,"pipeline":4,"zero_stage":1}})");
    scenarios.push_back(
        R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":64,"tensor":2,"pipeline":4,"interleave":2}})");
    scenarios.push_back(
        R"({"hardware":{"gpu":"custom","memory_bytes":24e9,"peak_flops":1e14},"training":{"precision":"fp32"}})");
    for (const auto& scenario : scenarios) {
        INFO(scenario);
        const json::Value timeline = timeline_of(scenario);
        REQUIRE(timeline.find("errors")->items.empty());
        for (const auto& event : timeline.find("events")->items) {
            CHECK(std::isfinite(event.find("seconds")->number));
            CHECK(event.find("seconds")->number >= 0);
            for (const auto& component : components()) {
                const double bytes = event.find("held")->find(component)->number;
                CHECK(std::isfinite(bytes));
                CHECK(bytes >= 0);
            }
        }
    }
}

TEST_CASE("a pipeline stage's timeline ends its forward pass holding the estimate's pile", "[timeline]") {
    // Korthikanti §4.2.3: with 1F1B the first stage holds L layers' worth; the timeline lumps the
    // in-flight micro-batches into its L/p layers (docs/model.md §9).
    const std::string scenario = R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":32,"pipeline":4}})";
    const json::Value estimate = estimate_of(scenario);
    const json::Value timeline = timeline_of(scenario);
    CHECK(number_at(timeline, "layers") == 20);
    CHECK(number_at(timeline, "peak.activations") ==
          Approx(number_at(estimate, "training.activations_without_recompute")));
}

TEST_CASE("a bad scenario gives field-named errors, not a timeline", "[timeline]") {
    CHECK(has_error_for(timeline_of(R"({"parallel":{"gpus":-1}})"), "parallel.gpus"));
    CHECK(has_error_for(timeline_of(R"({"training":{"recompute":"sometimes"}})"), "training.recompute"));
    const json::Value malformed = timeline_of("{");
    CHECK(!malformed.find("errors")->items.empty());
    CHECK(malformed.find("events") == nullptr);
}

namespace {

// Scenarios for the properties below: every ZeRO stage and recompute mode, pipelines (plain and
// interleaved, with few and many micro-batches), gradient accumulation, a mixture of experts, a
// tiny and a huge model.
std::vector<std::string> wide_scenarios() {
    std::vector<std::string> scenarios = variants();
    for (const char* recompute : {"none", "selective", "full"}) {
        for (int zero = 0; zero <= 3; ++zero) {
            const std::string training = std::string(R"("training":{"recompute":")") + recompute + R"(")";
            const std::string z = std::to_string(zero);
            scenarios.push_back(R"({"model":{"preset":"llama3-70b"},)" + training +
                                R"(},"parallel":{"gpus":64,"pipeline":4,"zero_stage":)" + z + "}}");
            scenarios.push_back(R"({"model":{"preset":"llama3-70b"},)" + training +
                                R"(,"global_batch":1024},"parallel":{"gpus":64,"pipeline":8,"zero_stage":)" + z + "}}");
            scenarios.push_back(R"({"model":{"preset":"llama3-70b"},)" + training +
                                R"(,"global_batch":24},"parallel":{"gpus":64,"pipeline":8,"zero_stage":)" + z + "}}");
            scenarios.push_back(
                R"({"model":{"preset":"llama3-405b"},)" + training +
                R"(,"global_batch":4096},"parallel":{"gpus":16384,"tensor":8,"pipeline":16,"interleave":2,"zero_stage":)" +
                z + "}}");
            scenarios.push_back(R"({"model":{"preset":"gpt2-124m"},)" + training +
                                R"(,"global_batch":512,"micro_batch":4},"parallel":{"gpus":8,"zero_stage":)" + z +
                                "}}");
            scenarios.push_back(R"({"model":{"preset":"mixtral-8x7b"},)" + training +
                                R"(,"global_batch":64},"parallel":{"gpus":16,"zero_stage":)" + z + "}}");
            scenarios.push_back(R"({"model":{"params":1e5},)" + training + R"(},"parallel":{"gpus":2,"zero_stage":)" +
                                z + "}}");
            scenarios.push_back(
                R"({"model":{"architecture":{"layers":10000,"hidden":256,"heads":4,"mlp":1024,"vocab":1000}},)" +
                training + R"(,"global_batch":1000000},"parallel":{"gpus":1000,"pipeline":100,"zero_stage":)" + z +
                "}}");
            scenarios.push_back(
                R"({"model":{"architecture":{"layers":10000,"hidden":256,"heads":4,"mlp":1024,"vocab":1000}},)" +
                training + R"(},"parallel":{"gpus":8,"zero_stage":)" + z + "}}");
            scenarios.push_back(
                R"({"model":{"params":1e15},)" + training +
                R"(,"global_batch":100000000},"parallel":{"gpus":8000000,"pipeline":100,"tensor":8,"zero_stage":)" + z +
                "}}");
        }
    }
    return scenarios;
}

Scenario scenario_of(const std::string& text) {
    const ScenarioReading reading = read_scenario_text(text);
    INFO(text);
    REQUIRE(reading.ok());
    return reading.scenario;
}

StepTimeline timeline_with_limit(const Scenario& scenario, std::size_t event_limit) {
    const Estimate e = estimate(scenario);
    return step_timeline(scenario, e.params, e.training.bytes_per_param, e.training.per_gpu_states,
                         e.training.activations, e.compute, StepDetail::events, nullptr, event_limit);
}

bool same_bytes(const StepBytes& a, const StepBytes& b) {
    return a.weights == b.weights && a.gathered_weights == b.gathered_weights && a.gradients == b.gradients &&
           a.master_weights == b.master_weights && a.optimizer_states == b.optimizer_states &&
           a.activations == b.activations && a.logits == b.logits && a.temporary == b.temporary;
}

}  // namespace

TEST_CASE("the estimate's peak-only pass gives exactly the full timeline's peak, event and breakdown", "[timeline]") {
    for (const auto& text : wide_scenarios()) {
        INFO(text);
        const Scenario scenario = scenario_of(text);
        const Estimate peak_only = estimate(scenario, StepDetail::peak);
        const Estimate full = estimate(scenario, StepDetail::events);
        CHECK(peak_only.step.events.empty());
        REQUIRE(!full.step.events.empty());
        CHECK(same_bytes(peak_only.training.per_gpu_peak, full.training.per_gpu_peak));
        CHECK(peak_only.step.peak_event == full.step.peak_event);
        CHECK(peak_only.step.event_count == full.step.events.size());
        CHECK(peak_only.step.peak_phase == full.step.peak_phase);
        CHECK(peak_only.step.peak_layer == full.step.peak_layer);
        CHECK(peak_only.training.min_gpus == full.training.min_gpus);
        // The peak is an event of the full timeline, and no event holds more.
        const auto& events = full.step.events;
        REQUIRE(full.step.peak_event < events.size());
        CHECK(same_bytes(events[full.step.peak_event].held, full.training.per_gpu_peak));
        double most = 0;
        for (const auto& event : events) most = std::fmax(most, event.held.total());
        CHECK(most == full.training.per_gpu_total());
        CHECK(full.step.grouping_consistent);
    }
}

TEST_CASE("a timeline has at most 1,500 events, and grouping layers changes no total, duration or peak", "[timeline]") {
    for (const auto& text : wide_scenarios()) {
        INFO(text);
        const Scenario scenario = scenario_of(text);
        const StepTimeline grouped = timeline_with_limit(scenario, max_step_events);
        const StepTimeline every_layer = timeline_with_limit(scenario, std::size_t{1} << 30);
        CHECK(grouped.events.size() <= max_step_events);
        CHECK(grouped.grouping_consistent);
        CHECK(grouped.peak().total() == every_layer.peak().total());
        CHECK(same_bytes(grouped.peak(), every_layer.peak()));
        double grouped_seconds = 0, every_seconds = 0;
        for (const auto& event : grouped.events) grouped_seconds += event.seconds;
        for (const auto& event : every_layer.events) every_seconds += event.seconds;
        CHECK(grouped_seconds == Approx(every_seconds).epsilon(1e-12));
        CHECK(grouped_seconds == Approx(grouped.seconds()).epsilon(1e-12));
        // Each grouped event covers layers layer … layer_last; a layer event covers at least one.
        for (const auto& event : grouped.events) {
            if (event.block == StepBlock::layer) {
                CHECK(event.layer >= 1);
                CHECK(event.layer <= event.layer_last);
                CHECK(event.layer_last <= grouped.layers);
            } else {
                CHECK(event.layer == 0);
                CHECK(event.layer_last == 0);
            }
        }
    }
    // A 10,000-layer model without grouping would have some 60,000 events.
    const StepTimeline deep = timeline_with_limit(
        scenario_of(R"({"model":{"architecture":{"layers":10000,"hidden":256,"heads":4,"mlp":1024,"vocab":1000}},)"
                    R"("training":{"recompute":"full"},"parallel":{"gpus":8,"zero_stage":3}})"),
        max_step_events);
    CHECK(deep.events.size() <= max_step_events);
    CHECK(deep.events.size() > 1000);
    bool some_grouped = false;
    for (const auto& event : deep.events) some_grouped = some_grouped || event.layer_last > event.layer;
    CHECK(some_grouped);
}

TEST_CASE("events say which layers and micro-batches they cover, in the JSON too", "[timeline]") {
    const json::Value timeline = timeline_of(
        R"({"model":{"architecture":{"layers":10000,"hidden":256,"heads":4,"mlp":1024,"vocab":1000}},"parallel":{"gpus":8}})");
    bool grouped = false;
    for (const auto& event : timeline.find("events")->items) {
        const double layer = event.find("layer")->number, last = event.find("layer_last")->number;
        CHECK(last >= layer);
        grouped = grouped || last > layer;
        if (event.find("block")->text == "all")
            CHECK(event.find("micro_batch")->number == 0);
        else
            CHECK(event.find("micro_batch")->number == 1);
    }
    CHECK(grouped);
    CHECK(number_at(timeline, "micro_batches") == 1);
    CHECK(number_at(timeline, "micro_batches_shown") == 1);
}

TEST_CASE("1F1B: the first pipeline stage holds p micro-batches of its L/p layers, L layers' worth, at its peak",
          "[timeline][published]") {
    // Korthikanti et al. 2022 §4.2.3 (docs/model.md §4): whatever p, the first stage holds L layers'
    // activations once 1F1B's warm-up has p micro-batches in flight. Llama 3 70B, 32 GPUs, p = 4,
    // so d = 8; a global batch of 64 sequences is 8 micro-batches of 1.
    const std::string scenario =
        R"({"model":{"preset":"llama3-70b"},"training":{"global_batch":64},"parallel":{"gpus":32,"pipeline":4}})";
    const json::Value estimate = estimate_of(scenario);
    const json::Value timeline = timeline_of(scenario);
    CHECK(number_at(timeline, "micro_batches") == 8);
    CHECK(number_at(timeline, "in_flight") == 4);
    const double per_layer = number_at(estimate, "training.activations_per_layer");
    CHECK(number_at(timeline, "peak.activations") == Approx(80 * per_layer).epsilon(1e-12));
    CHECK(number_at(timeline, "peak.total") ==
          Approx(number_at(estimate, "training.per_gpu.model_states") + 80 * per_layer).epsilon(1e-12));
    CHECK(number_at(timeline, "peak_micro_batch") == 4);
    // The warm-up: micro-batches 1 … 4 go forward before micro-batch 1's backward.
    const auto& events = timeline.find("events")->items;
    std::size_t first_backward = 0;
    while (events[first_backward].find("phase")->text != "backward") ++first_backward;
    CHECK(events[first_backward].find("micro_batch")->number == 1);
    CHECK(events[first_backward - 1].find("micro_batch")->number == 4);
    // With fewer micro-batches than stages only those are in flight: 2 of 4, half the pile.
    const json::Value few = timeline_of(
        R"({"model":{"preset":"llama3-70b"},"training":{"global_batch":16},"parallel":{"gpus":32,"pipeline":4}})");
    CHECK(number_at(few, "in_flight") == 2);
    CHECK(number_at(few, "peak.activations") == Approx(40 * per_layer).epsilon(1e-12));
}

TEST_CASE("gradient accumulation never changes the peak without a pipeline: the gradient buffer is held all step",
          "[timeline]") {
    for (const auto& preset : {"llama3-8b", "mixtral-8x7b", "gpt2-124m"}) {
        for (const char* recompute : {"none", "selective", "full"}) {
            for (int zero = 0; zero <= 3; ++zero) {
                auto with_batch = [&](int global_batch) {
                    return std::string(R"({"model":{"preset":")") + preset + R"("},"training":{"recompute":")" +
                           recompute + R"(","global_batch":)" + std::to_string(global_batch) +
                           R"(},"parallel":{"gpus":8,"zero_stage":)" + std::to_string(zero) + "}}";
                };
                INFO(with_batch(8));
                const json::Value one = timeline_of(with_batch(8));
                CHECK(number_at(one, "micro_batches") == 1);
                for (int global_batch : {16, 64, 8000000}) {
                    const json::Value many = timeline_of(with_batch(global_batch));
                    CHECK(number_at(many, "micro_batches") == global_batch / 8);
                    CHECK(number_at(many, "peak.total") == number_at(one, "peak.total"));
                    CHECK(number_at(many, "peak.gradients") == number_at(one, "peak.gradients"));
                }
            }
        }
    }
}

TEST_CASE("with many micro-batches the step shows the first and last and groups the rest; durations still add up",
          "[timeline]") {
    for (
        const std::string& scenario :
        {std::string(
             R"({"model":{"preset":"llama3-8b"},"training":{"global_batch":1000000},"parallel":{"gpus":8,"zero_stage":2}})"),
         std::string(
             R"({"model":{"preset":"llama3-70b"},"training":{"global_batch":1000000,"recompute":"full"},"parallel":{"gpus":64,"pipeline":8,"zero_stage":1}})"),
         std::string(
             R"({"model":{"preset":"llama3-70b"},"training":{"global_batch":96},"parallel":{"gpus":64,"pipeline":8}})")}) {
        INFO(scenario);
        const json::Value estimate = estimate_of(scenario);
        const json::Value timeline = timeline_of(scenario);
        const double micro_batches = number_at(timeline, "micro_batches");
        // docs/model.md §6: one micro-batch is this GPU's share (÷ t·p) of its hardware FLOPs at the
        // sustained rate; the step runs them all, then the optimizer step.
        const double micro_batch_seconds =
            number_at(estimate, "compute.hardware_flops") / number_at(estimate, "scenario.training.tokens") *
            number_at(estimate, "scenario.training.sequence") * number_at(estimate, "scenario.training.micro_batch") /
            (number_at(estimate, "scenario.parallel.tensor") * number_at(estimate, "scenario.parallel.pipeline")) /
            (number_at(estimate, "gpu.peak_flops") * number_at(estimate, "scenario.hardware.utilization"));
        CHECK(number_at(timeline, "micro_batch_seconds") == Approx(micro_batch_seconds).epsilon(1e-9));
        const double step_seconds = micro_batches * micro_batch_seconds + number_at(timeline, "optimizer_seconds");
        double sum = 0, last_end = 0;
        for (const auto& event : timeline.find("events")->items) {
            sum += event.find("seconds")->number;
            last_end = event.find("start")->number + event.find("seconds")->number;
        }
        CHECK(sum == Approx(step_seconds).epsilon(1e-9));
        CHECK(last_end == Approx(step_seconds).epsilon(1e-9));
        CHECK(number_at(timeline, "seconds") == Approx(step_seconds).epsilon(1e-12));
        CHECK(number_at(estimate, "step.seconds") == Approx(step_seconds).epsilon(1e-12));
        CHECK(timeline.find("events")->items.size() <= max_step_events);
        CHECK(number_at(timeline, "micro_batches_shown") < micro_batches);
        CHECK(number_at(timeline, "micro_batches_shown") >= 2);
        // The last micro-batch is shown on its own.
        bool last_shown = false;
        for (const auto& event : timeline.find("events")->items)
            last_shown = last_shown || (event.find("micro_batch")->number == micro_batches &&
                                        event.find("micro_batch_last")->number == micro_batches);
        CHECK(last_shown);
    }
}

TEST_CASE("the timeline in columns carries the JSON's every field and every event's numbers", "[timeline]") {
    std::vector<std::string> scenarios = wide_scenarios();
    scenarios.push_back(R"({"parallel":{"gpus":-1}})");
    scenarios.push_back("not json");
    for (const auto& scenario : scenarios) {
        INFO(scenario);
        const json::Value full = timeline_of(scenario);
        std::vector<double> numbers = {1, 2, 3};  // left from a previous call: must be replaced
        const json::ParseResult parsed = json::parse(step_timeline_columns(scenario, numbers));
        REQUIRE(parsed.ok);
        const json::Value& summary = parsed.value;
        // Every field but the events, the same.
        for (const auto& [name, value] : full.members) {
            if (name == "events") continue;
            INFO(name);
            const json::Value* same = summary.find(name);
            REQUIRE(same != nullptr);
            CHECK(json::serialize(*same) == json::serialize(value));
        }
        const json::Value* events = full.find("events");
        if (!events) {
            CHECK(numbers.empty());
            CHECK(summary.find("event_count") == nullptr);
            continue;
        }
        const std::size_t count = events->items.size();
        REQUIRE(number_at(summary, "event_count") == static_cast<double>(count));
        REQUIRE(numbers.size() == count * step_event_numbers);
        const auto& fields = summary.find("event_fields")->items;
        const auto& held_fields = summary.find("held_fields")->items;
        REQUIRE(fields.size() + held_fields.size() == step_event_numbers);
        // One check per scenario, naming the first difference: millions of CHECKs would be slow.
        std::string first_difference;
        for (std::size_t i = 0; i < count && first_difference.empty(); ++i) {
            const json::Value& event = events->items[i];
            const double* row = numbers.data() + i * step_event_numbers;
            for (std::size_t f = 0; f < fields.size(); ++f) {
                const std::string& name = fields[f].text;
                const json::Value* value = event.find(name);
                bool same = value != nullptr;
                if (same && (name == "phase" || name == "block")) {
                    const auto& names = summary.find(name == "phase" ? "phases" : "blocks")->items;
                    same = row[f] >= 0 && row[f] < static_cast<double>(names.size()) &&
                           names[static_cast<std::size_t>(row[f])].text == value->text;
                } else if (same) {
                    same = value->kind == json::Kind::number && row[f] == value->number;
                }
                if (!same && first_difference.empty()) first_difference = "event " + std::to_string(i) + " " + name;
            }
            for (std::size_t f = 0; f < held_fields.size(); ++f) {
                const json::Value* value = event.find_path("held." + held_fields[f].text);
                if ((value == nullptr || row[fields.size() + f] != value->number) && first_difference.empty())
                    first_difference = "event " + std::to_string(i) + " held." + held_fields[f].text;
            }
        }
        CHECK(first_difference == "");
    }
}
