// The quiz in the learner's language (docs/quiz.md, "Translations"; docs/i18n.md, "The quiz
// bank"): an item's own translations, validated field by field, used for the current language.
#include "catch_include.hpp"
#include "quiz_support.hpp"

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catalogue_support.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
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

using trainscope::quiz_testing::parse_json;
using trainscope::quiz_testing::source_file;
using trainscope::quiz_testing::text_at;

// ZeRO (Rajbhandari et al. 2019) §3.1: 16 bytes per parameter for the model states; BF16 weights
// are 2 bytes each, so 70e9 parameters hold 1.12 TB of states and 140 GB of weights.
constexpr double model_params = 70e9;
constexpr double model_states_bytes = 16.0 * model_params;
constexpr double bf16_weights_bytes = 2.0 * model_params;

const char* const translated_numeric_item = R"({
  "id": "states", "takeaway": "memory", "kind": "numeric",
  "prompt": "A model with {model.params} parameters: how much memory for its model states?",
  "scenario": {"model": {"params": 70000000000}},
  "answer": {"path": "training.model_states.total", "unit": "TB", "tolerance": 0.05},
  "misconceptions": [
    {"id": "weights-only", "path": "inference.weights", "feedback": "That is the weights alone: {inference.weights}."},
    {"id": "forgot-optimizer-states", "factor": 0.5, "feedback": "Adam's states are missing."}
  ],
  "explanation": "16 bytes x {model.params} = {answer}.",
  "simulation": {"model": {"params": 70000000000}},
  "show": {"section": "sharding", "figure": "model-states-total"},
  "translations": {
    "de": {
      "prompt": "Ein Modell mit {model.params} Parametern: Wie viel Speicher brauchen seine Modellzustände?",
      "explanation": "16 Bytes × {model.params} = {answer}.",
      "misconceptions": {
        "weights-only": {"feedback": "Das sind nur die Gewichte: {inference.weights}."},
        "forgot-optimizer-states": {"feedback": "Die Zustände von Adam fehlen."}
      }
    },
    "es": {
      "prompt": "Un modelo de {model.params} de parámetros: ¿cuánta memoria ocupan sus estados?",
      "explanation": "16 bytes × {model.params} = {answer}.",
      "misconceptions": {
        "weights-only": {"feedback": "Eso son solo los pesos: {inference.weights}."},
        "forgot-optimizer-states": {"feedback": "Faltan los estados de Adam."}
      }
    }
  }
})";

const char* const translated_choice_item = R"({
  "id": "run-bytes", "takeaway": "memory", "kind": "single_choice",
  "prompt": "Running in BF16: bytes per parameter?",
  "options": [
    {"id": "two", "text": "2 bytes", "correct": true, "feedback": "BF16 is 16 bits."},
    {"id": "sixteen", "text": "16 bytes", "correct": false, "feedback": "That is training.", "misconception": "training-bytes"}
  ],
  "explanation": "2 bytes each.",
  "simulation": {"model": {"preset": "llama3-70b"}},
  "show": {"section": "memory", "figure": "inference-bytes-per-param"},
  "translations": {
    "de": {
      "prompt": "Ausführen in BF16: Bytes pro Parameter?",
      "explanation": "Je 2 Bytes.",
      "options": {
        "two": {"text": "2 Bytes", "feedback": "BF16 hat 16 Bit."},
        "sixteen": {"text": "16 Bytes", "feedback": "Das ist das Training."}
      }
    },
    "es": {
      "prompt": "Ejecución en BF16: ¿bytes por parámetro?",
      "explanation": "2 bytes cada uno.",
      "options": {
        "two": {"text": "2 bytes", "feedback": "BF16 ocupa 16 bits."},
        "sixteen": {"text": "16 bytes", "feedback": "Eso es el entrenamiento."}
      }
    }
  }
})";

