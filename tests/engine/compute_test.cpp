#include <cmath>
#include "catch_include.hpp"

#include "estimate_support.hpp"

using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {
constexpr double seconds_per_day = 86400;
constexpr double seconds_per_year = 365.25 * seconds_per_day;
}  // namespace

TEST_CASE("Llama 3 405B on 15.6T tokens takes about 3.8e25 FLOPs", "[compute][published]") {
    // Llama 3 Herd of Models 2024, §3.2.1: "3.8 × 10^25 FLOPs"; 6·N·D (Kaplan et al. 2020).
    const auto estimate = estimate_of(R"({"model":{"preset":"llama3-405b"},"training":{"tokens":15.6e12}})");
    CHECK(number_at(estimate, "compute.flops") == Approx(3.8e25).epsilon(0.02));
}

TEST_CASE("Llama 3 405B at 40% of an H100's peak: about 68 days on 16,384 GPUs, 3,000 years on one",
          "[compute][published]") {
    // docs/model.md §6 and the lesson: 989 TFLOP/s BF16 (NVIDIA H100 datasheet), 40% utilisation.
    const auto cluster = estimate_of(R"({"model":{"preset":"llama3-405b"},"training":{"tokens":15.6e12},
        "parallel":{"gpus":16384},"hardware":{"gpu":"h100-sxm","utilization":0.4}})");
    CHECK(number_at(cluster, "compute.seconds") / seconds_per_day == Approx(68).epsilon(0.02));
    CHECK(number_at(cluster, "compute.seconds_on_one_gpu") / seconds_per_year == Approx(3000).epsilon(0.03));
    CHECK(number_at(cluster, "compute.mfu") == Approx(0.4));
    const auto one_gpu = estimate_of(R"({"model":{"preset":"llama3-405b"},"parallel":{"gpus":1}})");
    CHECK(number_at(one_gpu, "compute.seconds") == Approx(number_at(cluster, "compute.seconds_on_one_gpu")));
}

