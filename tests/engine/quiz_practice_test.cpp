// Practice per takeaway (docs/quiz.md, "Practice"; issue 34 item 1): which question follows a slip
// is data, an item's `practises` list of misconception ids, checked by the engine's bank schema;
// and the built-in bank gives every takeaway at least three kinds of question, so that practice
// is not one question with new numbers.
#include "catch_include.hpp"
#include "quiz_support.hpp"

#include <cstdio>
#include <map>
#include <set>
#include <string>

#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"

using trainscope::quiz_validate_bank_json;
namespace json = trainscope::json;

namespace {

using trainscope::quiz_testing::built_in_bank;
using trainscope::quiz_testing::built_in_item;
using trainscope::quiz_testing::parse_json;
using trainscope::quiz_testing::replaced;
using trainscope::quiz_testing::text_at;
using trainscope::quiz_testing::typed;

const char* const choice_item = R"({
  "id": "run-bytes", "takeaway": "memory", "kind": "single_choice",
  "prompt": "Running in BF16: bytes per parameter?",
  "options": [
    {"id": "two", "text": "2 bytes", "correct": true, "feedback": "BF16 is 16 bits."},
    {"id": "sixteen", "text": "16 bytes", "correct": false, "feedback": "That is training.",
     "misconception": "training-bytes-for-running"}
  ],
  "explanation": "2 bytes each.",
  "simulation": {"model": {"preset": "llama3-70b"}},
  "show": {"section": "memory", "figure": "inference-bytes-per-param"}
})";

std::string practising(const std::string& list) {
    return replaced(choice_item, R"("kind": "single_choice",)",
                    R"("kind": "single_choice", "practises": )" + list + ",");
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

bool usable(const json::Value& report) { return report.find("unusable")->items.empty(); }

// The ids an item of the built-in bank practises.
std::set<std::string> practised_by(const std::string& id) {
    std::set<std::string> slips;
    const json::Value item = parse_json(built_in_item(id));
    if (const json::Value* list = item.find("practises"))
        for (const auto& slip : list->items) slips.insert(slip.text);
    return slips;
}

}  // namespace

TEST_CASE("an item may name the slips it is the next practice question for, its own or another item's",
          "[quiz][practice]") {
    const json::Value report =
        parse_json(quiz_validate_bank_json(bank_of(practising(R"(["training-bytes-for-running", "gib_vs_gb"])"))));
    INFO(json::serialize(report));
    CHECK(report.find("ok")->boolean);
}

TEST_CASE(
    "practises must be a non-empty list of short ids; anything else is an error on the field, and the item "
    "is left out",
    "[quiz][practice]") {
    for (const char* refused : {R"("gib_vs_gb")", R"([])", R"([3])", R"(["Forgot Master"])", R"({})"}) {
        INFO(refused);
        const json::Value report = parse_json(quiz_validate_bank_json(bank_of(practising(refused))));
        const json::Value* error = error_on(report, "practises");
        REQUIRE(error != nullptr);
        CHECK(text_at(*error, "item") == "run-bytes");
        CHECK(!usable(report));
    }
}

TEST_CASE(
    "a practised slip that no item's misconception or option names is a warning of quiz-check naming it; the "
    "item stays usable and the widget says nothing",
    "[quiz][practice]") {
    const std::string bank = bank_of(practising(R"(["gib_vs_gb", "forgot-the-master"])"));
    const json::Value checked = parse_json(trainscope::quiz_check_bank_json(bank, 0));
    const json::Value* warning = nullptr;
    for (const auto& entry : checked.find("warnings")->items)
        if (text_at(entry, "field") == "practises[1]") warning = &entry;
    REQUIRE(warning != nullptr);
    CHECK(text_at(*warning, "message").find("forgot-the-master") != std::string::npos);
    CHECK(checked.find("warnings")->items.size() == 1);  // the grader names gib_vs_gb itself
    const json::Value report = parse_json(quiz_validate_bank_json(bank));
    CHECK(report.find("ok")->boolean);
    CHECK(usable(report));
}

TEST_CASE(
    "the built-in bank's practice follows the lesson's slips: a forgotten master copy leads to what the 16 "
    "bytes hold, 1,000 against 1,024 to a unit question",
    "[quiz][practice]") {
    // The grade names the slip; the bank says which question practises it.
    const std::string train_bytes = built_in_item("train-bytes-per-parameter");
    CHECK(text_at(typed(train_bytes, 0, "12 bytes"), "misconception") == "forgot-master-copy");
    CHECK(practised_by("where-the-16-comes-from").count("forgot-master-copy") == 1);
    const std::string model_states = built_in_item("training-memory-model-states");
    const json::Value expected = parse_json(trainscope::quiz_instance_json(model_states, 0));
    const double bytes = trainscope::quiz_testing::number_at(expected, "expected");
    REQUIRE(bytes > 0);
    // The answer's digits read as TiB but labelled TB: the grader names gib_vs_gb.
    char in_tib[64];
    std::snprintf(in_tib, sizeof in_tib, "%.4g TB", bytes / 1099511627776.0);
    CHECK(text_at(typed(model_states, 0, in_tib), "misconception") == "gib_vs_gb");
    CHECK(practised_by("gib-or-gb") == std::set<std::string>{"gib_vs_gb", "gb_vs_gib", "unit_prefix"});
    // The built-in bank names only slips its grading can name.
    const json::Value report = parse_json(trainscope::quiz_check_bank_json(built_in_bank(), 0));
    INFO(json::serialize(report));
    CHECK(report.find("ok")->boolean);
    for (const auto& entry : report.find("warnings")->items) CHECK(text_at(entry, "field").find("practises") != 0);
}

TEST_CASE("every takeaway of the built-in bank has questions of at least three kinds", "[quiz][practice]") {
    const json::Value bank = parse_json(built_in_bank());
    std::map<std::string, std::set<std::string>> kinds;
    for (const auto& takeaway : bank.find("takeaways")->items) kinds[text_at(takeaway, "id")];
    for (const auto& item : bank.find("items")->items) kinds[text_at(item, "takeaway")].insert(text_at(item, "kind"));
    REQUIRE(kinds.size() == bank.find("takeaways")->items.size());
    for (const auto& [takeaway, found] : kinds) {
        INFO(takeaway);
        CHECK(found.size() >= 3);
    }
}