const char* const translated_multiple_item = R"({
  "id": "extras", "takeaway": "memory", "kind": "multiple_select",
  "prompt": "Which are kept per weight?",
  "options": [
    {"id": "gradients", "text": "Gradients", "correct": true, "feedback": "2 bytes."},
    {"id": "master", "text": "FP32 master copy", "correct": true, "feedback": "4 bytes."},
    {"id": "kv", "text": "KV cache", "correct": false, "feedback": "That is for running."}
  ],
  "explanation": "Gradients, master copy, optimizer states.",
  "simulation": {"model": {"preset": "llama3-70b"}},
  "show": {"section": "memory", "figure": "inference-bytes-per-param"},
  "translations": {
    "de": {
      "prompt": "Was wird pro Gewicht gespeichert?",
      "explanation": "Gradienten, Master-Kopie, Optimizer-Zustände.",
      "options": {
        "gradients": {"text": "Gradienten", "feedback": "2 Bytes."},
        "master": {"text": "FP32-Master-Kopie", "feedback": "4 Bytes."},
        "kv": {"text": "KV-Cache", "feedback": "Der dient dem Ausführen."}
      }
    }
  }
})";

const char* const translated_estimate_item = R"({
  "id": "flops", "takeaway": "memory", "kind": "estimate",
  "prompt": "Train {model.params} parameters on {training.tokens} tokens: FLOPs?",
  "scenario": {"model": {"params": 13000000000}, "training": {"tokens": 2000000000000}},
  "answer": {"path": "compute.flops", "unit": "FLOPs", "tolerance_factor": 2},
  "explanation": "6 x N x D = {answer}.",
  "simulation": {"model": {"params": 13000000000}, "training": {"tokens": 2000000000000}},
  "show": {"section": "time", "figure": "flops"},
  "translations": {
    "de": {"prompt": "Training mit {model.params} Parametern auf {training.tokens} Tokens: FLOPs?", "explanation": "6 × N × D = {answer}."},
    "es": {"prompt": "Entrenar {model.params} parámetros con {training.tokens} tokens: ¿FLOPs?", "explanation": "6 × N × D = {answer}."}
  }
})";

json::Value instance(const std::string& item) { return parse_json(quiz_instance_json(item, 0)); }

json::Value grade(const std::string& item, const std::string& text) {
    json::Writer answer;
    answer.begin_object().field("text", text).end_object();
    return parse_json(quiz_grade_json(item, 0, answer.text()));
}

json::Value choose(const std::string& item, const char* choices_json) {
    return parse_json(quiz_grade_json(item, 0, std::string(R"({"choices": )") + choices_json + "}"));
}

// The item text with one piece swapped, to break one rule of a translation.
std::string with(const std::string& item, const std::string& from, const std::string& to) {
    std::string text = item;
    const std::size_t at = text.find(from);
    REQUIRE(at != std::string::npos);
    return text.replace(at, from.size(), to);
}

// The item as its author wrote it before anyone translated it.
std::string without_translations(const std::string& item) {
    const std::size_t at = item.find(",\n  \"translations\"");
    REQUIRE(at != std::string::npos);
    return item.substr(0, at) + "\n}";
}

std::string bank_of(const std::string& items, const std::string& takeaway_translations = "") {
    return R"({"version": 1, "takeaways": [{"id": "memory", "text": "Training needs 16 bytes per parameter")" +
           (takeaway_translations.empty() ? std::string() : ", \"translations\": " + takeaway_translations) +
           "}], \"items\": [" + items + "]}";
}

// The problem the report lists for `field` of `item`, or "" when there is none.
std::string problem_at(const json::Value& report, const std::string& item, const std::string& field) {
    for (const json::Value& problem : report.find("errors")->items)
        if (text_at(problem, "item") == item && text_at(problem, "field") == field) return text_at(problem, "message");
    return "";
}

std::string all_problems(const json::Value& report) { return json::serialize(*report.find("errors")); }

Language load_catalogue(Language language) { return trainscope::testing::install_engine_catalogues(language); }

}  // namespace

// ---- Asked and graded in the learner's language -----------------------------------------------

