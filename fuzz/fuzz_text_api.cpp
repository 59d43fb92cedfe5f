// libFuzzer target over the engine's text API: every entry point the page, the CLI and quiz
// authors reach with text. The first byte picks the entry point; the rest is its input.
// Beyond the sanitizers' findings (ASan, UBSan, float-cast-overflow), it traps when an answer is
// not valid JSON, not valid UTF-8, or holds a NaN or infinity (written as null by the Writer).
// Build and run: scripts/fuzz.sh [seconds].
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include "engine/api/api.hpp"
#include "engine/api/fit.hpp"
#include "engine/model/hf_config.hpp"
#include "engine/quiz/quiz.hpp"
#include "engine/text/json.hpp"
#include "engine/text/quantity.hpp"
#include "engine/text/utf8.hpp"

namespace {

using namespace trainscope;

void require(bool condition) {
    if (!condition) __builtin_trap();
}

// Every answer the engine gives is valid UTF-8 JSON whose numbers are all finite.
json::Value require_sound_answer(const std::string& answer) {
    require(utf8::first_invalid_byte(answer) == utf8::valid);
    const json::ParseResult parsed = json::parse(answer);
    require(parsed.ok);
    return parsed.value;
}

// Splits "item\x1Fanswer" (unit separator) for grading.
void split(std::string_view text, std::string_view& first, std::string_view& second) {
    const std::size_t at = text.find('\x1F');
    first = text.substr(0, at);
    second = at == std::string_view::npos ? std::string_view{} : text.substr(at + 1);
}

std::uint32_t seed_from(std::string_view text) {
    return text.empty() ? 0u : static_cast<std::uint32_t>(static_cast<unsigned char>(text.back()) % 8);
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    if (size == 0) return 0;
    const char selector = static_cast<char>(data[0]);
    const std::string_view text(reinterpret_cast<const char*>(data) + 1, size - 1);
    switch (selector) {
        case 'e':
            require_sound_answer(estimate_json(text));
            break;
        case 'f': {
            // The inverse search: sound JSON, and every layout it lists fits its GPU.
            const json::Value search = require_sound_answer(fit_json(text));
            if (const json::Value* layouts = search.find("layouts"))
                for (const auto& layout : layouts->items)
                    require(layout.find("peak_bytes")->number <= search.find_path("current.memory_bytes")->number);
            break;
        }
        case 's': {
            // The step timeline: sound JSON, and every byte count it holds never negative.
            const json::Value timeline = require_sound_answer(step_timeline_json(text));
            if (const json::Value* events = timeline.find("events"))
                for (const auto& event : events->items)
                    for (const auto& [name, bytes] : event.find("held")->members) require(bytes.number >= 0);
            break;
        }
        case 'i':
            require_sound_answer(quiz_instance_json(text, seed_from(text)));
            break;
        case 'g': {
            std::string_view item, answer;
            split(text, item, answer);
            require_sound_answer(quiz_grade_json(item, seed_from(item), answer));
            break;
        }
        case 'b':
            require_sound_answer(quiz_validate_bank_json(text));
            break;
        case 'q': {
            const quantity::Parsed parsed = quantity::parse(text);
            if (parsed.ok) require(std::isfinite(parsed.value));
            require_sound_answer(quiz_read_quantity_json(text));
            break;
        }
        case 'h':
            require_sound_answer(model_from_hf_config_json(text));
            break;
        default: {
            // The JSON round trip: what reads, writes back to text that reads as the same value.
            const json::ParseResult first = json::parse(text);
            if (!first.ok) break;
            const std::string written = json::serialize(first.value);
            require(utf8::first_invalid_byte(written) == utf8::valid);
            const json::ParseResult second = json::parse(written);
            require(second.ok);
            require(json::serialize(second.value) == written);
            break;
        }
    }
    return 0;
}
