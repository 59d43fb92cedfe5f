// The choices a page lists, the ZeRO stages' formula and the lesson's stories
// (src/engine/model/choices.hpp): data the page shows as it is, so each row is checked here.
#include <algorithm>
#include <string>
#include <vector>

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

// {"training":{"optimizer":"adamw"}} for the field "training.optimizer"; "training.lora.base" nests
// one level deeper; `extra` goes beside the section's own member (a method, a ZeRO stage).
std::string scenario_setting(const std::string& field, const json::Value& value, const std::string& extra = "") {
    const std::size_t dot = field.find('.');
    const std::string rest = field.substr(dot + 1);
    const std::size_t inner = rest.find('.');
    const std::string member =
        inner == std::string::npos
            ? "\"" + rest + "\":" + json::serialize(value)
            : "\"" + rest.substr(0, inner) + "\":{\"" + rest.substr(inner + 1) + "\":" + json::serialize(value) + "}";
    return "{\"" + field.substr(0, dot) + "\":{" + member + (extra.empty() ? "" : "," + extra) + "}" +
           (field == "training.offload" ? std::string(",\"parallel\":{\"zero_stage\":3}") : std::string()) + "}";
}

}  // namespace

TEST_CASE("every choice a page lists is a value the engine accepts for its field", "[choices]") {
    const json::Value choices = parsed(choices_json());
    REQUIRE(choices.members.size() == 15);
    for (const auto& [field, list] : choices.members) {
        REQUIRE(!list.items.empty());
        for (const auto& choice : list.items) {
            // A LoRA matrix is one member of the targets' list; LoRA's settings are read with method lora.
            json::Value value = *choice.find("value");
            if (field == "training.lora.targets") {
                json::Value list_of_one;
                list_of_one.kind = json::Kind::array;
                list_of_one.items.push_back(value);
                value = list_of_one;
            }
            const bool lora = field.rfind("training.lora.", 0) == 0;
            const std::string scenario = scenario_setting(field, value, lora ? R"("method":"lora")" : "");
            INFO(scenario);
            CHECK(error_count(estimate_of(scenario)) == 0);
            CHECK(!choice.find("label")->text.empty());
        }
    }
}

TEST_CASE("QLoRA takes exactly the base storages its choices mark", "[choices]") {
    // Dettmers et al. 2023 §3: QLoRA's base is 4-bit NormalFloat, with or without double quantisation.
    const json::Value choices = parsed(choices_json());
    for (const auto& choice : choices.find("training.lora.base")->items) {
        const std::string scenario =
            scenario_setting("training.lora.base", *choice.find("value"), R"("method":"qlora")");
        INFO(scenario);
        CHECK((error_count(estimate_of(scenario)) == 0) == choice.find("qlora")->boolean);
    }
}

TEST_CASE("each offload choice names the least ZeRO stage the engine accepts it with", "[choices]") {
    // DeepSpeed's configuration docs: offload_optimizer needs ZeRO 1–3, offload_param ZeRO-3 (docs/model.md §16).
    const json::Value choices = parsed(choices_json());
    for (const auto& choice : choices.find("training.offload")->items) {
        const std::string offload = json::serialize(*choice.find("value"));
        const double least = number_at(choice, "zero_stage");
        const auto stage = [&](double zero) {
            return R"({"training":{"offload":)" + offload + R"(},"parallel":{"zero_stage":)" +
                   std::to_string(static_cast<int>(zero)) + "}}";
        };
        INFO(offload);
        CHECK(error_count(estimate_of(stage(least))) == 0);
        if (least > 0) CHECK(error_count(estimate_of(stage(least - 1))) > 0);
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

TEST_CASE("the Llama 3 405B story is the published run: the sharding section's button, ZeRO-1, interleaved, 41%",
          "[choices][published]") {
    // Issue 33, item 3. The Llama 3 Herd of Models (Meta, 2024), Table 4: TP 8 × PP 16 with
    // interleaved stages, ZeRO-1 and 41% BF16 MFU on 16,384 H100s; the page's published-run button
    // loads model.cpp's first run through run_scenario_json, and the story must load the same run.
    const json::Value* llama = nullptr;
    const json::Value stories = parsed(stories_json());
    for (const auto& story : stories.items)
        if (story.find("id")->text == "llama3-405b") llama = &story;
    REQUIRE(llama != nullptr);
    const ModelPreset* preset = find_model_preset("llama3-405b");
    REQUIRE(preset != nullptr);
    REQUIRE(!preset->runs.empty());
    const json::Value story = estimate_of(json::serialize(*llama->find("scenario")));
    const json::Value button = estimate_of(run_scenario_json(*preset, preset->runs.front()));
    REQUIRE(error_count(story) == 0);
    CHECK(number_at(story, "scenario.parallel.zero_stage") == 1);
    CHECK(number_at(story, "scenario.parallel.interleave") == 8);
    CHECK(number_at(story, "scenario.parallel.tensor") == 8);
    CHECK(number_at(story, "scenario.parallel.pipeline") == 16);
    // Both predict Meta's 41% (Table 4) within the engine's validated margin (cluster_test.cpp).
    CHECK(number_at(story, "communication.predicted_mfu") == Approx(0.41).margin(0.015));
    CHECK(number_at(story, "communication.predicted_mfu") == number_at(button, "communication.predicted_mfu"));
    CHECK(number_at(story, "compute.seconds") == number_at(button, "compute.seconds"));
    CHECK(llama->find("source")->text.find("ZeRO-1") != std::string::npos);
}

TEST_CASE("every story's scenario is one the engine accepts", "[choices]") {
    for (const auto& story : parsed(stories_json()).items) {
        INFO(story.find("id")->text);
        CHECK(error_count(estimate_of(json::serialize(*story.find("scenario")))) == 0);
    }
}

TEST_CASE("each story lands on a lesson part: the opening on run vs train, Meta's run on its months", "[choices]") {
    // The page's lesson parts (docs/page.md, "The lesson path"): a story scrolls to the one that tells it.
    const std::vector<std::string> lesson_parts = {"run-vs-train", "training-extras", "sharding-checkpointing",
                                                   "compute-time"};
    for (const auto& story : parsed(stories_json()).items) {
        INFO(story.find("id")->text);
        const json::Value* lands_on = story.find("lands_on");
        REQUIRE(lands_on != nullptr);
        CHECK(std::find(lesson_parts.begin(), lesson_parts.end(), lands_on->text) != lesson_parts.end());
        if (story.find("id")->text == "run-vs-train-70b") CHECK(lands_on->text == "run-vs-train");
        if (story.find("id")->text == "llama3-405b") CHECK(lands_on->text == "compute-time");
    }
}