TEST_CASE("a translated numeric item is asked in German with numbers written by the German formatter", "[quiz][i18n]") {
    LanguageScope german(Language::de);
    const json::Value asked = instance(translated_numeric_item);
    CHECK(asked.find("errors")->items.empty());
    CHECK(text_at(asked, "translation") == "de");
    // Placeholders are filled in the current language, by the engine's one formatter.
    CHECK(text_at(asked, "prompt") == "Ein Modell mit " + quantity::format_count(model_params) +
                                          " Parametern: Wie viel Speicher brauchen seine Modellzustände?");
}

TEST_CASE("a translated numeric item is graded in German: explanation and misconception feedback", "[quiz][i18n]") {
    LanguageScope german(Language::de);
    quantity::Unit terabytes;
    REQUIRE(quantity::find_unit("TB", terabytes));
    const std::string expected = quantity::format_in_unit(model_states_bytes, terabytes);
    const json::Value right = grade(translated_numeric_item, expected);
    CHECK(text_at(right, "status") == "correct");
    CHECK(text_at(right, "explanation") ==
          "16 Bytes × " + quantity::format_count(model_params) + " = " + expected + ".");
    // 140 GB: the BF16 weights alone, the item's first misconception, told in German with the
    // number written as German writes it.
    const json::Value weights = grade(translated_numeric_item, "140 GB");
    CHECK(text_at(weights, "misconception") == "weights-only");
    CHECK(text_at(weights, "message") ==
          "Das sind nur die Gewichte: " + quantity::format_auto(bf16_weights_bytes, quantity::UnitKind::memory) + ".");
    CHECK(text_at(grade(translated_numeric_item, "0.56 TB"), "message") == "Die Zustände von Adam fehlen.");
}

TEST_CASE("a translated numeric item is asked and graded in Spanish", "[quiz][i18n]") {
    LanguageScope spanish(Language::es);
    const json::Value asked = instance(translated_numeric_item);
    CHECK(text_at(asked, "translation") == "es");
    CHECK(text_at(asked, "prompt") == "Un modelo de " + quantity::format_count(model_params) +
                                          " de parámetros: ¿cuánta memoria ocupan sus estados?");
    const json::Value weights = grade(translated_numeric_item, "140 GB");
    CHECK(text_at(weights, "message") ==
          "Eso son solo los pesos: " + quantity::format_auto(bf16_weights_bytes, quantity::UnitKind::memory) + ".");
    CHECK(text_at(weights, "explanation").rfind("16 bytes × ", 0) == 0);
}

TEST_CASE("a translated choice item gives its options, feedback and expected answer in the language", "[quiz][i18n]") {
    {
        LanguageScope german(Language::de);
        const json::Value asked = instance(translated_choice_item);
        CHECK(text_at(asked, "prompt") == "Ausführen in BF16: Bytes pro Parameter?");
        REQUIRE(asked.find("options")->items.size() == 2);
        CHECK(text_at(asked.find("options")->items[0], "text") == "2 Bytes");
        CHECK(text_at(asked.find("options")->items[1], "text") == "16 Bytes");
        const json::Value wrong = choose(translated_choice_item, R"(["sixteen"])");
        CHECK(text_at(wrong, "status") == "incorrect");
        CHECK(text_at(wrong, "message") == "Das ist das Training.");
        CHECK(text_at(wrong, "misconception") == "training-bytes");
        CHECK(text_at(wrong, "expected_display") == "2 Bytes");
        CHECK(text_at(wrong, "explanation") == "Je 2 Bytes.");
        CHECK(text_at(wrong.find("options")->items[0], "feedback") == "BF16 hat 16 Bit.");
    }
    LanguageScope spanish(Language::es);
    const json::Value right = choose(translated_choice_item, R"(["two"])");
    CHECK(text_at(right, "status") == "correct");
    CHECK(text_at(right, "message").find("BF16 ocupa 16 bits.") != std::string::npos);
    CHECK(text_at(right, "expected_display") == "2 bytes");
    CHECK(text_at(right, "explanation") == "2 bytes cada uno.");
}

