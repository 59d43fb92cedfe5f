// The built-in bank's questions on fine-tuning and on what fits (issue 25): why LoRA cuts memory,
// QLoRA's bytes per base parameter, and the largest micro-batch that fits, which the fit search
// answers (docs/quiz.md, "Inverse questions"). Each answer is checked against an independent
// source (the papers' arithmetic, the presets' architecture, the fit search called on its own), so
// a change to the engine that makes a question wrong fails here. Also the figures the page added
// for issues 23 and 25, and where "show me" lands on them (src/engine/quiz/figures.cpp).
#include <cmath>
#include <cstdint>
#include <fstream>
#include <set>
#include <sstream>
#include <string>

#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/api/fit.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "estimate_support.hpp"
#include "quiz_support.hpp"

namespace json = trainscope::json;
using trainscope::quiz_grade_json;
using trainscope::quiz_instance_json;
using trainscope::quiz_validate_bank_json;
using trainscope::testing::estimate_of;
using trainscope::testing::number_at;

namespace {

using trainscope::quiz_testing::built_in_bank;
using trainscope::quiz_testing::built_in_item;
using trainscope::quiz_testing::instance;
using trainscope::quiz_testing::parse_json;
using trainscope::quiz_testing::replaced;
using trainscope::quiz_testing::text_at;
using trainscope::quiz_testing::typed;

// ZeRO (Rajbhandari et al. 2019) §3.1: mixed-precision Adam keeps 2 + 2 + 4 + 8 = 16 bytes per
// trained parameter; a frozen BF16 weight keeps its 2 bytes (docs/model.md §15).
constexpr double trained_bytes_per_param = 16.0;
constexpr double bf16_bytes = 2.0;

std::string scenario_of(const json::Value& asked) { return json::serialize(*asked.find("scenario")); }

// The fit search's answer for a scenario, called as `trainscope fit` calls it.
json::Value fit_of(const std::string& scenario) { return parse_json(trainscope::fit_json(scenario)); }

// A preset's architecture as `trainscope presets` lists it: an input read apart from the estimate.
json::Value preset(const std::string& id) {
    const json::Value presets = parse_json(trainscope::presets_json());
    for (const auto& entry : presets.items)
        if (text_at(entry, "id") == id) return entry;
    FAIL("no preset " << id);
    return {};
}

// Hu et al. 2021 §4.1: beside W (d_in × d_out) LoRA trains r·(d_in + d_out) parameters; on the
// query (h → a·d_h) and value (h → a_kv·d_h) projections of every layer.
double lora_q_v_params(const json::Value& model, double rank) {
    const double hidden = number_at(model, "architecture.hidden");
    const double head_dim = hidden / number_at(model, "architecture.heads");
    const double query = hidden + number_at(model, "architecture.heads") * head_dim;
    const double value = hidden + number_at(model, "architecture.kv_heads") * head_dim;
    return number_at(model, "architecture.layers") * rank * (query + value);
}

std::string bank_of(const std::string& items) {
    return std::string(R"({"version": 1, "takeaways": [{"id": "memory", "text": "Memory."}], "items": [)") + items +
           "]}";
}

bool has_error(const json::Value& report, const std::string& item, const std::string& field) {
    for (const auto& e : report.find("errors")->items)
        if (text_at(e, "item") == item && text_at(e, "field") == field) return true;
    return false;
}

// A numeric item on `path` of a LoRA run of Llama 3 8B on 8 GPUs, landing where its field is.
std::string item_on(const std::string& path, const std::string& scenario_extra = "") {
    const std::string scenario = R"({"model": {"preset": "llama3-8b"}, "training": {"method": "qlora")" +
                                 scenario_extra + R"(}, "parallel": {"gpus": 8, "zero_stage": 3}})";
    return R"({"id": "q", "takeaway": "memory", "kind": "numeric", "prompt": "How much?", "scenario": )" + scenario +
           R"(, "answer": {"path": ")" + path + R"(", "unit": "", "tolerance": 0.01},
  "explanation": "{answer}.", "simulation": )" +
           scenario + "}";
}

