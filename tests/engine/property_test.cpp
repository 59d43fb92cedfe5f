// Properties that hold for every valid scenario, checked over many generated ones.
#include <cmath>
#include <cstdint>
#include <string>

#include "catch_include.hpp"
#include "estimate_support.hpp"

using trainscope::testing::error_count;
using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {

// splitmix64: tiny, and the same sequence natively and on wasm32.
class Random {
public:
    explicit Random(std::uint64_t seed) : state_(seed) {}
    std::uint64_t next() {
        std::uint64_t z = (state_ += 0x9E3779B97F4A7C15ull);
        z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
        z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
        return z ^ (z >> 31);
    }
    double uniform() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }
    double log_uniform(double low, double high) { return low * std::pow(high / low, uniform()); }
    int pick(int count) { return static_cast<int>(next() % static_cast<std::uint64_t>(count)); }

private:
    std::uint64_t state_;
};

struct Knobs {
    double params, micro_batch, sequence, data_parallel, tensor, pipeline, tokens, utilization;
    int zero_stage;
    const char* recompute;
    bool flash;
    bool sequence_parallel;
};

Knobs random_knobs(Random& random) {
    static const char* recompute_modes[] = {"none", "selective", "full"};
    Knobs k;
    k.params = std::round(random.log_uniform(1e8, 2e12));
    k.micro_batch = 1 + random.pick(16);
    k.sequence = std::pow(2.0, 9 + random.pick(8));
    k.data_parallel = std::round(random.log_uniform(1, 4096));
    k.tensor = std::pow(2.0, random.pick(4));  // assumed shapes have ≥ 8 heads, all powers of two ≥ 1e8 params
    k.pipeline = 1 + random.pick(4);
    k.tokens = random.log_uniform(1e9, 2e13);
    k.utilization = 0.1 + 0.8 * random.uniform();
    k.zero_stage = random.pick(4);
    k.recompute = recompute_modes[random.pick(3)];
    k.flash = random.pick(2) == 1;
    k.sequence_parallel = random.pick(2) == 1;
    return k;
}

std::string scenario_for(const Knobs& k) {
    char buffer[640];
    std::snprintf(buffer, sizeof buffer,
                  R"({"model":{"params":%.17g},"training":{"micro_batch":%.17g,"sequence":%.17g,"recompute":"%s",)"
                  R"("flash_attention":%s,"sequence_parallel":%s,"tokens":%.17g},)"
                  R"("parallel":{"gpus":%.17g,"tensor":%.17g,"pipeline":%.17g,"zero_stage":%d},)"
                  R"("hardware":{"utilization":%.17g}})",
                  k.params, k.micro_batch, k.sequence, k.recompute, k.flash ? "true" : "false",
                  k.sequence_parallel ? "true" : "false", k.tokens, k.data_parallel * k.tensor * k.pipeline, k.tensor,
                  k.pipeline, k.zero_stage, k.utilization);
    return buffer;
}

bool all_numbers_finite(const trainscope::json::Value& value) {
    using trainscope::json::Kind;
    switch (value.kind) {
        case Kind::null:
            return false;  // the writer turns NaN and infinity into null
        case Kind::number:
            return std::isfinite(value.number);
        case Kind::array:
            for (const auto& item : value.items)
                if (!all_numbers_finite(item)) return false;
            return true;
        case Kind::object:
            for (const auto& member : value.members)
                if (!all_numbers_finite(member.second)) return false;
            return true;
        default:
            return true;
    }
}

constexpr int scenario_count = 300;

template <typename Change, typename Check>
void for_generated_scenarios(std::uint64_t seed, Change change, Check check) {
    Random random(seed);
    for (int i = 0; i < scenario_count; ++i) {
        const Knobs before = random_knobs(random);
        Knobs after = before;
        change(after, random);
        const std::string first = scenario_for(before), second = scenario_for(after);
        INFO(first << "\n" << second);
        const auto a = estimate_of(first), b = estimate_of(second);
        if (error_count(a) != 0 || error_count(b) != 0) continue;  // e.g. more pipeline stages than layers
        check(a, b);
    }
}

}  // namespace

TEST_CASE("every output of a valid scenario is finite", "[property]") {
    Random random(1);
    int valid = 0;
    for (int i = 0; i < scenario_count; ++i) {
        const std::string scenario = scenario_for(random_knobs(random));
        INFO(scenario);
        const auto estimate = estimate_of(scenario);
        if (error_count(estimate) != 0) continue;
        ++valid;
        CHECK(all_numbers_finite(estimate));
        CHECK(number_at(estimate, "training.per_gpu.total") > 0);
    }
    CHECK(valid > scenario_count / 3);  // most generated scenarios are valid (some split heads unevenly)
}

TEST_CASE("a higher ZeRO stage never needs more memory per GPU", "[property]") {
    for_generated_scenarios(
        2, [](Knobs& k, Random& r) { k.zero_stage = k.zero_stage + r.pick(4 - k.zero_stage); },
        [](const auto& lower, const auto& higher) {
            CHECK(number_at(higher, "training.per_gpu.total") <= number_at(lower, "training.per_gpu.total"));
        });
}

TEST_CASE("recompute never increases activation memory", "[property]") {
    static const char* stronger[] = {"selective", "full"};
    for_generated_scenarios(
        3, [](Knobs& k, Random& r) { k.recompute = stronger[r.pick(2)]; },
        [](const auto& before, const auto& after) {
            if (before.find_path("scenario.training.recompute")->text == "full") return;
            CHECK(number_at(after, "training.per_gpu.activations") <=
                  number_at(before, "training.per_gpu.activations") * (1 + 1e-12));
            CHECK(number_at(after, "compute.hardware_flops") >= number_at(before, "compute.hardware_flops"));
        });
}

TEST_CASE("more GPUs never increase training time", "[property]") {
    for_generated_scenarios(
        4, [](Knobs& k, Random& r) { k.data_parallel *= 1 + r.pick(64); },
        [](const auto& fewer, const auto& more) {
            CHECK(number_at(more, "compute.seconds") <= number_at(fewer, "compute.seconds"));
        });
}

TEST_CASE("training memory grows with parameters, batch and sequence length", "[property]") {
    for_generated_scenarios(
        5, [](Knobs& k, Random& r) { k.params *= 1.5 + 4 * r.uniform(); },
        [](const auto& small, const auto& large) {
            CHECK(number_at(large, "training.per_gpu.total") > number_at(small, "training.per_gpu.total"));
            CHECK(number_at(large, "inference.total") > number_at(small, "inference.total"));
        });
    for_generated_scenarios(
        6, [](Knobs& k, Random& r) { k.micro_batch += 1 + r.pick(8); },
        [](const auto& small, const auto& large) {
            CHECK(number_at(large, "training.per_gpu.activations") + number_at(large, "training.per_gpu.logits") >
                  number_at(small, "training.per_gpu.activations") + number_at(small, "training.per_gpu.logits"));
        });
    for_generated_scenarios(
        7, [](Knobs& k, Random&) { k.sequence *= 2; },
        [](const auto& small, const auto& large) {
            CHECK(number_at(large, "training.per_gpu.total") > number_at(small, "training.per_gpu.total"));
        });
}