TEST_CASE("an item without a translation for the language keeps its own text", "[quiz][i18n]") {
    // The multiple-select item has German only: in Spanish it is asked as written.
    LanguageScope spanish(Language::es);
    const json::Value asked = instance(translated_multiple_item);
    CHECK(asked.find("errors")->items.empty());
    CHECK(asked.find("translation")->kind == json::Kind::null);
    CHECK(text_at(asked, "prompt") == "Which are kept per weight?");
    CHECK(text_at(asked.find("options")->items[2], "text") == "KV cache");
    LanguageScope german(Language::de);
    const json::Value own = instance(without_translations(translated_numeric_item));
    CHECK(own.find("errors")->items.empty());
    CHECK(own.find("translation")->kind == json::Kind::null);
    CHECK(text_at(own, "prompt") == "A model with " + quantity::format_count(model_params) +
                                        " parameters: how much memory for its model states?");
}

TEST_CASE("English learners get the item's own text, translations notwithstanding", "[quiz][i18n]") {
    const json::Value asked = instance(translated_choice_item);
    CHECK(asked.find("translation")->kind == json::Kind::null);
    CHECK(text_at(asked, "prompt") == "Running in BF16: bytes per parameter?");
    CHECK(text_at(choose(translated_choice_item, R"(["sixteen"])"), "message") == "That is training.");
}

TEST_CASE("a broken translation is not used: the item runs in its own language", "[quiz][i18n]") {
    const std::string broken =
        with(translated_choice_item, R"("feedback": "Das ist das Training.")", R"("feedback": "")");
    LanguageScope german(Language::de);
    const json::Value asked = instance(broken);
    CHECK(asked.find("errors")->items.empty());
    CHECK(asked.find("translation")->kind == json::Kind::null);
    CHECK(text_at(asked, "prompt") == "Running in BF16: bytes per parameter?");
    CHECK(text_at(choose(broken, R"(["sixteen"])"), "message") == "That is training.");
    // The Spanish translation of the same item is untouched by the German one's fault.
    LanguageScope spanish(Language::es);
    CHECK(text_at(instance(broken), "prompt") == "Ejecución en BF16: ¿bytes por parámetro?");
}

// ---- Validation: each problem by item, language and field ------------------------------------

TEST_CASE("a complete translation passes validation", "[quiz][i18n]") {
    const json::Value report = parse_json(quiz_check_bank_json(
        bank_of(
            std::string(translated_numeric_item) + "," + translated_choice_item + "," + translated_multiple_item + "," +
                translated_estimate_item,
            R"({"de": "Training braucht 16 Bytes pro Parameter", "es": "Entrenar necesita 16 bytes por parámetro"})"),
        3));
    INFO(all_problems(report));
    CHECK(report.find("ok")->boolean);
}

TEST_CASE("a translation that leaves a text out names the missing field", "[quiz][i18n]") {
    const std::string item =
        with(translated_choice_item, R"("two": {"text": "2 Bytes", "feedback": "BF16 hat 16 Bit."},)",
             R"("two": {"text": "2 Bytes"},)");
    const json::Value report = parse_json(quiz_validate_bank_json(bank_of(item)));
    CHECK(problem_at(report, "run-bytes", "translations.de.options.two.feedback").find("is missing") == 0);
    CHECK_FALSE(report.find("ok")->boolean);
    // The item stays usable: only its German is refused.
    CHECK(report.find("unusable")->items.empty());

    const std::string without_option =
        with(translated_choice_item, R"("sixteen": {"text": "16 Bytes", "feedback": "Das ist das Training."})",
             R"("twelve": {"text": "12 Bytes", "feedback": "Nein."})");
    const json::Value unknown = parse_json(quiz_validate_bank_json(bank_of(without_option)));
    CHECK(problem_at(unknown, "run-bytes", "translations.de.options.sixteen").find("is missing") == 0);
    CHECK(problem_at(unknown, "run-bytes", "translations.de.options.twelve") == "names nothing in the item (a typo?)");

    const std::string without_prompt =
        with(translated_numeric_item,
             R"("prompt": "Un modelo de {model.params} de parámetros: ¿cuánta memoria ocupan sus estados?",)", "");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(without_prompt))), "states", "translations.es.prompt")
              .find("is missing") == 0);

    const std::string without_misconception =
        with(translated_numeric_item, R"("forgot-optimizer-states": {"feedback": "Faltan los estados de Adam."})",
             R"("forgot-optimizer-states": {})");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(without_misconception))), "states",
                     "translations.es.misconceptions.forgot-optimizer-states.feedback")
              .find("is missing") == 0);
}

