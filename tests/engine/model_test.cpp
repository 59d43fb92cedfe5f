#include <cmath>

#include "catch_include.hpp"
#include "engine/model/model.hpp"

using namespace trainscope;

TEST_CASE("every preset is within 1% of the size its authors publish", "[model][published]") {
    // Sources are on each preset row (papers and released config.json files).
    for (const auto& preset : model_presets()) {
        INFO(std::string(preset.id));
        const double counted = count_parameters(preset.architecture).total;
        CHECK(counted == Approx(preset.published_params).epsilon(0.01));
    }
}

TEST_CASE("Llama 3 sizes match docs/model.md's architecture checks", "[model][published]") {
    // docs/model.md §1: 8B → 8.03B, 70B → 70.6B, 405B → 405.9B (Llama 3 Herd of Models, Table 3).
    CHECK(count_parameters(find_model_preset("llama3-8b")->architecture).total == Approx(8.03e9).epsilon(0.001));
    CHECK(count_parameters(find_model_preset("llama3-70b")->architecture).total == Approx(70.6e9).epsilon(0.002));
    CHECK(count_parameters(find_model_preset("llama3-405b")->architecture).total == Approx(405.9e9).epsilon(0.001));
}

TEST_CASE("GPT-3 matches Megatron's closed form for a GPT block", "[model][published]") {
    // Narayanan et al. 2021, §5.1: P = 12·L·h²·(1 + 13/(12h) + (V+s)/(12·L·h)).
    const Architecture gpt3 = find_model_preset("gpt3-175b")->architecture;
    const double L = gpt3.layers, h = gpt3.hidden, V = gpt3.vocab, s = gpt3.learned_positions;
    const double closed_form = 12 * L * h * h * (1 + 13 / (12 * h) + (V + s) / (12 * L * h));
    CHECK(count_parameters(gpt3).total == Approx(closed_form).epsilon(1e-6));
}

TEST_CASE("a mixture of experts keeps all experts in memory but uses only k per token", "[model][published]") {
    // Jiang et al. 2024 (Mixtral of Experts), §2: 46.7B parameters in total, 12.9B active.
    const ParameterCount mixtral = count_parameters(find_model_preset("mixtral-8x7b")->architecture);
    CHECK(mixtral.total == Approx(46.7e9).epsilon(0.005));
    CHECK(mixtral.active == Approx(12.9e9).epsilon(0.005));
}

TEST_CASE("grouped-query attention shrinks only the K and V projections", "[model]") {
    Architecture multi_head = find_model_preset("llama3-8b")->architecture;
    multi_head.kv_heads = multi_head.heads;
    Architecture grouped = multi_head;
    grouped.kv_heads = 8;
    const double h = multi_head.hidden;
    // K and V go from h×h to h×(h·8/32) in each of the 32 layers (docs/model.md §1).
    const double saved = multi_head.layers * 2 * (h * h - h * h * 8 / 32);
    CHECK(count_parameters(multi_head).total - count_parameters(grouped).total == Approx(saved));
}

TEST_CASE("an assumed shape for a bare count lands close to that count", "[model]") {
    for (const double parameters : {1e8, 7e9, 70e9, 405e9, 2e12, 1e13}) {
        INFO(parameters);
        const Architecture shape = assumed_architecture(parameters);
        CHECK(shape.layers >= 1);
        CHECK(std::fmod(shape.hidden, shape.heads) == 0);
        CHECK(count_parameters(shape).total == Approx(parameters).epsilon(0.15));
    }
}
