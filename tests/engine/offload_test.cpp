// Offload to CPU memory (docs/model.md §16): DeepSpeed's documented memory estimators
// ("Memory Requirements", deepspeed.readthedocs.io/en/latest/memory.html) and ZeRO-Offload's traffic.
#include "catch_include.hpp"

#include <string>

#include "estimate_support.hpp"

using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;

namespace {

// DeepSpeed's example: bigscience/T0_3B, "2851M total params", one node of 8 GPUs; its figures are
// GiB (2^30 bytes), printed as "GB". Its largest layer, the 32,128 × 1,024 embedding: 32.9M.
constexpr double t0_params = 2851e6;
constexpr double gib = 1073741824.0;

std::string t0(int zero_stage, const char* offload) {
    return std::string(R"({"model":{"params":2851e6},"training":{"accounting":"fp32_gradients","offload":")") +
           offload + R"("},"parallel":{"gpus":8,"zero_stage":)" + std::to_string(zero_stage) + "}}";
}

}  // namespace

TEST_CASE("ZeRO-2 with the optimizer offloaded keeps 2 bytes per parameter on each GPU: 5.31 GiB for T0_3B",
          "[offload][published]") {
    // DeepSpeed, estimate_zero2_model_states_mem_needs: offload_optimizer=cpu, gpu_mem = 2 × params.
    const auto e = estimate_of(t0(2, "optimizer"));
    CHECK(number_at(e, "training.per_gpu.model_states") == Approx(2 * t0_params));
    CHECK(number_at(e, "training.per_gpu.model_states") / gib == Approx(5.31).margin(0.005));
}

TEST_CASE("ZeRO-3 with the optimizer offloaded keeps its 2/N share of the weights on each GPU",
          "[offload][published]") {
    // DeepSpeed, estimate_zero3_model_states_mem_needs, offload_param=none, offload_optimizer=cpu:
    // gpu_mem = 4 × largest layer + 2 × params / GPUs, 0.79 GiB. Convention: the engine's model
    // states are the second term; the first, the largest layer gathered, is its gathered weights (§9).
    const auto e = estimate_of(t0(3, "optimizer"));
    CHECK(number_at(e, "training.per_gpu.model_states") == Approx(2 * t0_params / 8));
    CHECK((number_at(e, "training.per_gpu.model_states") + 4 * 32.9e6) / gib == Approx(0.79).margin(0.005));
}

TEST_CASE("ZeRO-3 with weights and optimizer offloaded keeps no model states on the GPU", "[offload][published]") {
    // DeepSpeed: offload_param=cpu, offload_optimizer=cpu: gpu_mem = 4 × largest layer alone.
    const auto e = estimate_of(t0(3, "parameters"));
    CHECK(number_at(e, "training.per_gpu.model_states") == 0);
    CHECK(number_at(e, "training.per_gpu.gathered_weights") > 0);
}

TEST_CASE("a node's CPU memory holds 18 or 16 bytes per parameter: DeepSpeed's 71.71 and 63.74 GiB for T0_3B",
          "[offload][published]") {
    // DeepSpeed, estimate_zero3_model_states_mem_needs with zero_init: cpu_mem = params × 18 (weights
    // offloaded too) or × 16 (optimizer only) × additional_buffer_factor 1.5, per node. Convention:
    // the engine counts the states themselves (FP32 gradients, as DeepSpeed does), without the 1.5.
    // Tolerance 0.1%: the page gives the parameter count rounded to millions.
    const double buffer_factor = 1.5;
    const auto both = estimate_of(t0(3, "parameters"));
    CHECK(number_at(both, "training.offload.cpu_bytes_per_node") == Approx(18 * t0_params));
    CHECK(number_at(both, "training.offload.cpu_bytes_per_node") * buffer_factor / gib == Approx(71.71).epsilon(0.001));
    const auto optimizer = estimate_of(t0(3, "optimizer"));
    CHECK(number_at(optimizer, "training.offload.cpu_bytes_per_node") * buffer_factor / gib ==
          Approx(63.74).epsilon(0.001));
}

TEST_CASE("ZeRO-Offload moves 4 bytes per parameter over PCIe per step: 16-bit gradients out, weights back",
          "[offload][published]") {
    // Ren et al. 2021 (ZeRO-Offload) §4.1: "4M" communication volume per step between GPU and CPU,
    // each GPU its 1/d shard; timed at the H100's PCIe Gen5, 64 GB/s per direction (datasheet: 128 GB/s).
    const auto e = estimate_of(
        R"({"model":{"params":7e9},"training":{"offload":"optimizer"},"parallel":{"gpus":8,"zero_stage":2}})");
    CHECK(number_at(e, "training.offload.to_cpu_bytes") + number_at(e, "training.offload.to_gpu_bytes") ==
          Approx(4 * 7e9 / 8));
    CHECK(number_at(e, "training.offload.pcie_seconds") == Approx(2 * 7e9 / 8 / 64e9));
}

TEST_CASE("offloading the weights fetches them over PCIe for every pass of every micro-batch", "[offload]") {
    // ZeRO-Infinity (Rajbhandari et al. 2021 §5): forward and backward each bring the shard back.
    const auto e = estimate_of(R"({"model":{"params":7e9},"training":{"offload":"parameters","global_batch":32},
        "parallel":{"gpus":8,"zero_stage":3}})");
    const double shard = 2 * 7e9 / 8, micro_batches = 32 / 8;
    CHECK(number_at(e, "training.offload.to_gpu_bytes") == Approx(shard + 2 * micro_batches * shard));
}

TEST_CASE("without offload nothing is in CPU memory and nothing crosses PCIe", "[offload]") {
    const auto e = estimate_of(R"({"model":{"preset":"llama3-8b"}})");
    CHECK(e.find_path("training.offload.mode")->text == "none");
    CHECK(number_at(e, "training.offload.cpu_bytes_per_node") == 0);
    CHECK(number_at(e, "training.offload.pcie_seconds") == 0);
}

TEST_CASE("offload asks for the ZeRO stage that shards what it moves", "[offload][errors]") {
    // DeepSpeed's configuration: offload_optimizer with stages 1–3, offload_param with stage 3 only.
    CHECK(has_error_for(estimate_of(R"({"training":{"offload":"optimizer"}})"), "training.offload"));
    CHECK(has_error_for(estimate_of(R"({"training":{"offload":"parameters"},"parallel":{"zero_stage":2}})"),
                        "training.offload"));
    CHECK(has_error_for(estimate_of(R"({"training":{"offload":"disk"}})"), "training.offload"));
}

TEST_CASE("offloading lets a model train on fewer GPUs", "[offload]") {
    const auto on_gpu = estimate_of(
        R"({"model":{"preset":"llama3-70b"},"training":{"recompute":"full"},"parallel":{"gpus":8,"zero_stage":3}})");
    const auto off =
        estimate_of(R"({"model":{"preset":"llama3-70b"},"training":{"recompute":"full","offload":"parameters"},
        "parallel":{"gpus":8,"zero_stage":3}})");
    CHECK(number_at(off, "training.per_gpu.total") < number_at(on_gpu, "training.per_gpu.total"));
    CHECK(number_at(off, "training.min_gpus") < number_at(on_gpu, "training.min_gpus"));
}