TEST_CASE("a translation must keep the original's placeholders", "[quiz][i18n]") {
    const std::string lost =
        with(translated_numeric_item, "16 Bytes × {model.params} = {answer}.", "16 Bytes × {model.params}.");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(lost))), "states", "translations.de.explanation") ==
          "lacks the placeholder {answer}, which the original has");
    const std::string added = with(translated_numeric_item, "Das sind nur die Gewichte: {inference.weights}.",
                                   "Das sind nur die Gewichte: {inference.weights} von {inference.total}.");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(added))), "states",
                     "translations.de.misconceptions.weights-only.feedback") ==
          "has the placeholder {inference.total}, which the original does not");
    // A placeholder's format is part of it: {model.params|count} is not {model.params}.
    const std::string reformatted = with(translated_numeric_item, "Ein Modell mit {model.params} Parametern",
                                         "Ein Modell mit {model.params|count} Parametern");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(reformatted))), "states", "translations.de.prompt")
              .find("lacks the placeholder {model.params}") == 0);
}

TEST_CASE("a translation's language must be one the engine speaks, written as its tag", "[quiz][i18n]") {
    const std::string french = with(translated_estimate_item, R"("es": {)", R"("fr": {)");
    const json::Value report = parse_json(quiz_validate_bank_json(bank_of(french)));
    CHECK(problem_at(report, "flops", "translations.fr").find("is not a language the widget speaks") == 0);
    CHECK(report.find("unusable")->items.empty());
    const std::string regional = with(translated_estimate_item, R"("es": {)", R"("es-419": {)");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(regional))), "flops", "translations.es-419") ==
          "write the language as \"es\"");
}

TEST_CASE("a translation with unknown fields or the wrong shape is named by field", "[quiz][i18n]") {
    const std::string typo = with(translated_estimate_item, R"("de": {"prompt")", R"("de": {"hint": "x", "prompt")");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(typo))), "flops", "translations.de.hint")
              .find("unknown field") == 0);
    const std::string options_on_numeric =
        with(translated_estimate_item, R"("de": {"prompt")", R"("de": {"options": {}, "prompt")");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(options_on_numeric))), "flops",
                     "translations.de.options") == "the item has none to translate");
    const std::string option_typo = with(translated_choice_item, R"({"text": "2 Bytes", "feedback")",
                                         R"({"txt": "2 Bytes", "text": "2 Bytes", "feedback")");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(option_typo))), "run-bytes",
                     "translations.de.options.two.txt")
              .find("unknown field") == 0);
    const std::string text_only = with(
        translated_estimate_item,
        R"("de": {"prompt": "Training mit {model.params} Parametern auf {training.tokens} Tokens: FLOPs?", "explanation": "6 × N × D = {answer}."})",
        R"("de": "Training")");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(text_only))), "flops", "translations.de")
              .find("must be an object") == 0);
    const std::string list = with(translated_estimate_item, R"("translations": {)", R"("translations": [], "x": {)");
    CHECK(problem_at(parse_json(quiz_validate_bank_json(bank_of(list))), "flops", "translations")
              .find("must be an object of translations by language") == 0);
}