const char* const fit_item = R"item({
  "id": "fits", "takeaway": "memory", "kind": "numeric",
  "prompt": "{params} parameters on {parallel.gpus} GPUs: the largest micro-batch? ({fit.largest_micro_batch.value})",
  "scenario": {"model": {"preset": "llama3-8b"}, "training": {"sequence": 4096}, "parallel": {"gpus": 8, "zero_stage": 3}},
  "answer": {"path": "fit.largest_micro_batch.value", "unit": "", "tolerance": 0.01},
  "misconceptions": [{"id": "no-sharding", "overrides": {"parallel": {"zero_stage": 0}}, "feedback": "ZeRO."}],
  "explanation": "{answer} sequences.",
  "simulation": {"model": {"preset": "llama3-8b"}, "training": {"sequence": 4096}, "parallel": {"gpus": 8, "zero_stage": 3}}
})item";

}  // namespace

// ---- the fit search as an answer source ---------------------------------------------------------

TEST_CASE("a numeric item may ask for the fit search's largest micro-batch, and expects the search's own answer",
          "[quiz][fit]") {
    const json::Value asked = instance(fit_item, 0);
    const double searched = number_at(fit_of(scenario_of(asked)), "largest_micro_batch.value");
    REQUIRE(searched >= 1);
    CHECK(number_at(asked, "expected") == searched);
    CHECK(text_at(asked, "show.section") == "fit");
    CHECK(text_at(asked, "show.figure") == "fit-largest-micro-batch");
    CHECK(asked.find_path("show.answer_drawn")->boolean);
}

TEST_CASE("a placeholder may name a number of the fit search", "[quiz][fit]") {
    const json::Value asked = instance(fit_item, 0);
    const double searched = number_at(fit_of(scenario_of(asked)), "largest_micro_batch.value");
    CHECK(text_at(asked, "prompt").find("(" + std::to_string(static_cast<int>(searched)) + ")") != std::string::npos);
}

TEST_CASE("a misconception's overrides search again for the changed scenario", "[quiz][fit]") {
    // Llama 3 8B without sharding keeps 16 bytes × 8.03 billion = 128 GB of model states on every
    // 80 GB GPU (docs/model.md §2): nothing fits, so the misconception's answer is 0.
    const std::string unsharded = replaced(scenario_of(instance(fit_item, 0)), "\"zero_stage\":3", "\"zero_stage\":0");
    REQUIRE(number_at(fit_of(unsharded), "largest_micro_batch.value") == 0);
    const json::Value graded = typed(fit_item, 0, "0");
    CHECK(text_at(graded, "status") == "incorrect");
    CHECK(text_at(graded, "misconception") == "no-sharding");
}

TEST_CASE("a question on the largest micro-batch where nothing fits is refused with the search's reason",
          "[quiz][fit]") {
    const std::string nothing = replaced(fit_item, R"("zero_stage": 3}},
  "answer")",
                                         R"("zero_stage": 0}},
  "answer")");
    const json::Value asked = parse_json(quiz_instance_json(nothing, 0));
    REQUIRE(asked.find("errors")->items.size() == 1);
    const json::Value& error = asked.find("errors")->items[0];
    CHECK(text_at(error, "field") == "answer.path");
    CHECK(text_at(error, "message").find("even a micro-batch of one sequence needs") != std::string::npos);
}

TEST_CASE("a fit path that names no number of the search is an error naming it", "[quiz][fit]") {
    const json::Value asked = parse_json(quiz_instance_json(
        replaced(fit_item, "fit.largest_micro_batch.value\", \"unit\"", "fit.largest_micro_batch.valu\", \"unit\""),
        0));
    REQUIRE_FALSE(asked.find("errors")->items.empty());
    CHECK(text_at(asked.find("errors")->items[0], "field") == "answer.path");
}

