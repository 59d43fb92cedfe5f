// What course authors and quiz-takers tripped over (issue 24): show-me derived from the answer, one
// validation for the widget and quiz-check, answers in the unit a person would use, placeholders
// written as their kind, draws that belong together, and numbers in the widget's language.
#include "catch_include.hpp"
#include "quiz_support.hpp"

#include <cmath>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "engine/api/api.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/quantity.hpp"

using trainscope::Language;
using trainscope::LanguageScope;
using trainscope::quiz_check_bank_json;
using trainscope::quiz_grade_json;
using trainscope::quiz_instance_json;
using trainscope::quiz_validate_bank_json;
namespace json = trainscope::json;
namespace quantity = trainscope::quantity;

namespace {

using trainscope::quiz_testing::number_at;
using trainscope::quiz_testing::parse_json;
using trainscope::quiz_testing::source_file;
using trainscope::quiz_testing::text_at;

// A 70B model's running memory for one conversation: the KV cache, which no figure draws alone.
const char* const kv_cache_item = R"({
  "id": "kv", "takeaway": "memory", "kind": "numeric",
  "prompt": "Llama 3 70B, one conversation of {inference.context} tokens: how much KV cache?",
  "scenario": {"model": {"preset": "llama3-70b"}},
  "answer": {"path": "inference.kv_cache", "unit": "GB", "tolerance": 0.05},
  "explanation": "Keys and values for every token and layer: {answer}.",
  "simulation": {"model": {"preset": "llama3-70b"}}
})";

// ZeRO §5 (Rajbhandari et al. 2019): 16 bytes × 7.5B ÷ 64 GPUs = 1.88 GB per GPU with stage 3.
const char* const states_item = R"({
  "id": "states", "takeaway": "memory", "kind": "numeric",
  "prompt": "A {model.params}-parameter model on {parallel.gpus} GPUs with ZeRO-3: model states per GPU?",
  "scenario": {"model": {"params": 7500000000}, "parallel": {"gpus": 64, "zero_stage": 3}},
  "answer": {"path": "training.per_gpu.model_states", "unit": "GB", "tolerance": 0.05},
  "misconceptions": [
    {"id": "no-sharding", "overrides": {"parallel": {"zero_stage": 0}}, "feedback": "That is every state on every GPU."}
  ],
  "explanation": "16 bytes × {model.params} ÷ {parallel.gpus} = {answer}.",
  "simulation": {"model": {"params": 7500000000}, "parallel": {"gpus": 64, "zero_stage": 3}}
})";

// The lesson's Llama 3 405B run (docs/model.md §6): 6 × N × D over 16,384 H100s at 40%.
const char* const days_item = R"({
  "id": "days", "takeaway": "compute", "kind": "numeric",
  "prompt": "{params} parameters, {training.tokens} tokens, {parallel.gpus} GPUs: days?",
  "scenario": {"model": {"preset": "llama3-405b"}, "training": {"tokens": 15600000000000}, "parallel": {"gpus": 16384}},
  "answer": {"path": "compute.seconds", "unit": "days", "tolerance": 0.1},
  "explanation": "{compute.flops} over {parallel.gpus} GPUs: {answer}.",
  "simulation": {"model": {"preset": "llama3-405b"}, "training": {"tokens": 15600000000000}, "parallel": {"gpus": 16384}},
  "show": {"section": "time", "figure": "seconds"}
})";

// "true", "false" or "<absent>": a missing member is a failed check, never a crash.
std::string flag_at(const json::Value& value, const char* path) {
    const json::Value* found = value.find_path(path);
    if (!found || found->kind != json::Kind::boolean) return "<absent>";
    return found->boolean ? "true" : "false";
}