TEST_CASE("a takeaway's translation is validated and returned in the current language", "[quiz][i18n]") {
    const std::string items = translated_estimate_item;
    const json::Value broken = parse_json(quiz_validate_bank_json(bank_of(items, R"({"de": "", "it": "Addestrare"})")));
    CHECK(problem_at(broken, "", "takeaways[0].translations.de") == "must be a non-empty string");
    CHECK(problem_at(broken, "", "takeaways[0].translations.it").find("is not a language") == 0);
    const std::string translated = bank_of(items, R"({"de": "Training braucht 16 Bytes pro Parameter"})");
    {
        LanguageScope german(Language::de);
        const json::Value report = parse_json(quiz_validate_bank_json(translated));
        REQUIRE(report.find("takeaways")->items.size() == 1);
        CHECK(text_at(report.find("takeaways")->items[0], "id") == "memory");
        CHECK(text_at(report.find("takeaways")->items[0], "text") == "Training braucht 16 Bytes pro Parameter");
    }
    LanguageScope spanish(Language::es);
    CHECK(text_at(parse_json(quiz_validate_bank_json(translated)).find("takeaways")->items[0], "text") ==
          "Training needs 16 bytes per parameter");
}

TEST_CASE("the built-in bank still validates without translations", "[quiz][i18n]") {
    const json::Value report = parse_json(quiz_validate_bank_json(source_file("web/quiz/bank.json")));
    INFO(all_problems(report));
    CHECK(report.find("ok")->boolean);
    CHECK(report.find("takeaways")->items.size() >= 5);
}

namespace {

// The built-in bank with i18n/<lang>/bank.json put into its items and takeaways, as the page does
// (web/src/quiz/bank.ts, withBankTranslations).
std::string built_in_bank_in(std::initializer_list<const char*> languages) {
    json::Value bank = parse_json(source_file("web/quiz/bank.json"));
    for (const char* language : languages) {
        const json::Value translations = parse_json(source_file(std::string("i18n/") + language + "/bank.json"));
        auto attach = [&](json::Value& list, const char* table) {
            for (json::Value& entry : list.items) {
                const json::Value* id = entry.find("id");
                const json::Value* translation = translations.find(table)->find(id->text);
                if (!translation) continue;
                json::Value* existing = nullptr;
                for (auto& member : entry.members)
                    if (member.first == "translations") existing = &member.second;
                if (!existing) {
                    json::Value empty;
                    empty.kind = json::Kind::object;
                    entry.members.emplace_back("translations", empty);
                    existing = &entry.members.back().second;
                }
                existing->members.emplace_back(language, *translation);
            }
        };
        for (auto& member : bank.members) {
            if (member.first == "items") attach(member.second, "items");
            if (member.first == "takeaways") attach(member.second, "takeaways");
        }
    }
    return json::serialize(bank);
}

}  // namespace

TEST_CASE("the built-in bank's German and Spanish pass the engine's checks and are what learners get", "[quiz][i18n]") {
    const std::string bank = built_in_bank_in({"de", "es"});
    const json::Value report = parse_json(quiz_check_bank_json(bank, 3));
    INFO(all_problems(report));
    CHECK(report.find("ok")->boolean);
    CHECK(report.find("unusable")->items.empty());
    // Every item is asked in German from its German text (a prompt without placeholders reads
    // exactly as translated).
    const json::Value german_bank = parse_json(source_file("i18n/de/bank.json"));
    LanguageScope german(Language::de);
    int compared = 0;
    const json::Value bank_value = parse_json(bank);
    for (const json::Value& item : bank_value.find("items")->items) {
        const json::Value asked = instance(json::serialize(item));
        CHECK(text_at(asked, "translation") == "de");
        const std::string german_prompt = text_at(german_bank, ("items." + text_at(item, "id") + ".prompt").c_str());
        if (german_prompt.find('{') != std::string::npos) continue;
        CHECK(text_at(asked, "prompt") == german_prompt);
        ++compared;
    }
    CHECK(compared > 0);
    CHECK(text_at(parse_json(quiz_validate_bank_json(bank)).find("takeaways")->items.front(), "text") ==
          text_at(parse_json(source_file("i18n/de/bank.json")), "takeaways.memory-per-parameter"));
}