// ---- the figures of issues 23 and 25 -------------------------------------------------------------

TEST_CASE("fine-tuning answers land on the memory section's LoRA figures", "[quiz][show][fit]") {
    // Drawn: the figure's data-value is the field. Held: the field is part of that figure.
    const json::Value base = instance(item_on("training.fine_tuning.base_bytes_per_param"), 0);
    CHECK(text_at(base, "show.figure") == "base-bytes-per-param");
    CHECK(base.find_path("show.answer_drawn")->boolean);
    const json::Value trainable = instance(item_on("training.fine_tuning.trainable_params"), 0);
    CHECK(text_at(trainable, "show.figure") == "trainable-params");
    CHECK(trainable.find_path("show.answer_drawn")->boolean);
    const json::Value checkpoint = instance(item_on("training.fine_tuning.checkpoint_bytes"), 0);
    CHECK(text_at(checkpoint, "show.figure") == "adapter-checkpoint");
    CHECK(checkpoint.find_path("show.answer_drawn")->boolean);
    const json::Value bits = instance(item_on("training.fine_tuning.base_bits_per_param"), 0);
    CHECK(text_at(bits, "show.figure") == "base-bytes-per-param");
    CHECK_FALSE(bits.find_path("show.answer_drawn")->boolean);
    const json::Value frozen = instance(item_on("training.fine_tuning.frozen_params"), 0);
    CHECK(text_at(frozen, "show.section") == "memory");
    CHECK(text_at(frozen, "show.figure") == "trainable-params");
    CHECK_FALSE(frozen.find_path("show.answer_drawn")->boolean);
}

TEST_CASE("communication answers land on the time curve or the step's communication phases", "[quiz][show]") {
    const json::Value step = instance(item_on("communication.step_seconds"), 0);
    CHECK(text_at(step, "show.section") == "step");
    CHECK(text_at(step, "show.figure") == "step-communication");
    CHECK(step.find_path("show.answer_drawn")->boolean);
    const json::Value predicted = instance(item_on("communication.predicted_mfu"), 0);
    CHECK(text_at(predicted, "show.figure") == "step-communication");
    CHECK_FALSE(predicted.find_path("show.answer_drawn")->boolean);
    const json::Value stops = instance(item_on("communication.global_batch"), 0);
    CHECK(text_at(stops, "show.section") == "time");
    CHECK(text_at(stops, "show.figure") == "time-curve");
}

TEST_CASE("the layout, the time curve and the fit section's lists take choice items, not numeric answers",
          "[quiz][show]") {
    const std::string choice = R"({"id": "c", "takeaway": "memory", "kind": "single_choice", "prompt": "Which?",
  "options": [{"id": "a", "text": "A", "correct": true, "feedback": "Yes."}, {"id": "b", "text": "B", "correct": false, "feedback": "No."}],
  "explanation": "A.", "simulation": {"model": {"preset": "llama3-8b"}}, "show": {"section": "sharding", "figure": "layout"}})";
    for (const auto& [section, figure] : {std::pair<std::string, std::string>{"sharding", "layout"},
                                          {"time", "time-curve"},
                                          {"fit", "fit-layouts"},
                                          {"fit", "fit-methods"}}) {
        INFO(section << " / " << figure);
        const std::string landing = replaced(choice, R"("section": "sharding", "figure": "layout")",
                                             R"("section": ")" + section + R"(", "figure": ")" + figure + "\"");
        CHECK(parse_json(quiz_validate_bank_json(bank_of(landing))).find("ok")->boolean);
    }
    // A numeric answer is drawn by its own figure: "layout" draws no number.
    const std::string numeric = replaced(item_on("training.per_gpu.model_states"), "\"explanation\"",
                                         R"("show": {"section": "sharding", "figure": "layout"}, "explanation")");
    CHECK(has_error(parse_json(trainscope::quiz_check_bank_json(bank_of(numeric), 0)), "q", "show.figure"));
}