TEST_CASE("GPT-3 175B on 300B tokens with full recompute on 1024 A100s at 140 TFLOP/s takes about 34 days",
          "[compute][published]") {
    // Narayanan et al. 2021 (Megatron-LM), §5.1 and Eq. 4: time ≈ 8·T·P/(n·X).
    const double achieved_fraction = 140e12 / 312e12;  // X over the A100's 312 TFLOP/s peak
    const auto estimate = estimate_of(std::string(R"({"model":{"preset":"gpt3-175b"},
        "training":{"tokens":300e9,"recompute":"full"},"parallel":{"gpus":1024},
        "hardware":{"gpu":"a100-sxm-80","utilization":)") +
                                      std::to_string(achieved_fraction) + "}}");
    CHECK(number_at(estimate, "compute.seconds") / seconds_per_day == Approx(34).epsilon(0.02));
    CHECK(number_at(estimate, "compute.hardware_flops") == Approx(number_at(estimate, "compute.flops") * 8 / 6));
    // MFU counts only the model's 6·N·D: three quarters of the sustained fraction.
    CHECK(number_at(estimate, "compute.mfu") == Approx(achieved_fraction * 6 / 8));
}

TEST_CASE("selective recompute costs about 2.7% extra compute for GPT-3", "[compute][published]") {
    // Korthikanti et al. 2022, §5 and Table 4: s/(6h) with s = 2048, h = 12288.
    const auto estimate =
        estimate_of(R"({"model":{"preset":"gpt3-175b"},"training":{"sequence":2048,"recompute":"selective"}})");
    CHECK(number_at(estimate, "compute.recompute_overhead") == Approx(0.027).epsilon(0.05));
}

TEST_CASE("PaLM's attention term adds 12·L·h·s FLOPs per token", "[compute][published]") {
    // Chowdhery et al. 2022 (PaLM), Appendix B.
    const auto plain = estimate_of(R"({"model":{"preset":"llama3-8b"},"training":{"tokens":1e12,"sequence":8192}})");
    const auto with_attention = estimate_of(
        R"({"model":{"preset":"llama3-8b"},"training":{"tokens":1e12,"sequence":8192,"attention_flops":true}})");
    CHECK(number_at(with_attention, "compute.flops") - number_at(plain, "compute.flops") ==
          Approx(12.0 * 32 * 4096 * 8192 * 1e12));
}

TEST_CASE("a mixture of experts pays compute only for its active parameters", "[compute]") {
    // docs/model.md §1 and §6: compute uses active parameters, memory uses total.
    const auto estimate = estimate_of(R"({"model":{"preset":"mixtral-8x7b"},"training":{"tokens":1e12}})");
    CHECK(number_at(estimate, "compute.flops") == Approx(6 * number_at(estimate, "active_params") * 1e12));
    CHECK(number_at(estimate, "training.model_states.total") == Approx(16 * number_at(estimate, "params")));
}

TEST_CASE("cost and energy follow GPU-hours", "[compute]") {
    const auto estimate =
        estimate_of(R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":64},"hardware":{"price_per_gpu_hour":2.5}})");
    const double gpu_hours = number_at(estimate, "compute.gpu_hours");
    CHECK(gpu_hours == Approx(64 * number_at(estimate, "compute.seconds") / 3600));
    CHECK(number_at(estimate, "compute.cost") == Approx(2.5 * gpu_hours));
    CHECK(number_at(estimate, "compute.energy_joules") == Approx(700 * gpu_hours * 3600));  // H100 SXM: 700 W
}

TEST_CASE("GPT-3 175B on 300B tokens takes about 3.14e23 FLOPs", "[compute][published]") {
    // Brown et al. 2020 (GPT-3), Appendix D, Table D.1: 3.14E+23 training FLOPs for GPT-3 175B.
    const auto estimate = estimate_of(R"({"model":{"preset":"gpt3-175b"}})");
    CHECK(number_at(estimate, "compute.flops") == Approx(3.14e23).epsilon(0.01));
}

namespace {

// The time-over-GPUs curve's point at `gpus`; fails the test when the curve has none there.
double curve_seconds_at(const trainscope::json::Value& estimate, double gpus) {
    const auto* curve = estimate.find_path("compute.time_over_gpus");
    REQUIRE(curve != nullptr);
    for (const auto& point : curve->items)
        if (point.find("gpus")->number == gpus) return point.find("seconds")->number;
    FAIL("no point of the curve at " << gpus << " GPUs");
    return 0;
}

}  // namespace

TEST_CASE("the time-over-GPUs curve passes through the learner's point and the one-GPU time", "[compute][curve]") {
    // docs/model.md §6, "Time over GPUs": every point is compute.seconds' formula at its own count.
    for (const char* gpus : {"1", "64", "1000", "16384", "3000000"}) {
        INFO("gpus " << gpus);
        const auto estimate =
            estimate_of(std::string(R"({"model":{"preset":"llama3-70b"},"parallel":{"gpus":)") + gpus + "}}");
        CHECK(curve_seconds_at(estimate, number_at(estimate, "scenario.parallel.gpus")) ==
              number_at(estimate, "compute.seconds"));
        CHECK(curve_seconds_at(estimate, 1) == number_at(estimate, "compute.seconds_on_one_gpu"));
    }
}

TEST_CASE("the curve spans the GPU slider's stops, every value finite and positive", "[compute][curve]") {
    const auto estimate = estimate_of(R"({"model":{"preset":"gpt2-124m"},"parallel":{"gpus":8}})");
    const auto& curve = estimate.find_path("compute.time_over_gpus")->items;
    // Powers of two from 1 to 65,536, then the slider's end, 100,000 (field_limits.cpp).
    REQUIRE(curve.size() == 18);
    CHECK(curve.front().find("gpus")->number == 1);
    CHECK(curve[16].find("gpus")->number == 65536);
    CHECK(curve.back().find("gpus")->number == 100000);
    double previous_gpus = 0, previous_seconds = INFINITY;
    for (const auto& point : curve) {
        const double gpus = point.find("gpus")->number, seconds = point.find("seconds")->number;
        CHECK(std::isfinite(seconds));
        CHECK(seconds > 0);
        CHECK(gpus > previous_gpus);
        CHECK(seconds < previous_seconds);
        previous_gpus = gpus;
        previous_seconds = seconds;
    }
    // A count typed between two stops joins the curve in its place.
    const auto typed = estimate_of(R"({"model":{"preset":"gpt2-124m"},"parallel":{"gpus":1000}})");
    CHECK(typed.find_path("compute.time_over_gpus")->items.size() == 19);
}

TEST_CASE("the lesson's two points on the curve: Llama 3 405B takes about 3,000 years on one H100, 68 days on 16,384",
          "[compute][curve][published]") {
    // The same published figures as above (docs/model.md §6), read off the curve at any slider position.
    const auto estimate = estimate_of(R"({"model":{"preset":"llama3-405b"},"training":{"tokens":15.6e12},
        "parallel":{"gpus":512},"hardware":{"gpu":"h100-sxm","utilization":0.4}})");
    CHECK(number_at(estimate, "compute.lesson_cluster_gpus") == 16384);
    CHECK(curve_seconds_at(estimate, 16384) / seconds_per_day == Approx(68).epsilon(0.02));
    CHECK(curve_seconds_at(estimate, 1) / seconds_per_year == Approx(3000).epsilon(0.03));
}

TEST_CASE("the curve's reference lines: a day, a month, a year and a lifetime, labelled by the formatter",
          "[compute][curve]") {
    const auto estimate = estimate_of("{}");
    const auto& lines = estimate.find_path("compute.time_references")->items;
    REQUIRE(lines.size() == 4);
    CHECK(lines[0].find("seconds")->number == seconds_per_day);
    CHECK(lines[0].find("label")->text == "1 day");
    CHECK(lines[1].find("seconds")->number == Approx(seconds_per_year / 12));
    CHECK(lines[1].find("label")->text == "1 month");
    CHECK(lines[2].find("seconds")->number == seconds_per_year);
    CHECK(lines[2].find("label")->text == "1 year");
    // UN World Population Prospects 2024: 73.3 years at birth, worldwide.
    CHECK(lines[3].find("seconds")->number == Approx(73.3 * seconds_per_year));
    CHECK(lines[3].find("label")->text == "a lifetime (73.3 years)");
}