TEST_CASE("quiz-check reads a translated explanation in its own language", "[quiz][i18n]") {
    // Half the model states, 0.56 TB, is the forgot-optimizer-states slip: a German explanation
    // that writes it out (as German writes it) would confirm the slip to a learner who typed it.
    quantity::Unit terabytes;
    REQUIRE(quantity::find_unit("TB", terabytes));
    std::string slip;
    {
        LanguageScope german(Language::de);
        slip = quantity::format_in_unit(model_states_bytes / 2, terabytes);
    }
    const std::string item = with(translated_numeric_item, "16 Bytes × {model.params} = {answer}.",
                                  "16 Bytes × {model.params} = {answer}, nicht " + slip + ".");
    const json::Value report = parse_json(quiz_check_bank_json(bank_of(item), 0));
    CHECK(problem_at(report, "states", "translations.de.explanation") ==
          "shows \"" + slip +
              "\", the value of misconception \"forgot-optimizer-states\"; a learner who typed it would read it as "
              "confirmation");
    CHECK(report.find("unusable")->items.empty());
    // The English and the Spanish are untouched.
    CHECK(problem_at(report, "states", "explanation").empty());
    CHECK(problem_at(report, "states", "translations.es.explanation").empty());
}

// ---- The engine's own quiz sentences, from the catalogue --------------------------------------

TEST_CASE("the German catalogue gives the grader's own sentences in German", "[quiz][i18n]") {
    LanguageScope german(load_catalogue(Language::de));
    quantity::Unit terabytes;
    REQUIRE(quantity::find_unit("TB", terabytes));
    const std::string expected = quantity::format_in_unit(model_states_bytes, terabytes);
    CHECK(text_at(grade(translated_numeric_item, expected), "message") == "Richtig: " + expected + ".");
    // The kinds' words are the reader's (i18n/de/engine-quantity.json), the sentence the quiz's.
    CHECK(text_at(grade(translated_numeric_item, "3 days"), "message") ==
          "Das ist eine Zeitangabe; gefragt ist eine Speichermenge.");
    CHECK(text_at(grade(translated_numeric_item, "60 TB"), "message") ==
          "Nicht ganz: Ihre Antwort ist etwa um den Faktor " + quantity::format_significant(60.0 / 1.12, 2) +
              " zu hoch.");
    // The option is quoted the German way, its text and feedback from the item's translation.
    const json::Value wrong = choose(translated_multiple_item, R"(["gradients", "kv"])");
    CHECK(text_at(wrong, "message") ==
          "„KV-Cache“: Der dient dem Ausführen. Eine richtige Option ist noch nicht ausgewählt.");
    CHECK(text_at(choose(translated_multiple_item, "[]"), "message") == "Wählen Sie zuerst eine Option aus.");
    // A validation problem an author reads, in German too.
    const json::Value report =
        parse_json(quiz_validate_bank_json(bank_of(with(translated_estimate_item, R"("es": {)", R"("fr": {)"))));
    CHECK(problem_at(report, "flops", "translations.fr").find("ist keine Sprache, die das Widget spricht") == 0);
}

TEST_CASE("the Spanish catalogue gives the grader's own sentences in Spanish", "[quiz][i18n]") {
    LanguageScope spanish(load_catalogue(Language::es));
    CHECK(text_at(grade(translated_numeric_item, "3 days"), "message") ==
          "Eso es una duración; la pregunta pide una cantidad de memoria.");
    CHECK(text_at(choose(translated_choice_item, R"(["two"])"), "message") == "Correcto: BF16 ocupa 16 bits.");
}

TEST_CASE("an estimate's expected answer, written in German or Spanish, grades as correct in that language",
          "[quiz][i18n]") {
    // quiz-check's deep check grades the displayed answer ("ca. …", "≈ …") back in the current
    // language: the catalogue's words and the reader must agree.
    for (const Language language : {Language::de, Language::es}) {
        LanguageScope scope(load_catalogue(language));
        const json::Value asked = instance(translated_estimate_item);
        INFO(text_at(asked, "expected_display"));
        CHECK(text_at(grade(translated_estimate_item, text_at(asked, "expected_display")), "status") == "correct");
        const json::Value report = parse_json(quiz_check_bank_json(bank_of(translated_estimate_item), 0));
        INFO(all_problems(report));
        CHECK(report.find("ok")->boolean);
    }
}
