// A bank's two sets (docs/quiz.md, "Sets"; issue 31 item 5): each item's `set` is data, checked by
// the schema with a field-named error; an item without one is a lesson item; the built-in bank's
// lesson set is the lesson's size and checks each of its four takeaways, the deeper set the rest.
#include "catalogue_support.hpp"
#include "catch_include.hpp"
#include "quiz_support.hpp"

#include <set>
#include <string>

#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"

using trainscope::quiz_instance_json;
using trainscope::quiz_validate_bank_json;
namespace json = trainscope::json;

namespace {

using trainscope::quiz_testing::built_in_bank;
using trainscope::quiz_testing::parse_json;
using trainscope::quiz_testing::replaced;
using trainscope::quiz_testing::text_at;

const char* const choice_item = R"({
  "id": "run-bytes", "takeaway": "memory", "kind": "single_choice",
  "prompt": "Running in BF16: bytes per parameter?",
  "options": [
    {"id": "two", "text": "2 bytes", "correct": true, "feedback": "BF16 is 16 bits."},
    {"id": "sixteen", "text": "16 bytes", "correct": false, "feedback": "That is training."}
  ],
  "explanation": "2 bytes each.",
  "simulation": {"model": {"preset": "llama3-70b"}},
  "show": {"section": "memory", "figure": "inference-bytes-per-param"}
})";

std::string with_set(const std::string& set_json) {
    return replaced(choice_item, R"("kind": "single_choice",)", R"("kind": "single_choice", "set": )" + set_json + ",");
}

std::string bank_of(const std::string& items) {
    return std::string(R"({"version": 1, "takeaways": [{"id": "memory", "text": "Memory."}], "items": [)") + items +
           "]}";
}

const json::Value* error_on(const json::Value& report, const std::string& field) {
    for (const auto& error : report.find("errors")->items)
        if (text_at(error, "field") == field) return &error;
    return nullptr;
}

}  // namespace

TEST_CASE("an item without a set is asked as a lesson item, so older banks ask every question as before",
          "[quiz][sets]") {
    const json::Value asked = parse_json(quiz_instance_json(choice_item, 0));
    CHECK(text_at(asked, "set") == "lesson");
    CHECK(asked.find("errors")->items.empty());
}

TEST_CASE("an item's set is lesson or deeper, as the instance reports it", "[quiz][sets]") {
    CHECK(text_at(parse_json(quiz_instance_json(with_set(R"("lesson")"), 0)), "set") == "lesson");
    CHECK(text_at(parse_json(quiz_instance_json(with_set(R"("deeper")"), 0)), "set") == "deeper");
    const json::Value report = parse_json(quiz_validate_bank_json(bank_of(with_set(R"("deeper")"))));
    INFO(json::serialize(report));
    CHECK(report.find("ok")->boolean);
}

TEST_CASE("a set other than lesson or deeper is an error on the item's set field, and the item is unusable",
          "[quiz][sets]") {
    for (const char* refused : {R"("advanced")", R"("Lesson")", R"(true)", R"(["deeper"])", R"("")"}) {
        INFO(refused);
        const json::Value report = parse_json(quiz_validate_bank_json(bank_of(with_set(refused))));
        const json::Value* error = error_on(report, "set");
        REQUIRE(error != nullptr);
        CHECK(text_at(*error, "item") == "run-bytes");
        CHECK(text_at(*error, "message").find("\"lesson\"") != std::string::npos);
        CHECK(text_at(*error, "message").find("\"deeper\"") != std::string::npos);
        CHECK(report.find("unusable")->items.size() == 1);
    }
}

TEST_CASE("a misspelt set field is reported as an unknown field", "[quiz][sets]") {
    const std::string item =
        replaced(choice_item, R"("kind": "single_choice",)", R"("kind": "single_choice", "sets": "deeper",)");
    const json::Value report = parse_json(quiz_validate_bank_json(bank_of(item)));
    CHECK(error_on(report, "sets") != nullptr);
}

TEST_CASE("the set error is written in German and Spanish, naming the values as written", "[quiz][sets][i18n]") {
    const std::string item = with_set(R"("advanced")");
    trainscope::testing::install_engine_catalogues(trainscope::Language::de);
    {
        trainscope::LanguageScope german(trainscope::Language::de);
        const json::Value report = parse_json(quiz_validate_bank_json(bank_of(item)));
        REQUIRE(error_on(report, "set") != nullptr);
        CHECK(text_at(*error_on(report, "set"), "message") ==
              "muss \"lesson\" (der Standardwert) oder \"deeper\" sein");
    }
    trainscope::testing::install_engine_catalogues(trainscope::Language::es);
    trainscope::LanguageScope spanish(trainscope::Language::es);
    const json::Value report = parse_json(quiz_validate_bank_json(bank_of(item)));
    REQUIRE(error_on(report, "set") != nullptr);
    CHECK(text_at(*error_on(report, "set"), "message") == "debe ser \"lesson\" (el valor por defecto) o \"deeper\"");
}

namespace {

// The built-in bank's items of one set, and the takeaways they check.
struct BuiltInSet {
    std::set<std::string> ids, takeaways;
};

BuiltInSet built_in_set(const std::string& wanted) {
    BuiltInSet found;
    const json::Value bank = parse_json(built_in_bank());
    for (const auto& item : bank.find("items")->items) {
        const json::Value* set = item.find("set");
        const std::string name = set ? set->text : "lesson";
        if (name != wanted) continue;
        found.ids.insert(text_at(item, "id"));
        found.takeaways.insert(text_at(item, "takeaway"));
    }
    return found;
}

}  // namespace

TEST_CASE("the built-in lesson set is about a dozen questions and checks each of the lesson's four takeaways",
          "[quiz][sets][bank]") {
    // ../shared/lesson.md, "Key takeaways": the four the lesson's items check; "go-deeper" is not one.
    const BuiltInSet lesson = built_in_set("lesson");
    CHECK(lesson.ids.size() >= 10);
    CHECK(lesson.ids.size() <= 14);
    CHECK(lesson.takeaways ==
          std::set<std::string>{"memory-per-parameter", "training-extras", "sharding-checkpointing", "compute-6nd"});
}

TEST_CASE("the built-in deeper set holds what goes past the lesson", "[quiz][sets][bank]") {
    // Issue 31: NF4, LoRA, expert and context parallelism, the largest micro-batch, ZeRO's stages and
    // the step simulation are not in the lesson's 570 words.
    const BuiltInSet deeper = built_in_set("deeper");
    for (const char* id :
         {"qlora-base-bytes", "lora-model-states", "expert-parallel-splits", "context-parallel-long-context",
          "largest-micro-batch", "zero-stages", "moe-flops-active-params", "why-time-stops-falling", "step-peak-when",
          "four-parallelisms"}) {
        INFO(id);
        CHECK(deeper.ids.count(id) == 1);
    }
    CHECK(deeper.takeaways.count("go-deeper") == 1);
}
