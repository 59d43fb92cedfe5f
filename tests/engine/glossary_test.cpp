// The glossary (src/engine/model/glossary.hpp): every word the page explains at first sight, in
// every language the widget speaks, with the numbers the engine itself counts.
#include <set>
#include <string>

#include "catalogue_support.hpp"
#include "catch_include.hpp"
#include "engine/model/glossary.hpp"
#include "engine/text/json.hpp"
#include "engine/text/language.hpp"

using namespace trainscope;

namespace {

bool has_unfilled_placeholder(const std::string& text) { return text.find('{') != std::string::npos; }

// The terms issue 31 names, which the page marks by id: none may go missing.
const char* const required_ids[] = {
    "zero",
    "zero_0",
    "zero_1",
    "zero_2",
    "zero_3",
    "data_parallel",
    "tensor_parallel",
    "pipeline_parallel",
    "context_parallel",
    "expert_parallel",
    "micro_batch",
    "global_batch",
    "logits",
    "activation_checkpointing",
    "selective_recompute",
    "full_recompute",
    "one_f_one_b",
    "interleaved_stages",
    "fsdp",
    "full_shard",
    "shard_grad_op",
    "no_shard",
    "sequence_parallel",
    "master_copy",
    "optimizer_states",
    "kv_cache",
    "mfu",
    "utilisation",
    "gpu_hours",
    "lora",
    "qlora",
    "nf4",
    "offload",
};

}  // namespace

TEST_CASE("the glossary holds every term the page explains at first sight", "[glossary]") {
    std::set<std::string> ids;
    for (const GlossaryTerm& term : glossary()) ids.insert(std::string(term.id));
    for (const char* id : required_ids) {
        INFO(id);
        CHECK(ids.count(id) == 1);
    }
}

TEST_CASE("glossary ids and abbreviations are unique, and a name is never an abbreviation of another", "[glossary]") {
    std::set<std::string> ids, abbreviations;
    for (const GlossaryTerm& term : glossary()) {
        INFO(term.id);
        CHECK(ids.insert(std::string(term.id)).second);
        if (!term.abbreviation.empty()) CHECK(abbreviations.insert(std::string(term.abbreviation)).second);
    }
    for (const GlossaryTerm& term : glossary()) CHECK(abbreviations.count(term.name) == 0);
}

TEST_CASE("every term has a name and a one- or two-sentence definition in every language", "[glossary]") {
    const std::vector<GlossaryTerm> english = glossary();
    for (const Language language : {Language::en, Language::de, Language::es}) {
        if (language != Language::en) testing::install_engine_catalogues(language);
        LanguageScope scope(language);
        const std::vector<GlossaryTerm> terms = glossary();
        REQUIRE(terms.size() == english.size());
        for (std::size_t i = 0; i < terms.size(); ++i) {
            const GlossaryTerm& term = terms[i];
            INFO(language_tag(language) << " " << term.id << ": " << term.definition);
            CHECK_FALSE(term.name.empty());
            CHECK(term.definition.size() >= 40);
            CHECK(term.definition.size() <= 320);  // short enough for a bubble on a 320 px phone
            CHECK_FALSE(has_unfilled_placeholder(term.definition));
            CHECK(term.definition.back() == '.');
            // A translated definition that reads as the English one is a missing translation.
            if (language != Language::en) CHECK(term.definition != english[i].definition);
            for (std::size_t bar = 0; (bar = term.forms.find('|', bar)) != std::string::npos; ++bar)
                CHECK(bar + 1 < term.forms.size());
        }
    }
}

TEST_CASE("a definition that carries a number names its source", "[glossary]") {
    for (const GlossaryTerm& term : glossary()) {
        INFO(term.id << ": " << term.definition);
        const bool has_digit = term.definition.find_first_of("0123456789") != std::string::npos;
        // GPU-hours' arithmetic (1,000 × 24) and the global batch's product need no source.
        if (has_digit && term.id != "gpu_hours") CHECK_FALSE(term.source.empty());
    }
}

TEST_CASE("the glossary's numbers are the engine's: 16 bytes per parameter, a 4-byte master copy, 4.5-bit NF4",
          "[glossary]") {
    // ZeRO §3.1: 2 + 2 + 4 + 8 = 16 bytes per parameter; QLoRA §3: 4 + 32/64 = 4.5 bits.
    for (const GlossaryTerm& term : glossary()) {
        if (term.id == "zero_0") CHECK(term.definition.find("16 bytes per parameter") != std::string::npos);
        if (term.id == "master_copy") CHECK(term.definition.find("4 bytes per parameter") != std::string::npos);
        if (term.id == "optimizer_states") CHECK(term.definition.find("8 bytes per parameter") != std::string::npos);
        if (term.id == "nf4") CHECK(term.definition.find("4.5 bits per weight") != std::string::npos);
    }
    testing::install_engine_catalogues(Language::de);
    LanguageScope german(Language::de);
    for (const GlossaryTerm& term : glossary())
        if (term.id == "nf4") CHECK(term.definition.find("4,5 Bit pro Gewicht") != std::string::npos);
}

TEST_CASE("the glossary's JSON lists every term with its forms split", "[glossary]") {
    const json::ParseResult parsed = json::parse(glossary_json());
    REQUIRE(parsed.ok);
    const json::Value* terms = parsed.value.find("terms");
    REQUIRE(terms != nullptr);
    REQUIRE(terms->items.size() == glossary().size());
    bool found = false;
    for (const json::Value& term : terms->items) {
        const json::Value* id = term.find("id");
        REQUIRE(id != nullptr);
        if (id->text != "data_parallel") continue;
        found = true;
        const json::Value* forms = term.find("forms");
        REQUIRE(forms != nullptr);
        REQUIRE(forms->items.size() == 2);
        CHECK(forms->items[0].text == "data parallel");
        CHECK(forms->items[1].text == "data-parallel");
        CHECK(term.find("abbreviation")->text == "DP");
    }
    CHECK(found);
}
