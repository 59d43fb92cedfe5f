#include <cmath>
#include <string>

#include "catch_include.hpp"
#include "engine/model/scenario.hpp"
#include "engine/text/utf8.hpp"
#include "estimate_support.hpp"

using trainscope::testing::error_count;
using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;

TEST_CASE("a preset alone is a whole scenario", "[scenario]") {
    const auto estimate = estimate_of(R"({"model":{"preset":"llama3-70b"}})");
    CHECK(error_count(estimate) == 0);
    CHECK(number_at(estimate, "training.per_gpu.total") > 0);
}

TEST_CASE("an empty scenario is the lesson's 70B example", "[scenario]") {
    const auto estimate = estimate_of("{}");
    CHECK(estimate.find_path("scenario.model.preset")->text == "llama3-70b");
}

TEST_CASE("a preset sets the tokens and cluster its authors reported", "[scenario]") {
    // Llama 3 Herd of Models 2024: 15.6T tokens, 16,384 H100 GPUs.
    const auto estimate = estimate_of(R"({"model":{"preset":"llama3-405b"}})");
    CHECK(number_at(estimate, "scenario.training.tokens") == 15.6e12);
    CHECK(number_at(estimate, "scenario.parallel.gpus") == 16384);
}

TEST_CASE("without reported tokens, the default is Chinchilla's 20 per parameter", "[scenario]") {
    // Hoffmann et al. 2022, §3.
    const auto estimate = estimate_of(R"({"model":{"params":1e9}})");
    CHECK(number_at(estimate, "scenario.training.tokens") == Approx(20e9));
}

TEST_CASE("bad input yields an error naming each bad field", "[scenario][errors]") {
    struct Case {
        const char* scenario;
        const char* field;
    };
    const Case cases[] = {
        {R"({"model":{"params":-5}})", "model.params"},
        {R"({"model":{"params":0}})", "model.params"},
        {R"({"model":{"params":1e30}})", "model.params"},
        {R"({"model":{"params":"7B"}})", "model.params"},
        {R"({"model":{"preset":"gpt-9"}})", "model.preset"},
        {R"({"model":{"architecture":{"layers":2,"hidden":64,"heads":128,"mlp":256,"vocab":1000}}})",
         "model.architecture.heads"},
        {R"({"model":{"architecture":{"layers":2,"hidden":64,"heads":8,"kv_heads":3,"mlp":256,"vocab":1000}}})",
         "model.architecture.kv_heads"},
        {R"({"model":{"architecture":{"hidden":64,"heads":8,"mlp":256,"vocab":1000}}})", "model.architecture.layers"},
        {R"({"model":{"architecture":{"layers":1.5}}})", "model.architecture.layers"},
        {R"({"model":{"preset":"mixtral-8x7b","architecture":{"experts_per_token":9}}})",
         "model.architecture.experts_per_token"},
        {R"({"parallel":{"gpus":10,"tensor":4}})", "parallel.gpus"},
        {R"({"parallel":{"gpus":0}})", "parallel.gpus"},
        {R"({"parallel":{"zero_stage":4}})", "parallel.zero_stage"},
        {R"({"parallel":{"gpus":3,"tensor":3}})", "parallel.tensor"},
        {R"({"parallel":{"gpus":1000,"pipeline":1000}})", "parallel.pipeline"},
        {R"({"training":{"optimizer":"lion"}})", "training.optimizer"},
        {R"({"training":{"recompute":"some"}})", "training.recompute"},
        {R"({"training":{"sequence":-1}})", "training.sequence"},
        {R"({"training":{"micro_batch":0}})", "training.micro_batch"},
        {R"({"training":{"tokens":1e40}})", "training.tokens"},
        {R"({"training":{"flash_attention":"yes"}})", "training.flash_attention"},
        {R"({"inference":{"precision":"fp64"}})", "inference.precision"},
        {R"({"inference":{"batch":-1}})", "inference.batch"},
        {R"({"hardware":{"gpu":"h900"}})", "hardware.gpu"},
        {R"({"hardware":{"utilization":0}})", "hardware.utilization"},
        {R"({"hardware":{"utilization":1.5}})", "hardware.utilization"},
        {R"({"hardware":{"gpu":"custom","peak_flops":1e15}})", "hardware.memory_bytes"},
        {R"({"hardware":{"price_per_gpu_hour":-1}})", "hardware.price_per_gpu_hour"},
        {R"({"trainig":{}})", "trainig"},
        {R"({"model":{"preset":"llama3-8b","params":8e9}})", "model.params"},
        {R"([1,2,3])", "scenario"},
        {R"({"model":)", "scenario"},
        {"", "scenario"},
    };
    for (const Case& c : cases) {
        INFO(c.scenario);
        const auto estimate = estimate_of(c.scenario);
        CHECK(has_error_for(estimate, c.field));
        CHECK(estimate.find("params") == nullptr);  // no numbers from a bad scenario
    }
}

TEST_CASE("NaN and Infinity are not JSON and are rejected as such", "[scenario][errors]") {
    for (const char* scenario :
         {R"({"model":{"params":NaN}})", R"({"model":{"params":Infinity}})", R"({"model":{"params":1e999}})"}) {
        INFO(scenario);
        CHECK(has_error_for(estimate_of(scenario), "scenario"));
    }
}

