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
        "hardware":{"gpu":"a100-sxm-80","utilization":)") + std::to_string(achieved_fraction) + "}}");
    CHECK(number_at(estimate, "compute.seconds") / seconds_per_day == Approx(34).epsilon(0.02));
    CHECK(number_at(estimate, "compute.hardware_flops") == Approx(number_at(estimate, "compute.flops") * 8 / 6));
    // MFU counts only the model's 6·N·D: three quarters of the sustained fraction.
    CHECK(number_at(estimate, "compute.mfu") == Approx(achieved_fraction * 6 / 8));
}

TEST_CASE("selective recompute costs about 2.7% extra compute for GPT-3", "[compute][published]") {
    // Korthikanti et al. 2022, §5 and Table 4: s/(6h) with s = 2048, h = 12288.
    const auto estimate = estimate_of(R"({"model":{"preset":"gpt3-175b"},"training":{"sequence":2048,"recompute":"selective"}})");
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
    const auto estimate = estimate_of(
        R"({"model":{"preset":"llama3-8b"},"parallel":{"gpus":64},"hardware":{"price_per_gpu_hour":2.5}})");
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
