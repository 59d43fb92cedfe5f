// Full fine-tuning, LoRA and QLoRA side by side (docs/scenario.md, "Fine-tuning methods side by
// side"): each column is the estimate of the scenario with that method, nothing computed apart.
#include "catch_include.hpp"

#include <string>

#include "engine/api/methods.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;

namespace {

// Llama 3 8B on one 24 GB card (RTX 4090, docs/model.md §7): the lesson's "one gaming GPU".
const std::string one_gaming_gpu = R"({"model":{"preset":"llama3-8b"},"hardware":{"gpu":"rtx-4090"},)"
                                   R"("parallel":{"gpus":1},"training":{"sequence":2048}})";

json::Value parsed(const std::string& text) {
    const json::ParseResult result = json::parse(text);
    REQUIRE(result.ok);
    return result.value;
}

json::Value methods_of(const std::string& scenario) { return parsed(fine_tuning_methods_json(scenario)); }

const json::Value& method_at(const json::Value& answer, std::size_t index) {
    return answer.find("methods")->items[index];
}

}  // namespace

TEST_CASE("the three methods come in the order full, LoRA, QLoRA", "[methods]") {
    const json::Value answer = methods_of(one_gaming_gpu);
    REQUIRE(answer.find("methods")->items.size() == 3);
    CHECK(method_at(answer, 0).find("method")->text == "full");
    CHECK(method_at(answer, 1).find("method")->text == "lora");
    CHECK(method_at(answer, 2).find("method")->text == "qlora");
}

TEST_CASE("each method's peak is the estimate's per-GPU total for the scenario it carries", "[methods]") {
    const json::Value answer = methods_of(one_gaming_gpu);
    for (std::size_t index = 0; index < 3; ++index) {
        const json::Value& method = method_at(answer, index);
        const std::string scenario = json::serialize(*method.find("scenario"));
        const json::Value estimate = estimate_of(scenario);
        CHECK(number_at(method, "peak_bytes") == number_at(estimate, "training.per_gpu.total"));
        CHECK(number_at(method, "trainable_params") == number_at(estimate, "training.fine_tuning.trainable_params"));
        CHECK(number_at(method, "base_bytes_per_param") ==
              number_at(estimate, "training.fine_tuning.base_bytes_per_param"));
    }
}

TEST_CASE("on one 24 GB card, full training of Llama 3 8B does not fit and QLoRA does", "[methods]") {
    // 8.03B parameters × 16 bytes ≈ 128 GB of model states (ZeRO §3.1) against 24 GB; QLoRA's NF4 base
    // with double quantisation is ≈ 4.127 bits per linear-layer parameter (Dettmers et al. 2023 §3).
    const json::Value answer = methods_of(one_gaming_gpu);
    CHECK(method_at(answer, 0).find("fits")->boolean == false);
    CHECK(method_at(answer, 2).find("fits")->boolean == true);
    CHECK(number_at(method_at(answer, 2), "base_bytes_per_param") == Approx(4.127 / 8).epsilon(0.001));
}

TEST_CASE("LoRA trains a small fraction of the parameters full training trains", "[methods]") {
    const json::Value answer = methods_of(one_gaming_gpu);
    const double full = number_at(method_at(answer, 0), "trainable_params");
    const double lora = number_at(method_at(answer, 1), "trainable_params");
    CHECK(full == Approx(8.03e9).epsilon(0.01));  // docs/model.md §1
    CHECK(lora > 0);
    CHECK(lora < full / 100);
}

TEST_CASE("the scenario's own method is marked current and keeps its LoRA settings", "[methods]") {
    const json::Value answer = methods_of(
        R"({"model":{"preset":"llama3-8b"},"training":{"method":"lora","lora":{"rank":64,"targets":["q","k","v","o"]}}})");
    CHECK(method_at(answer, 1).find("current")->boolean == true);
    CHECK(method_at(answer, 0).find("current")->boolean == false);
    CHECK(number_at(method_at(answer, 1), "scenario.training.lora.rank") == 64);
}

TEST_CASE("a bad scenario gives field-named errors and no methods", "[methods]") {
    const json::Value answer = methods_of(R"({"parallel":{"gpus":-1}})");
    CHECK(has_error_for(answer, "parallel.gpus"));
    CHECK(answer.find("methods") == nullptr);
}

TEST_CASE("side by side, every method is timed on the fine-tuning run's tokens, in hours", "[methods][tokens]") {
    // finetune.hpp: QLoRA's Guanaco run, 1,875 × 16 × 528 tokens (artidoro/qlora, finetune_guanaco_65b.sh).
    // The scenario is full training on Llama 3's 15 T pre-training tokens; the comparison is of
    // methods on one fine-tuning run, so full training there is full fine-tuning on the same tokens.
    const json::Value answer = methods_of(one_gaming_gpu);
    for (std::size_t index : {0, 1, 2}) {
        const json::Value& method = method_at(answer, index);
        CHECK(number_at(method, "tokens") == 1875.0 * 16 * 528);
        CHECK(number_at(method, "scenario.training.tokens") == number_at(method, "tokens"));
    }
    for (std::size_t index : {1, 2})
        CHECK(number_at(method_at(answer, index), "run_seconds") < 24 * 3600);  // 8B on one RTX 4090: hours
    // Full fine-tuning does more arithmetic per token than LoRA (docs/model.md §15), never less.
    CHECK(number_at(method_at(answer, 0), "run_seconds") >= number_at(method_at(answer, 1), "run_seconds"));
}

TEST_CASE("side by side, tokens the learner set are every method's", "[methods][tokens]") {
    const json::Value answer =
        methods_of(R"({"model":{"preset":"llama3-8b"},"hardware":{"gpu":"rtx-4090"},"training":{"tokens":2e9}})");
    for (std::size_t index : {0, 1, 2}) CHECK(number_at(method_at(answer, index), "tokens") == 2e9);
}

TEST_CASE("full training on the fine-tuning run's tokens says they are that run's", "[methods][tokens]") {
    const json::Value estimate =
        estimate_of(R"({"model":{"preset":"llama3-8b"},"training":{"method":"full","tokens":)" +
                    std::to_string(1875 * 16 * 528) + "}}");
    const json::Value* origin = estimate.find_path("compute.tokens_origin");
    REQUIRE(origin != nullptr);
    CHECK(origin->text.find("Guanaco") != std::string::npos);
}
