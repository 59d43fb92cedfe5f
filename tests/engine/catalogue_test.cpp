// The German and Spanish catalogues of the source tree (i18n/<lang>/engine*.json), loaded as the
// page's language pack and the CLI load them, and the engine's sentences written through them.
// The catalogue test (tests/web/i18n-catalogues.test.mjs) checks keys and placeholders; these check
// that the engine actually speaks the language end to end, numbers and lists included.
#include <algorithm>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "catalogue_support.hpp"
#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/model/hardware.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"
#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"
#include "estimate_support.hpp"

using trainscope::Language;
using trainscope::LanguageScope;
using trainscope::ListJoin;
namespace json = trainscope::json;
namespace quantity = trainscope::quantity;

namespace {

void load_source_catalogues(Language language) { trainscope::testing::install_engine_catalogues(language); }

std::string first_note(std::string_view scenario) {
    const json::Value estimate = trainscope::testing::estimate_of(scenario);
    const json::Value* notes = estimate.find("notes");
    REQUIRE(notes != nullptr);
    REQUIRE(!notes->items.empty());
    return notes->items[0].text;
}

std::string bytes(double value) { return quantity::format(value, quantity::Figure::bytes); }

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

// Llama 3 405B on 8 H100s: activations, ZeRO-3's gathered layers and the full gradients awaiting
// their reduce-scatter overflow 80 GB whatever the data-parallel width (three parts, three remedies).
constexpr const char* overflowing = R"({"model":{"preset":"llama3-405b"},"parallel":{"gpus":8}})";

}  // namespace

TEST_CASE("lists join with the current language's conjunction and no serial comma outside English", "[i18n]") {
    const std::vector<std::string> three = {"a", "b", "c"}, two = {"a", "b"};
    CHECK(trainscope::join_list(three, ListJoin::and_) == "a, b, and c");
    CHECK(trainscope::join_list(two, ListJoin::and_) == "a and b");
    CHECK(trainscope::join_list(three, ListJoin::or_) == "a, b or c");
    CHECK(trainscope::join_list({"a"}, ListJoin::and_) == "a");
    {
        LanguageScope german(Language::de);
        CHECK(trainscope::join_list(three, ListJoin::and_) == "a, b und c");
        CHECK(trainscope::join_list(three, ListJoin::or_) == "a, b oder c");
    }
    LanguageScope spanish(Language::es);
    CHECK(trainscope::join_list(three, ListJoin::and_) == "a, b y c");
    CHECK(trainscope::join_list(three, ListJoin::or_) == "a, b o c");
    // RAE, Ortografía 2010, §4.2.4: "e" before an /i/ sound, "u" before an /o/ sound; not before "hie".
    CHECK(trainscope::join_list({"padres", "hijos"}, ListJoin::and_) == "padres e hijos");
    CHECK(trainscope::join_list({"agua", "hielo"}, ListJoin::and_) == "agua y hielo");
    CHECK(trainscope::join_list({"siete", "ocho"}, ListJoin::or_) == "siete u ocho");
}

TEST_CASE("the German catalogue writes the overflow note, its list and its remedies in German", "[i18n]") {
    load_source_catalogues(Language::de);
    const std::string english = first_note(overflowing);
    REQUIRE(contains(english, "at the busiest moment of a step one GPU still holds"));
    LanguageScope german(Language::de);
    const std::string note = first_note(overflowing);
    INFO(note);
    CHECK(note.rfind("Bei ZeRO-Stufe 0 hält jede GPU alle Gewichte, Gradienten und Optimizer-Zustände", 0) == 0);
    CHECK(contains(note, "im speicherintensivsten Moment eines Schritts noch "));
    // The parts joined with "und", without the English serial comma.
    CHECK(contains(note, ", die vollständigen Gewichte der gerade arbeitenden Schichten "));
    CHECK(contains(note, " und die vollständigen Gradienten einer Schicht, bevor sie aufgeteilt werden, "));
    CHECK_FALSE(contains(note, ", und "));
    // The GPU's memory as the engine writes bytes in German.
    CHECK(contains(note, "mehr als ihre " + bytes(trainscope::find_gpu("h100-sxm")->memory_bytes) + ";"));
    CHECK(contains(note,
                   "Verringern lässt sich das mit vollständigem Activation Checkpointing, kürzeren Sequenzen oder "
                   "Tensor-Parallelität samt Sequenz-Parallelität."));
    CHECK_FALSE(contains(note, "GPU still holds"));
}

TEST_CASE("the Spanish catalogue writes the parameter-count note and a field's error in Spanish", "[i18n]") {
    load_source_catalogues(Language::es);
    LanguageScope spanish(Language::es);
    CHECK(first_note(R"({"model":{"params":7e9}})") ==
          "Solo se indicó un número de parámetros: para las activaciones y la caché KV se supone una forma al estilo "
          "de Llama, con un tamaño oculto (hidden size) de 128 × capas.");
    const json::Value refused = trainscope::testing::estimate_of(R"({"parallel":{"gpus":10,"tensor":4}})");
    const json::Value& error = refused.find("errors")->items.at(0);
    CHECK(error.find("field")->text == "parallel.gpus");  // field paths stay as the schema names them
    CHECK(error.find("message")->text ==
          "debe ser un múltiplo de tensor × pipeline (" + quantity::format_count(4) + ")");
    const std::string note = first_note(overflowing);
    INFO(note);
    CHECK(note.rfind("En la etapa 0 de ZeRO cada GPU guarda todos los pesos", 0) == 0);
    CHECK(contains(note, "una GPU sigue guardando "));
    CHECK(contains(note, " y los gradientes completos de una capa antes de repartirse "));
    CHECK(contains(note,
                   "Puedes reducirlo con checkpointing completo de activaciones, secuencias más cortas o "
                   "paralelismo de tensores con paralelismo de secuencia."));
}