std::string with(const std::string& item, const std::string& from, const std::string& to) {
    std::string text = item;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

std::string bank(const std::string& items) {
    return R"({"version": 1, "takeaways": [{"id": "memory", "text": "Memory."}, {"id": "compute", "text": "Compute."}], "items": [)" +
           items + "]}";
}

int errors_at(const json::Value& report, const std::string& item, const std::string& field) {
    int count = 0;
    for (const auto& e : report.find("errors")->items)
        count += text_at(e, "item") == item && text_at(e, "field") == field;
    return count;
}

std::string message_at(const json::Value& report, const std::string& item, const std::string& field) {
    for (const auto& e : report.find("errors")->items)
        if (text_at(e, "item") == item && text_at(e, "field") == field) return text_at(e, "message");
    return "";
}

std::string built_in_item(const std::string& id) {
    const json::Value bank_value = parse_json(source_file("web/quiz/bank.json"));
    for (const auto& item : bank_value.find("items")->items)
        if (text_at(item, "id") == id) return json::serialize(item);
    FAIL("no item " << id << " in the built-in bank");
    return {};
}

json::Value grade(const std::string& item, std::uint32_t seed, const std::string& text) {
    json::Writer answer;
    answer.begin_object().field("text", text).end_object();
    return parse_json(quiz_grade_json(item, seed, answer.text()));
}

}  // namespace

// ---- Item 1: show-me derived from the answer; any numeric field answerable ----------------------

TEST_CASE("a numeric item without a show lands on the figure that draws its answer", "[quiz][show]") {
    const std::string item = with(days_item, R"(,
  "show": {"section": "time", "figure": "seconds"})",
                                  "");
    const json::Value asked = parse_json(quiz_instance_json(item, 0));
    INFO(json::serialize(asked));
    CHECK(asked.find("errors")->items.empty());
    CHECK(text_at(asked, "show.section") == "time");
    CHECK(text_at(asked, "show.figure") == "seconds");
    CHECK(flag_at(asked, "show.answer_drawn") == "true");
}

TEST_CASE("a question on the KV cache is asked, and show-me lands on the figure that holds it", "[quiz][show]") {
    const json::Value report = parse_json(quiz_validate_bank_json(bank(std::string(kv_cache_item) + "," + days_item)));
    INFO(json::serialize(report));
    CHECK(report.find("ok")->boolean);
    const json::Value asked = parse_json(quiz_instance_json(kv_cache_item, 0));
    const json::Value estimate = parse_json(trainscope::estimate_json(R"({"model": {"preset": "llama3-70b"}})"));
    CHECK(number_at(asked, "expected") == number_at(estimate, "inference.kv_cache"));
    // No figure draws the KV cache alone: the memory section's running total holds it, and the
    // instance says so, for the page to name the part.
    CHECK(text_at(asked, "show.section") == "memory");
    CHECK(text_at(asked, "show.figure") == "inference-total");
    CHECK(flag_at(asked, "show.answer_drawn") == "false");
}

TEST_CASE("a show on a figure that does not draw the answer is told which figure does", "[quiz][show]") {
    const std::string item = with(days_item, R"("figure": "seconds")", R"("figure": "flops")");
    const json::Value report = parse_json(quiz_check_bank_json(bank(std::string(kv_cache_item) + "," + item), 3));
    CHECK(message_at(report, "days", "show.figure") ==
          "\"flops\" does not draw the answer \"compute.seconds\"; \"seconds\" in the time section does: name it, or "
          "leave show out");
    // The simulation is the question's scenario: it is not what is wrong.
    CHECK(errors_at(report, "days", "simulation") == 0);
}

TEST_CASE("a show elsewhere for a field no figure draws says where it is held, not to pick a figure", "[quiz][show]") {
    const std::string item =
        with(kv_cache_item, R"("simulation")", R"("show": {"section": "time", "figure": "flops"}, "simulation")");
    const json::Value report = parse_json(quiz_check_bank_json(bank(item + "," + days_item), 3));
    const std::string advice = message_at(report, "kv", "show.section");
    CHECK(advice ==
          "no figure draws \"inference.kv_cache\"; it is part of \"inference-total\" in the memory section: leave show "
          "out to land there");
    CHECK(errors_at(report, "kv", "show.figure") == 0);
}

TEST_CASE("quiz-check lists an error of an item that draws nothing once, whatever the seeds", "[quiz][bank]") {
    const std::string item = with(days_item, "{answer}", "many days");
    const json::Value report = parse_json(quiz_check_bank_json(bank(std::string(kv_cache_item) + "," + item), 20));
    CHECK(errors_at(report, "days", "explanation") == 1);
}

