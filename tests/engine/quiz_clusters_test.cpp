// The built-in bank's questions on clusters as real runs lay them out (issue 23): mixture-of-experts
// compute and memory, expert and context parallelism, and why time stops falling as 1/GPUs. Each
// question's answer, and every claim its options make, is checked against an independent estimate
// of the same scenario, so a change to the engine that makes a question wrong fails here.
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "estimate_support.hpp"
#include "quiz_support.hpp"

namespace json = trainscope::json;
using trainscope::quiz_grade_json;
using trainscope::quiz_instance_json;
using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {

using trainscope::quiz_testing::built_in_item;
using trainscope::quiz_testing::instance;
using trainscope::quiz_testing::parse_json;
using trainscope::quiz_testing::replaced;
using trainscope::quiz_testing::text_at;
using trainscope::quiz_testing::typed;

json::Value chosen(const std::string& item, const char* choices_json) {
    return parse_json(quiz_grade_json(item, 0, std::string(R"({"choices": )") + choices_json + "}"));
}

// The item's simulation as scenario text, with one JSON member replaced (text-level, so the test
// states exactly what differs).
std::string simulation_of(const std::string& item) { return json::serialize(*instance(item, 0).find("simulation")); }

std::string flops_text(double flops) {
    char text[64];
    std::snprintf(text, sizeof text, "%.4e FLOPs", flops);
    return text;
}

// The parameters of a preset, as `trainscope presets` lists them: an input of the question, read
// apart from the estimate that grades it.
double preset_number(const std::string& preset, const char* field) {
    const json::Value presets = parse_json(trainscope::presets_json());
    for (const auto& entry : presets.items)
        if (text_at(entry, "id") == preset) return entry.find(field)->number;
    FAIL("no preset " << preset);
    return 0.0;
}

double exposed_share(const json::Value& estimate, const std::string& term) {
    for (const auto& entry : estimate.find("communication")->find("terms")->items)
        if (entry.find("id")->text == term)
            return entry.find("exposed_seconds")->number / number_at(estimate, "communication.step_seconds");
    FAIL("no term " << term);
    return 0.0;
}

}  // namespace

// ---- moe-flops-active-params ------------------------------------------------------------------

TEST_CASE("the MoE FLOPs question expects 6 × active parameters × tokens for 200 seeds, over all three models",
          "[quiz][clusters]") {
    // Source: docs/model.md §1 and §11 (compute counts the active parameters); the presets' counts.
    const std::string item = built_in_item("moe-flops-active-params");
    std::set<std::string> presets_asked;
    for (std::uint32_t seed = 0; seed <= 200; ++seed) {
        const json::Value asked = instance(item, seed);
        const std::string preset = text_at(asked, "scenario.model.preset");
        const double tokens = asked.find_path("scenario.training.tokens")->number;
        presets_asked.insert(preset);
        const double expected = typed(item, seed, "1 FLOPs").find("expected")->number;
        INFO("seed " << seed << ", " << preset);
        CHECK(expected == Approx(6.0 * preset_number(preset, "active_params") * tokens).epsilon(1e-9));
        CHECK(expected ==
              Approx(number_at(estimate_of(json::serialize(*asked.find("scenario"))), "compute.flops")).epsilon(1e-12));
    }
    CHECK(presets_asked == std::set<std::string>{"deepseek-v3", "mixtral-8x22b", "mixtral-8x7b"});
}

TEST_CASE("6 × total parameters × tokens for an MoE model is recognised as counting every expert", "[quiz][clusters]") {
    const std::string item = built_in_item("moe-flops-active-params");
    for (std::uint32_t seed : {0u, 1u, 4u}) {
        const json::Value asked = instance(item, seed);
        const std::string preset = text_at(asked, "scenario.model.preset");
        const double tokens = asked.find_path("scenario.training.tokens")->number;
        const json::Value graded = typed(item, seed, flops_text(6.0 * preset_number(preset, "params") * tokens));
        INFO("seed " << seed << ", " << preset);
        CHECK(text_at(graded, "status") == "incorrect");
        CHECK(text_at(graded, "misconception") == "total-params");
    }
}

TEST_CASE("the MoE FLOPs explanation states the memory of all parameters beside the active ones' FLOPs",
          "[quiz][clusters]") {
    // 16 bytes × 671 B = 10.7 TB (docs/model.md §2), for DeepSeek-V3 as authored.
    const std::string explanation =
        text_at(typed(built_in_item("moe-flops-active-params"), 0, "1 FLOPs"), "explanation");
    CHECK(explanation.find("10.7 TB") != std::string::npos);
    CHECK(explanation.find("37.6 billion") != std::string::npos);
}