TEST_CASE("the labels and accounting conventions of an estimate follow the language; ids stay", "[i18n]") {
    load_source_catalogues(Language::de);
    LanguageScope german(Language::de);
    const json::Value estimate = trainscope::testing::estimate_of(R"({"model":{"preset":"llama3-8b"}})");
    const json::Value* parts = estimate.find_path("training.bytes_per_param_parts");
    REQUIRE(parts != nullptr);
    REQUIRE(parts->items.size() == 5);
    CHECK(parts->items[2].find("part")->text == "master_weights");
    CHECK(parts->items[2].find("label")->text == "Masterkopie");
    CHECK(parts->items[3].find("label")->text == "erstes Moment (m)");
    CHECK(estimate.find_path("training.accounting.id")->text == "zero");
    CHECK(estimate.find_path("training.accounting.label")->text == "ZeRO-Paper");
    const std::string explanation = estimate.find_path("training.accounting.explanation")->text;
    CHECK(explanation.rfind("Die Zählung des ZeRO-Papers und dieser Lektion: ", 0) == 0);
    CHECK(contains(explanation, " Bytes pro Parameter."));
}

TEST_CASE("an English call after a German one is English again", "[i18n]") {
    load_source_catalogues(Language::de);
    std::string german;
    {
        LanguageScope scope(Language::de);
        german = first_note(R"({"model":{"params":7e9}})");
    }
    const std::string english = first_note(R"({"model":{"params":7e9}})");
    CHECK(german.rfind("Es wurde nur eine Parameterzahl angegeben", 0) == 0);
    CHECK(english.rfind("Only a parameter count was given", 0) == 0);
}

TEST_CASE("the published runs' names and notes follow the language; their sources stay as published", "[i18n]") {
    load_source_catalogues(Language::de);
    auto deepseek_run = [] {
        const json::ParseResult presets = json::parse(trainscope::presets_json());
        REQUIRE(presets.ok);
        for (const json::Value& preset : presets.value.items)
            if (preset.find("id")->text == "deepseek-v3") return preset.find("runs")->items.at(0);
        FAIL("no DeepSeek-V3 preset");
        return json::Value{};
    };
    const json::Value english = deepseek_run();
    LanguageScope german(Language::de);
    const json::Value run = deepseek_run();
    CHECK(run.find("name")->text == "Vortraining auf " + quantity::format_count(2048) + " H800");
    CHECK(contains(run.find("note")->text, "volle Neuberechnung ist die nächstliegende Einstellung"));
    CHECK(contains(run.find("note")->text, bytes(80e9)));
    CHECK(run.find("source")->text == english.find("source")->text);
    CHECK(contains(run.find("source")->text, "DeepSeek-V3 Technical Report 2024"));
}

TEST_CASE("GPU memory is what nvidia-smi reports where a published output shows it", "[catalogue][hardware]") {
    // docs/model.md §9: vendors' "80 GB" is GiB of HBM less what the driver keeps. Each figure is a
    // published nvidia-smi "Total" in MiB (hardware.cpp names the output).
    const std::pair<const char*, double> reported[] = {{"h100-sxm", 81559},    {"a100-sxm-80", 81920},
                                                       {"a100-sxm-40", 40960}, {"rtx-4090", 24564},
                                                       {"l40s", 46068},        {"v100-16", 16160}};
    for (const auto& [id, mebibytes] : reported) {
        INFO(id);
        REQUIRE(trainscope::find_gpu(id) != nullptr);
        CHECK(trainscope::find_gpu(id)->memory_bytes == mebibytes * 1048576);
        CHECK(contains(trainscope::find_gpu(id)->source, "MiB"));
    }
}

TEST_CASE("the estimate states the CUDA context and the allocator's reserve beside the peak's tensors",
          "[memory][hardware]") {
    // docs/model.md §9: Hugging Face's guide measured 1,343 MiB for the CUDA context; GMLake measured
    // PyTorch's caching allocator's fragmentation at 15% of reserved memory on average.
    const json::Value estimate = trainscope::testing::estimate_of(R"({"model":{"preset":"llama2-7b"}})");
    const double allocated = trainscope::testing::number_at(estimate, "training.per_gpu.total");
    CHECK(trainscope::testing::number_at(estimate, "training.overhead.cuda_context") == 1343.0 * 1048576);
    CHECK(trainscope::testing::number_at(estimate, "training.overhead.allocated") == allocated);
    CHECK(trainscope::testing::number_at(estimate, "training.overhead.reserved") == Approx(allocated / 0.85));
    CHECK(trainscope::testing::number_at(estimate, "training.overhead.in_use") ==
          Approx(allocated / 0.85 + 1343.0 * 1048576));
    CHECK(trainscope::testing::number_at(estimate, "training.overhead.memory_for_tensors") ==
          (81559.0 - 1343.0) * 1048576);
}