TEST_CASE("issue 23's choice items land on the figures that show what they teach", "[quiz][show]") {
    // Expert and context parallelism: the layout, from its first line (its rows say what each group
    // holds; a row shown only for the scenario is not found in an off-screen section). Why time stops
    // falling: the time section's second curve, with communication and the bubble.
    CHECK(text_at(instance(built_in_item("expert-parallel-splits"), 0), "show.figure") == "layout-gpus");
    CHECK(text_at(instance(built_in_item("context-parallel-long-context"), 0), "show.figure") == "layout-gpus");
    const json::Value why = instance(built_in_item("why-time-stops-falling"), 0);
    CHECK(text_at(why, "show.section") == "time");
    CHECK(text_at(why, "show.figure") == "time-curve");
}

// ---- lora-model-states -----------------------------------------------------------------------------

TEST_CASE("the LoRA question expects 2 bytes per base parameter and 16 per adapter parameter, for 200 seeds",
          "[quiz][finetune]") {
    // Source: docs/model.md §15 and Hu et al. 2021 §4.1 (adapters on q and v), the presets' architecture.
    const std::string item = built_in_item("lora-model-states");
    std::set<std::string> presets_asked;
    for (std::uint32_t seed = 0; seed <= 200; ++seed) {
        const json::Value asked = instance(item, seed);
        const std::string id = text_at(asked, "scenario.model.preset");
        presets_asked.insert(id);
        const json::Value model = preset(id);
        const double adapters = lora_q_v_params(model, number_at(asked, "scenario.training.lora.rank"));
        INFO("seed " << seed << ", " << id);
        CHECK(number_at(asked, "expected") ==
              Approx(bf16_bytes * number_at(model, "params") + trained_bytes_per_param * adapters).epsilon(1e-9));
    }
    CHECK(presets_asked == std::set<std::string>{"llama3-8b", "llama2-13b", "llama3-70b"});
}

TEST_CASE("the LoRA question names the full fine-tuning tally, gradients for every weight and adapters alone",
          "[quiz][finetune]") {
    // Llama 3 8B, rank 8 on q and v: N = 8.03 billion, A = 3.41 million.
    const std::string item = built_in_item("lora-model-states");
    const json::Value model = preset("llama3-8b");
    const double params = number_at(model, "params");
    const double adapters = lora_q_v_params(model, 8);
    const auto bytes = [](double value) { return std::to_string(value) + " bytes"; };
    CHECK(text_at(typed(item, 0, bytes(trained_bytes_per_param * params)), "misconception") ==
          "full-fine-tuning-tally");
    CHECK(text_at(typed(item, 0, bytes(2 * bf16_bytes * params)), "misconception") == "gradients-for-all-weights");
    CHECK(text_at(typed(item, 0, bytes(trained_bytes_per_param * adapters)), "misconception") ==
          "lora-shrinks-weights");
    CHECK(text_at(typed(item, 0, "16.1 GB"), "status") == "correct");
}

// ---- qlora-base-bytes --------------------------------------------------------------------------------

TEST_CASE("the QLoRA question expects NF4 with double quantisation: 4.127 bits, 0.516 bytes", "[quiz][finetune]") {
    // Dettmers et al. 2023 §3: 4 bits, plus 8-bit constants per 64 weights, plus FP32 per 256 of those.
    const double bits = 4.0 + 8.0 / 64.0 + 32.0 / (64.0 * 256.0);
    const std::string item = built_in_item("qlora-base-bytes");
    CHECK(number_at(instance(item, 0), "expected") == Approx(bits / 8.0).epsilon(1e-12));
    CHECK(text_at(typed(item, 0, "0.52 bytes"), "status") == "correct");
}