// ---- expert-parallel-splits -------------------------------------------------------------------

TEST_CASE(
    "in the expert-parallel question's run, expert parallelism divides the routed experts' weights and nothing else",
    "[quiz][clusters]") {
    // Weights per GPU = rest/(t·p) + routed/(t·p·e) (docs/model.md §11): the drop from e = 1 to
    // e = 64 is 126/64 times the drop from 1 to 2 (63/64 against 1/2 of the routed part), and the
    // part that stays is the attention, shared expert, dense layers and embeddings.
    const std::string run = simulation_of(built_in_item("expert-parallel-splits"));
    const json::Value ep64 = estimate_of(run);
    const json::Value ep2 = estimate_of(replaced(run, "\"expert\":64", "\"expert\":2"));
    const json::Value ep1 = estimate_of(replaced(run, "\"expert\":64", "\"expert\":1"));
    const double w1 = number_at(ep1, "training.per_gpu.weights");
    const double w2 = number_at(ep2, "training.per_gpu.weights");
    const double w64 = number_at(ep64, "training.per_gpu.weights");
    CHECK((w1 - w64) / (w1 - w2) == Approx(2.0 * 63.0 / 64.0).epsilon(1e-9));
    // What expert parallelism leaves whole: BF16 weights (2 bytes) of everything but the routed
    // experts, split over the 16 pipeline stages. Routed experts, from the architecture (DeepSeek-V3
    // config.json): the mixture-of-experts layers × experts × a SwiGLU expert's 3·h·f_e weights.
    const double routed_bytes_per_gpu = 2.0 * (w1 - w2);
    const double moe_layers = number_at(ep64, "architecture.layers") - number_at(ep64, "architecture.dense_layers");
    const double routed_params = moe_layers * number_at(ep64, "architecture.experts") * 3.0 *
                                 number_at(ep64, "architecture.hidden") * number_at(ep64, "architecture.expert_mlp");
    const double pipeline = number_at(ep64, "scenario.parallel.pipeline");
    CHECK(routed_bytes_per_gpu == Approx(2.0 * routed_params / pipeline).epsilon(1e-9));
    CHECK(w1 - routed_bytes_per_gpu ==
          Approx(2.0 * (number_at(ep64, "params") - routed_params) / pipeline).epsilon(1e-9));
}

TEST_CASE("in the expert-parallel question's run, activations per GPU do not change with expert parallelism",
          "[quiz][clusters]") {
    // Balanced routing (docs/model.md §11): the option "activations shrink" is wrong.
    const std::string run = simulation_of(built_in_item("expert-parallel-splits"));
    CHECK(number_at(estimate_of(run), "training.per_gpu.activations") ==
          number_at(estimate_of(replaced(run, "\"expert\":64", "\"expert\":1")), "training.per_gpu.activations"));
}

TEST_CASE("the expert-parallel question is right with the experts and their states, and names splitting attention",
          "[quiz][clusters]") {
    const std::string item = built_in_item("expert-parallel-splits");
    CHECK(text_at(chosen(item, R"(["routed-experts", "expert-states"])"), "status") == "correct");
    const json::Value wrong = chosen(item, R"(["routed-experts", "expert-states", "attention"])");
    CHECK(text_at(wrong, "status") == "incorrect");
    CHECK(text_at(wrong, "misconception") == "expert-parallel-splits-attention");
}

// ---- context-parallel-long-context ------------------------------------------------------------

TEST_CASE(
    "in the context-parallel question's run, activations per GPU are 1/16 of the same run without context parallelism",
    "[quiz][clusters]") {
    // The same data-parallel degree (8) and micro-batches in flight, on 1,024 GPUs instead of
    // 16,384: only the sequence split differs. docs/model.md §11: a rank keeps 1/c of §4's figure.
    const std::string run = simulation_of(built_in_item("context-parallel-long-context"));
    const json::Value cp16 = estimate_of(run);
    const json::Value cp1 =
        estimate_of(replaced(replaced(run, "\"context\":16", "\"context\":1"), "\"gpus\":16384", "\"gpus\":1024"));
    REQUIRE(number_at(cp1, "training.data_parallel") == number_at(cp16, "training.data_parallel"));
    CHECK(number_at(cp1, "training.per_gpu.activations") / number_at(cp16, "training.per_gpu.activations") ==
          Approx(16.0).epsilon(1e-9));
    CHECK(number_at(cp1, "training.activations_per_layer") / number_at(cp16, "training.activations_per_layer") ==
          Approx(16.0).epsilon(1e-9));
    CHECK(number_at(cp1, "training.per_gpu.weights") == number_at(cp16, "training.per_gpu.weights"));
    CHECK(number_at(cp1, "compute.seconds") / number_at(cp16, "compute.seconds") == Approx(16.0).epsilon(1e-9));
}