// ---- Item 2: one validation for the widget and quiz-check ---------------------------------------

TEST_CASE("an explanation that shows its arithmetic to the answer is accepted by the widget and quiz-check",
          "[quiz][bank]") {
    // The unsharded states (120 GB) are the no-sharding misconception's value, shown here as a step
    // of the sum that ends in the answer.
    const std::string item = with(states_item, "16 bytes × {model.params} ÷ {parallel.gpus} = {answer}.",
                                  "16 bytes × {model.params} = {training.model_states.total}; "
                                  "{training.model_states.total} ÷ {parallel.gpus} = {answer}.");
    // Named as the page names it, as banks written before show was optional do.
    const std::string shown = with(
        item, R"("simulation")", R"("show": {"section": "sharding", "figure": "model-states-per-gpu"}, "simulation")");
    for (const std::string& report_text : {quiz_validate_bank_json(bank(shown + "," + days_item)),
                                           quiz_check_bank_json(bank(shown + "," + days_item), 3)}) {
        const json::Value report = parse_json(report_text);
        INFO(report_text);
        CHECK(report.find("ok")->boolean);
    }
}

TEST_CASE("the widget refuses an explanation that confirms a misconception, as quiz-check does", "[quiz][bank]") {
    // The old ZeRO-3 fault: "… 120 GB in all", the unsharded total, for a per-GPU answer.
    const std::string item = with(states_item, "= {answer}.", "= {answer}, {training.model_states.total} in all.");
    const json::Value widget = parse_json(quiz_validate_bank_json(bank(item + "," + days_item)));
    const json::Value check = parse_json(quiz_check_bank_json(bank(item + "," + days_item), 3));
    CHECK(errors_at(widget, "states", "explanation") == 1);
    CHECK(errors_at(check, "states", "explanation") == 1);
    REQUIRE(widget.find("unusable")->items.size() == 1);
    CHECK(widget.find("unusable")->items[0].number == 0);
}

// ---- Item 5: answers in the unit a person would use ---------------------------------------------

TEST_CASE("a memory answer asked in TB is written in GB when it is under a terabyte", "[quiz][units]") {
    // 16 bytes × 16 billion parameters = 256 GB (ZeRO §3.1), not "0.256 TB".
    const std::string item =
        with(built_in_item("training-memory-model-states"), R"("scenario":{"model":{"params":70000000000}})",
             R"("scenario":{"model":{"params":16000000000}})");
    const json::Value asked = parse_json(quiz_instance_json(item, 0));
    CHECK(text_at(asked, "expected_display") == "256 GB");
    const json::Value right = grade(item, 0, "0.256 TB");
    CHECK(text_at(right, "status") == "correct");
    CHECK(text_at(right, "message") == "Correct: 256 GB.");
    CHECK(text_at(right, "explanation").find("= 256 GB.") != std::string::npos);
}

TEST_CASE("a time answer asked in days is written in hours when it is under a day", "[quiz][units]") {
    // 6 × 10⁹ × 3.3 × 10¹⁰ = 1.98 × 10²⁰ FLOPs on 64 H100s (989 TFLOP/s) at 40%: 7,820 s, about
    // 2.2 hours, not "0.0905 days" (docs/model.md §6).
    const std::string item = with(
        days_item,
        R"("scenario": {"model": {"preset": "llama3-405b"}, "training": {"tokens": 15600000000000}, "parallel": {"gpus": 16384}})",
        R"("scenario": {"model": {"params": 1000000000}, "training": {"tokens": 33000000000}, "parallel": {"gpus": 64}})");
    const std::string display = text_at(parse_json(quiz_instance_json(item, 0)), "expected_display");
    CHECK(display.find("hours") != std::string::npos);
    CHECK(display.find("days") == std::string::npos);
}

TEST_CASE("the read-back keeps the learner's own unit: hours stay hours", "[quiz][units]") {
    const json::Value graded = grade(days_item, 0, "1600 hours");
    CHECK(text_at(graded, "answer_display") == "1,600 hours");
}

