// The words the page uses, each explained once in the engine's own words (issue 31, "Words at
// first sight"): ZeRO and its stages, the kinds of parallelism and their letters, batches,
// checkpointing, pipeline schedules, FSDP's names, the model states, utilisation, fine-tuning.
// Data with a source on every row whose definition carries a number, in the current language
// (docs/i18n.md); the numbers are the engine's own (precision.hpp, finetune.hpp), written by
// quantity::format, so the glossary and the figures never disagree.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainscope {

struct GlossaryTerm {
    std::string_view id;            // "tensor_parallel": stable, never translated (the page marks terms by it)
    std::string_view abbreviation;  // "TP", "1F1B", "FULL_SHARD"; empty when the term has none
    std::string name;               // "tensor parallelism": the full name, in the current language
    std::string forms;              // other ways the page writes it, '|'-separated ("tensor parallel|tensor-parallel")
    std::string definition;         // one or two sentences, in the current language
    std::string_view source;        // a citation (not translated) where the definition carries a number or a claim
};

// Every term, in the order a learner meets them in the lesson.
std::vector<GlossaryTerm> glossary();

// {"terms": [{id, abbreviation, name, forms: [..], definition, source}]}: glossary() for the page.
std::string glossary_json();

}  // namespace trainscope