TEST_CASE("huge but valid inputs stay finite and exact", "[scenario][wasm32]") {
    // 1e13 parameters × 16 bytes overflows 32-bit size_t; counts are doubles throughout.
    const auto estimate = estimate_of(
        R"({"model":{"params":1e13},"parallel":{"gpus":1000000,"zero_stage":3},"training":{"tokens":1e15}})");
    REQUIRE(error_count(estimate) == 0);
    CHECK(number_at(estimate, "training.model_states.total") == Approx(16e13));
    CHECK(number_at(estimate, "compute.flops") == Approx(6e28));
    CHECK(number_at(estimate, "training.per_gpu.optimizer_states") == Approx(8e13 / 1e6));
    CHECK(std::isfinite(number_at(estimate, "compute.seconds")));
}

TEST_CASE("a written scenario reads back to the same estimate", "[scenario]") {
    for (const char* scenario : {"{}", R"({"model":{"params":3e9},"training":{"recompute":"full"}})",
                                 R"({"model":{"preset":"gpt2-124m","architecture":{"layers":24}}})",
                                 R"({"hardware":{"gpu":"custom","memory_bytes":48e9,"peak_flops":300e12}})"}) {
        INFO(scenario);
        const auto first = estimate_of(scenario);
        const std::string written = trainscope::json::serialize(*first.find("scenario"));
        const auto second = estimate_of(written);
        CHECK(trainscope::json::serialize(second) == trainscope::json::serialize(first));
    }
}

TEST_CASE("a member given twice is an error naming its path, not a silent choice", "[scenario][errors]") {
    // JSON.parse would read 16 GPUs here and a first-wins reader 8: neither is guessed.
    const auto estimate = estimate_of(R"({"parallel":{"gpus":8,"gpus":16}})");
    CHECK(has_error_for(estimate, "parallel.gpus"));
    CHECK(estimate.find("errors")->items[0].find("message")->text.find("appears twice") != std::string::npos);
}

TEST_CASE("a scenario that is not UTF-8 is refused with a message", "[scenario][errors]") {
    const auto estimate = estimate_of("{\"model\":{\"preset\":\"caf\xE9\"}}");
    REQUIRE(has_error_for(estimate, "scenario"));
    CHECK(estimate.find("errors")->items[0].find("message")->text.find("UTF-8") != std::string::npos);
}

TEST_CASE("a long unknown field name is cut on a character boundary", "[scenario][errors]") {
    std::string name;
    for (int i = 0; i < 40; ++i) name += "\xC3\xA9";  // 40 × é, 80 bytes: a cut at byte 60 is mid-way
    const auto estimate = estimate_of("{\"model\":{\"" + name + "x\":1}}");
    REQUIRE(error_count(estimate) == 1);
    const std::string& field = estimate.find("errors")->items[0].find("field")->text;
    CHECK(trainscope::utf8::first_invalid_byte(field) == trainscope::utf8::valid);
    CHECK(field.size() < 80);
}

TEST_CASE("a long unknown preset is echoed cut on a character boundary", "[scenario][errors]") {
    std::string name;
    for (int i = 0; i < 40; ++i) name += "\xC3\xA9";
    const auto estimate = estimate_of("{\"model\":{\"preset\":\"x" + name + "\"}}");
    REQUIRE(has_error_for(estimate, "model.preset"));
    const std::string& message = estimate.find("errors")->items[0].find("message")->text;
    CHECK(trainscope::utf8::first_invalid_byte(message) == trainscope::utf8::valid);
}

TEST_CASE("a model's name travels with the scenario, so a shared link names the model", "[scenario][name]") {
    // Issue 11: a shared link for a pasted config showed "Your model: your model".
    const auto estimate = estimate_of(
        R"({"model":{"name":"Mistral-7B-v0.1","architecture":{"layers":32,"hidden":4096,"heads":32,"kv_heads":8,"mlp":14336,"vocab":32000}}})");
    CHECK(error_count(estimate) == 0);
    CHECK(estimate.find_path("scenario.model.name")->text == "Mistral-7B-v0.1");
    CHECK(estimate_of("{}").find_path("scenario.model.name") == nullptr);
}

TEST_CASE("a model name must be one line of plain text of a sensible length", "[scenario][name][errors]") {
    CHECK(has_error_for(estimate_of(R"({"model":{"name":42}})"), "model.name"));
    CHECK(has_error_for(estimate_of(R"({"model":{"name":""}})"), "model.name"));
    CHECK(has_error_for(estimate_of(R"({"model":{"name":"two\nlines"}})"), "model.name"));
    const auto long_name = estimate_of(R"({"model":{"name":")" + std::string(201, 'x') + R"("}})");
    CHECK(has_error_for(long_name, "model.name"));
    CHECK(trainscope::json::serialize(long_name).find("must be at most 200 bytes long") != std::string::npos);
    CHECK_FALSE(has_error_for(estimate_of(R"({"model":{"name":"Llama 3 — 70B “chat”"}})"), "model.name"));
}