// ---- Item 6: every placeholder written as its kind, in every item and language ------------------

namespace {

// What a placeholder's field measures, from docs/scenario.md's table of estimate fields.
quantity::UnitKind kind_of_field(const std::string& path) {
    auto has = [&](const char* part) { return path.find(part) != std::string::npos; };
    if (has("bytes_per_param")) return quantity::UnitKind::memory;
    if (has("min_gpus") || has("utilization") || has("mfu") || has("overhead") || path == "answer")
        return quantity::UnitKind::number;  // counts and fractions: not checked here
    if (has("per_gpu.") || has("model_states.") || has("inference.weights") || has("inference.kv_cache") ||
        has("inference.total") || has("memory_bytes") || has("training.activations"))
        return quantity::UnitKind::memory;
    if (has("peak_flops")) return quantity::UnitKind::rate;
    if (has("flops")) return quantity::UnitKind::compute;
    if (has("seconds")) return quantity::UnitKind::time;
    return quantity::UnitKind::number;
}

std::vector<std::string> placeholders_in(const std::string& text) {
    std::vector<std::string> names;
    for (std::size_t open = text.find('{'); open != std::string::npos; open = text.find('{', open + 1)) {
        const std::size_t close = text.find('}', open);
        if (close == std::string::npos) break;
        const std::string name = text.substr(open + 1, close - open - 1);
        if (name.find('|') == std::string::npos) names.push_back(name);
    }
    return names;
}

// Every text of an item, its translations' too.
void collect_texts(const json::Value& value, std::vector<std::string>& texts) {
    if (value.kind == json::Kind::string) texts.push_back(value.text);
    for (const auto& member : value.members)
        if (member.first != "scenario" && member.first != "simulation" && member.first != "randomize")
            collect_texts(member.second, texts);
    for (const auto& entry : value.items) collect_texts(entry, texts);
}

}  // namespace

TEST_CASE("every placeholder of every built-in item is written as what it measures, in en, de and es",
          "[quiz][placeholders]") {
    // Issue 24: question 24 said the gathered layers "add 3.75 billion" (bytes written as a count).
    const json::Value bank_value = parse_json(source_file("web/quiz/bank.json"));
    const json::Value german = parse_json(source_file("i18n/de/bank.json"));
    const json::Value spanish = parse_json(source_file("i18n/es/bank.json"));
    int checked = 0;
    for (const json::Value& item : bank_value.find("items")->items) {
        std::vector<std::string> texts;
        collect_texts(item, texts);
        for (const json::Value* translations : {german.find("items"), spanish.find("items")})
            if (const json::Value* translation = translations->find(text_at(item, "id")))
                collect_texts(*translation, texts);
        for (const std::string& text : texts) {
            for (const std::string& path : placeholders_in(text)) {
                const quantity::UnitKind kind = kind_of_field(path);
                if (kind == quantity::UnitKind::number) continue;
                // The placeholder alone, as the item fills it (its scenario, else its simulation).
                std::string probe = json::serialize(item);
                probe = with(probe, "\"prompt\":\"", "\"prompt\":\"{" + path + "} \\u2060");
                for (const Language language : {Language::en, Language::de, Language::es}) {
                    LanguageScope scope(language);
                    const std::string prompt = text_at(parse_json(quiz_instance_json(probe, 0)), "prompt");
                    const std::string written = prompt.substr(0, prompt.find(" \u2060"));
                    const quantity::Parsed read = quantity::parse(written);
                    INFO(text_at(item, "id") << ": {" << path << "} is written \"" << written << "\"");
                    CHECK(read.ok);
                    CHECK(read.has_unit);
                    CHECK(quantity::unit_kind_name(read.kind) == std::string(quantity::unit_kind_name(kind)));
                    ++checked;
                }
            }
        }
    }
    CHECK(checked > 30);
}

// ---- Item 8: the lesson's Llama 3 405B run, one figure ------------------------------------------