TEST_CASE("the QLoRA question names 16 bits, half a byte exactly, one byte, bits and single quantisation",
          "[quiz][finetune]") {
    // Single quantisation: 4 + 32/64 = 4.5 bits (Dettmers et al. 2023 §3), 0.5625 bytes.
    const std::string item = built_in_item("qlora-base-bytes");
    const std::pair<const char*, const char*> wrong[] = {{"2 bytes", "sixteen-bit-base"},
                                                         {"0.5 bytes", "exactly-half-byte"},
                                                         {"1 byte", "one-byte"},
                                                         {"4.127", "bits-not-bytes"},
                                                         {"0.5625 bytes", "no-double-quantisation"}};
    for (const auto& [answer, misconception] : wrong) {
        const json::Value graded = typed(item, 0, answer);
        INFO(answer);
        CHECK(text_at(graded, "status") == "incorrect");
        CHECK(text_at(graded, "misconception") == misconception);
    }
}

// ---- largest-micro-batch -----------------------------------------------------------------------------

TEST_CASE(
    "the largest-micro-batch question expects the fit search's answer, which the prompt's figures give, "
    "for 200 seeds",
    "[quiz][fit]") {
    // docs/model.md §4 and §9: at the step's peak, activations and logits grow with the micro-batch b
    // and the rest does not, so b fits while rest + b × (activations + logits) ≤ what the GPU's tensors get (its memory
    // less the CUDA context, docs/model.md §9).
    const std::string item = built_in_item("largest-micro-batch");
    std::set<double> answers;
    for (std::uint32_t seed = 0; seed <= 200; ++seed) {
        const json::Value asked = instance(item, seed);
        const std::string scenario = scenario_of(asked);
        const json::Value one = estimate_of(scenario);
        const double growing =
            number_at(one, "training.per_gpu.activations") + number_at(one, "training.per_gpu.logits");
        const double rest = number_at(one, "training.per_gpu.total") - growing;
        const double room = (number_at(one, "training.overhead.memory_for_tensors") - rest) / growing;
        const double expected = number_at(asked, "expected");
        INFO("seed " << seed << ": " << scenario << ", room for " << room);
        CHECK(expected == number_at(fit_of(scenario), "largest_micro_batch.value"));
        CHECK(expected == std::floor(room));
        CHECK(expected >= 1);
        // The prompt's figures are rounded to three digits: the room must not sit at a whole number.
        CHECK(room - std::floor(room) > 0.02);
        CHECK(room - std::floor(room) < 0.98);
        answers.insert(expected);
    }
    CHECK(answers.size() >= 6);
}

TEST_CASE("the largest-micro-batch question names the whole cluster's sequences", "[quiz][fit]") {
    const std::string item = built_in_item("largest-micro-batch");
    const json::Value asked = instance(item, 0);
    const double whole = number_at(asked, "expected") * number_at(asked, "scenario.parallel.gpus");
    const json::Value graded = typed(item, 0, std::to_string(static_cast<int>(whole)));
    CHECK(text_at(graded, "misconception") == "whole-cluster");
}

// ---- checking explanations ---------------------------------------------------------------------------

TEST_CASE("a count misconception's digits inside a longer number are not shown as its figure", "[quiz][bank]") {
    // "1" (the misconception's value, a count) is part of "1.05 GB" and "141 GB", not a figure of
    // its own; "1 sequence" is.
    const std::string item = std::string(fit_item).replace(std::string(fit_item).find("{answer} sequences."),
                                                           std::string("{answer} sequences.").size(),
                                                           "{answer} sequences, not 1.05 GB of 141 GB.");
    const std::string with_value =
        replaced(item, R"("overrides": {"parallel": {"zero_stage": 0}})", R"("path": "scenario.parallel.tensor")");
    const json::Value clean = parse_json(trainscope::quiz_check_bank_json(bank_of(with_value), 0));
    CHECK_FALSE(has_error(clean, "fits", "explanation"));
    const json::Value shown =
        parse_json(trainscope::quiz_check_bank_json(bank_of(replaced(with_value, "not 1.05 GB", "not 1 sequence")), 0));
    CHECK(has_error(shown, "fits", "explanation"));
}