TEST_CASE("in the context-parallel question's run, the ranks exchange keys and values", "[quiz][clusters]") {
    // The option "never exchange anything" is wrong: docs/model.md §13's context-parallel term.
    const json::Value cp16 = estimate_of(simulation_of(built_in_item("context-parallel-long-context")));
    for (const auto& term : cp16.find("communication")->find("terms")->items)
        if (term.find("id")->text == "context_parallel") CHECK(term.find("seconds")->number > 0.0);
}

TEST_CASE("the context-parallel question names the quadratic slip", "[quiz][clusters]") {
    const std::string item = built_in_item("context-parallel-long-context");
    CHECK(text_at(chosen(item, R"(["activations", "compute"])"), "status") == "correct");
    CHECK(text_at(chosen(item, R"(["quadratic", "compute"])"), "misconception") == "context-parallel-quadratic");
}

// ---- why-time-stops-falling -------------------------------------------------------------------

TEST_CASE(
    "in the scaling question's run, 16 times the GPUs is far from 16 times faster, and the curve stops paying where "
    "the prompt says",
    "[quiz][clusters]") {
    const std::string item = built_in_item("why-time-stops-falling");
    const json::Value estimate = estimate_of(simulation_of(item));
    const double gpus = number_at(estimate, "scenario.parallel.gpus");
    double seconds_at_gpus = 0.0, seconds_at_16x = 0.0;
    for (const auto& point : estimate.find("compute")->find("time_over_gpus_communication")->items) {
        if (point.find("gpus")->number == gpus) seconds_at_gpus = point.find("seconds")->number;
        if (point.find("gpus")->number == 16.0 * gpus) seconds_at_16x = point.find("seconds")->number;
    }
    REQUIRE(seconds_at_16x > 0.0);
    CHECK(seconds_at_gpus / seconds_at_16x < 8.0);
    const double stops = number_at(estimate, "communication.stops_paying_gpus");
    CHECK(stops > 16.0 * gpus);
    CHECK(text_at(estimate, "communication.stops_paying_dominant") == "idle");
    // Idle: past one sequence per data-parallel replica (tensor 8 × pipeline 4 GPUs each).
    CHECK(stops / 32.0 >= number_at(estimate, "communication.global_batch"));
    char written[32];
    std::snprintf(written, sizeof written, "from %d,%03d GPUs on", static_cast<int>(stops) / 1000,
                  static_cast<int>(stops) % 1000);
    CHECK(text_at(instance(item, 0), "prompt").find(written) != std::string::npos);
}

TEST_CASE(
    "in the scaling question's run, the bubble's and the gradient exchange's shares grow with the GPUs at a held "
    "batch, and the FLOPs do not",
    "[quiz][clusters]") {
    // docs/model.md §13: (p − 1)/μ with μ = ⌈batch/d⌉ falling; the same gradient bytes each step.
    const json::Value at_1024 = estimate_of(simulation_of(built_in_item("why-time-stops-falling")));
    const std::string batch = std::to_string(static_cast<int>(number_at(at_1024, "communication.global_batch")));
    const json::Value at_8192 = estimate_of(R"({"model": {"preset": "llama3-70b"}, "training": {"global_batch": )" +
                                            batch + R"(}, "parallel": {"gpus": 8192, "tensor": 8, "pipeline": 4}})");
    CHECK(exposed_share(at_8192, "pipeline_bubble") > exposed_share(at_1024, "pipeline_bubble"));
    CHECK(exposed_share(at_8192, "data_parallel") > exposed_share(at_1024, "data_parallel"));
    CHECK(number_at(at_8192, "compute.flops") == number_at(at_1024, "compute.flops"));
}

TEST_CASE("the scaling question is right with the bubble, the gradients and idle GPUs, and names more FLOPs as a slip",
          "[quiz][clusters]") {
    const std::string item = built_in_item("why-time-stops-falling");
    CHECK(text_at(chosen(item, R"(["bubble", "gradients", "idle"])"), "status") == "correct");
    CHECK(text_at(chosen(item, R"(["bubble", "more-flops"])"), "misconception") == "more-gpus-more-flops");
}