TEST_CASE("the lesson's couple of months for Llama 3 405B is graded correct, on the time section's figure",
          "[quiz][bank]") {
    const std::string item = built_in_item("cluster-days");
    const json::Value asked = parse_json(quiz_instance_json(item, 0));
    // One parameter count: the preset's, as the time section computes it for the same run.
    const json::Value estimate = parse_json(trainscope::estimate_json(
        R"({"model": {"preset": "llama3-405b"}, "training": {"tokens": 15600000000000}, "parallel": {"gpus": 16384}})"));
    CHECK(number_at(asked, "expected") == number_at(estimate, "compute.seconds"));
    CHECK(text_at(asked, "scenario.model.preset") == "llama3-405b");
    // The lesson: "Meta used up to 16,384 H100s, which brings it down to a couple of months."
    CHECK(text_at(grade(item, 0, "2 months"), "status") == "correct");
    CHECK(text_at(grade(item, 0, "two months"), "status") == "correct");
}

// ---- Item 9: draws that belong together ---------------------------------------------------------

TEST_CASE("drawn GPUs grow with the drawn model, and drawn runs last days to months", "[quiz][randomize]") {
    const std::string days = built_in_item("cluster-days");
    const std::string zero3 = built_in_item("zero3-per-gpu");
    for (std::uint32_t seed = 1; seed <= 200; ++seed) {
        const json::Value run = parse_json(quiz_instance_json(days, seed));
        const double gpus_per_billion =
            number_at(run, "scenario.parallel.gpus") / number_at(run, "scenario.model.params") * 1e9;
        INFO("cluster-days seed " << seed << ": " << json::serialize(*run.find("scenario")));
        // 16,384 GPUs for 405B is 40 per billion (Llama 3 Herd of Models 2024, §3.3).
        CHECK(gpus_per_billion >= 10);
        CHECK(gpus_per_billion <= 60);
        CHECK(number_at(run, "expected") >= 86400.0);           // a day
        CHECK(number_at(run, "expected") <= 365.25 * 86400.0);  // a year
        const json::Value sharded = parse_json(quiz_instance_json(zero3, seed));
        const double zero3_per_billion =
            number_at(sharded, "scenario.parallel.gpus") / number_at(sharded, "scenario.model.params") * 1e9;
        INFO("zero3-per-gpu seed " << seed << ": " << json::serialize(*sharded.find("scenario")));
        // ZeRO's own example: 7.5B on 64 GPUs, 8.5 per billion.
        CHECK(zero3_per_billion >= 2);
        CHECK(zero3_per_billion <= 25);
    }
}

TEST_CASE("an English article agrees with the number after it: an 83 billion, a 7 billion", "[quiz][placeholders]") {
    const std::string item = with(states_item, R"("scenario": {"model": {"params": 7500000000})",
                                  R"("scenario": {"model": {"params": 83000000000})");
    CHECK(text_at(parse_json(quiz_instance_json(item, 0)), "prompt").rfind("An 83 billion-parameter model", 0) == 0);
    CHECK(text_at(parse_json(quiz_instance_json(states_item, 0)), "prompt").rfind("A 7.5 billion-parameter model", 0) ==
          0);
    const std::string eleven = with(states_item, R"("scenario": {"model": {"params": 7500000000})",
                                    R"("scenario": {"model": {"params": 11000000000})");
    CHECK(text_at(parse_json(quiz_instance_json(eleven, 0)), "prompt").rfind("An 11 billion", 0) == 0);
}

// ---- Item 10: input help that fits the field ----------------------------------------------------

TEST_CASE("the example in a not-a-number message fits what the question asks", "[quiz][grade]") {
    const std::string gpus = built_in_item("run-70b-gpus");
    const std::string message = text_at(grade(gpus, 0, "abc"), "message");
    INFO(message);
    CHECK(message.find("TB") == std::string::npos);
    CHECK(message.find("GPUs") != std::string::npos);
    const std::string bytes = built_in_item("train-bytes-per-parameter");
    const json::Value empty = parse_json(quiz_grade_json(bytes, 0, "{}"));
    INFO(text_at(empty, "message"));
    CHECK(text_at(empty, "message").find("TB") == std::string::npos);
    CHECK(text_at(empty, "message").find("bytes") != std::string::npos);
}

