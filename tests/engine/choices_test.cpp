// The choices a page lists, the ZeRO stages' formula and the lesson's stories
// (src/engine/model/choices.hpp): data the page shows as it is, so each row is checked here.
#include <string>

#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/model/choices.hpp"
#include "engine/model/model.hpp"
#include "engine/text/json.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::error_count;
using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {

json::Value parsed(const std::string& text) {
    const json::ParseResult result = json::parse(text);
    REQUIRE(result.ok);
    return result.value;
}

// {"training":{"optimizer":"adamw"}} for the field "training.optimizer".
std::string scenario_setting(const std::string& field, const json::Value& value) {
    const std::size_t dot = field.find('.');
    return "{\"" + field.substr(0, dot) + "\":{\"" + field.substr(dot + 1) + "\":" + json::serialize(value) + "}}";
}

}  // namespace

TEST_CASE("every choice a page lists is a value the engine accepts for its field", "[choices]") {
    const json::Value choices = parsed(choices_json());
    REQUIRE(choices.members.size() == 7);
    for (const auto& [field, list] : choices.members) {
        REQUIRE(!list.items.empty());
        for (const auto& choice : list.items) {
            const std::string scenario = scenario_setting(field, *choice.find("value"));
            INFO(scenario);
            CHECK(error_count(estimate_of(scenario)) == 0);
            CHECK(!choice.find("label")->text.empty());
        }
    }
}

TEST_CASE("the ZeRO stages' formula for mixed-precision AdamW is the ZeRO paper's 16, 4 + 12/d, 2 + 14/d, 16/d",
          "[choices]") {
    // Rajbhandari et al. 2019, §5 and Figure 1: K = 12 bytes of optimizer state per parameter, 2 + 2 of 16-bit weights
    // and gradients.
    BytesPerParam adamw;
    adamw.weights = 2;
    adamw.gradients = 2;
    adamw.master_weights = 4;
    adamw.optimizer_states = 8;
    CHECK(zero_stage_formula(adamw) ==
          "per GPU, d data-parallel GPUs: stage 0 16Ψ; stage 1 4Ψ + 12Ψ/d; stage 2 2Ψ + 14Ψ/d; stage 3 16Ψ/d (Ψ "
          "parameters)");
}

TEST_CASE("the ZeRO stages' formula follows the optimizer: plain SGD in FP32 keeps no state to shard", "[choices]") {
    BytesPerParam sgd;
    sgd.weights = 4;
    sgd.gradients = 4;
    CHECK(zero_stage_formula(sgd) ==
          "per GPU, d data-parallel GPUs: stage 0 8Ψ; stage 1 8Ψ; stage 2 4Ψ + 4Ψ/d; stage 3 8Ψ/d (Ψ parameters)");
}

TEST_CASE("the Llama 3 405B story quotes the preset's published tokens and GPUs, and the engine takes its scenario",
          "[choices]") {
    // The Llama 3 Herd of Models (Meta, 2024), §3.3: 15.6T tokens on up to 16,384 H100s (model.cpp's row).
    const json::Value stories = parsed(stories_json());
    const json::Value* llama = nullptr;
    for (const auto& story : stories.items)
        if (story.find("id")->text == "llama3-405b") llama = &story;
    REQUIRE(llama != nullptr);
    const std::string& source = llama->find("source")->text;
    CHECK(source.find("15.6T tokens") != std::string::npos);
    CHECK(source.find("16,384 H100s") != std::string::npos);
    CHECK(source.find("DP 128") != std::string::npos);
    const json::Value estimate = estimate_of(json::serialize(*llama->find("scenario")));
    REQUIRE(error_count(estimate) == 0);
    const ModelPreset* preset = find_model_preset("llama3-405b");
    CHECK(number_at(estimate, "scenario.training.tokens") == preset->training_tokens);
    CHECK(number_at(estimate, "scenario.parallel.gpus") == preset->training_gpus);
}

TEST_CASE("every story's scenario is one the engine accepts", "[choices]") {
    for (const auto& story : parsed(stories_json()).items) {
        INFO(story.find("id")->text);
        CHECK(error_count(estimate_of(json::serialize(*story.find("scenario")))) == 0);
    }
}