TEST_CASE("a number word answers a question in English, German and Spanish", "[quiz][grade]") {
    // ZeRO §3.1: 16 bytes per parameter for mixed-precision AdamW.
    const std::string bytes = built_in_item("train-bytes-per-parameter");
    CHECK(text_at(grade(bytes, 0, "sixteen"), "status") == "correct");
    {
        LanguageScope german(Language::de);
        CHECK(text_at(grade(bytes, 0, "sechzehn Byte"), "status") == "correct");
    }
    LanguageScope spanish(Language::es);
    CHECK(text_at(grade(bytes, 0, "dieciséis bytes"), "status") == "correct");
}

// ---- Item 17: numbers in the widget's language --------------------------------------------------

TEST_CASE("an English item in a Spanish widget writes its own numbers the Spanish way", "[quiz][i18n]") {
    const std::string item = with(kv_cache_item, "Keys and values for every token and layer: {answer}.",
                                  "Keys and values take 327,680 bytes per token (§3.3, 1.5 each); all told {answer}.");
    LanguageScope spanish(Language::es);
    const std::string explanation = text_at(grade(item, 0, "1 GB"), "explanation");
    INFO(explanation);
    CHECK(explanation.find("327.680 bytes") != std::string::npos);
    CHECK(explanation.find("1,5 each") != std::string::npos);
    CHECK(explanation.find("\u00A73.3") != std::string::npos);  // a section number is not a quantity
}

TEST_CASE("Spanish puts de between millones and the noun it counts", "[quiz][i18n]") {
    // "406.000 millones parámetros" lacked its "de" (RAE, Nueva gramática §21.3).
    const std::string item = with(
        days_item, R"("show")",
        R"("translations": {"es": {"prompt": "{params} parámetros, {training.tokens} tokens, {parallel.gpus} GPU: ¿días?", "explanation": "{compute.flops} entre {parallel.gpus} GPU: {answer}."}}, "show")");
    LanguageScope spanish(Language::es);
    const std::string prompt = text_at(parse_json(quiz_instance_json(item, 0)), "prompt");
    INFO(prompt);
    CHECK(prompt.find("millones de par\u00E1metros") != std::string::npos);
    CHECK(prompt.find("billones de tokens") != std::string::npos);
}

TEST_CASE("Spanish puts no de between millones and a sign of arithmetic", "[quiz][i18n]") {
    // "6 × 406.000 millones de × 15,6 billones de ≈ …" read the signs × and ≈ as nouns.
    const std::string sums =
        with(days_item, R"("{compute.flops} over {parallel.gpus} GPUs: {answer}.")",
             R"("6 × {params} × {training.tokens} ≈ {compute.flops}; ÷ {parallel.gpus} GPUs: {answer}.")");
    const std::string item = with(
        sums.c_str(), R"("show")",
        R"("translations": {"es": {"prompt": "{params} parámetros, {training.tokens} tokens, {parallel.gpus} GPU: ¿días?", "explanation": "6 × {params} × {training.tokens} ≈ {compute.flops}; ÷ {parallel.gpus} GPU: {answer}."}}, "show")");
    LanguageScope spanish(Language::es);
    const std::string explanation = text_at(grade(item, 0, "1 day"), "explanation");
    INFO(explanation);
    CHECK(explanation.find("millones \u00D7") != std::string::npos);
    CHECK(explanation.find("billones \u2248") != std::string::npos);
    CHECK(explanation.find(" de \u00D7") == std::string::npos);
}

// ---- Item 13's engine part: whether a bank draws new numbers -------------------------------------

TEST_CASE("the bank's report says whether any usable item draws new numbers for a retry", "[quiz][bank]") {
    // The quiz intro promises "new numbers" on a retry: only a bank that draws any may say so.
    const json::Value built_in = parse_json(quiz_validate_bank_json(source_file("web/quiz/bank.json")));
    CHECK(flag_at(built_in, "draws_numbers") == "true");
    const json::Value fixed = parse_json(quiz_validate_bank_json(bank(std::string(kv_cache_item) + "," + days_item)));
    CHECK(flag_at(fixed, "draws_numbers") == "false");
}
