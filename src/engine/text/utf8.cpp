#include "engine/text/utf8.hpp"

namespace trainscope::utf8 {

namespace {

// The length of the well-formed sequence starting at text[at], or 0 when it is malformed.
// Ranges from the Unicode Standard, Table 3-7 (well-formed UTF-8 byte sequences).
std::size_t sequence_length(std::string_view text, std::size_t at) {
    const auto byte = [&](std::size_t i) { return static_cast<unsigned char>(text[i]); };
    const unsigned char lead = byte(at);
    if (lead < 0x80) return 1;
    std::size_t length = 0;
    unsigned char second_min = 0x80, second_max = 0xBF;
    if (lead >= 0xC2 && lead <= 0xDF)
        length = 2;
    else if (lead == 0xE0) {
        length = 3;
        second_min = 0xA0;
    } else if (lead >= 0xE1 && lead <= 0xEC)
        length = 3;
    else if (lead == 0xED) {
        length = 3;
        second_max = 0x9F;
    }  // no UTF-16 surrogates
    else if (lead >= 0xEE && lead <= 0xEF)
        length = 3;
    else if (lead == 0xF0) {
        length = 4;
        second_min = 0x90;
    } else if (lead >= 0xF1 && lead <= 0xF3)
        length = 4;
    else if (lead == 0xF4) {
        length = 4;
        second_max = 0x8F;
    }  // nothing above U+10FFFF
    else
        return 0;
    if (at + length > text.size()) return 0;
    if (byte(at + 1) < second_min || byte(at + 1) > second_max) return 0;
    for (std::size_t i = 2; i < length; ++i)
        if (byte(at + i) < 0x80 || byte(at + i) > 0xBF) return 0;
    return length;
}

}  // namespace

std::size_t first_invalid_byte(std::string_view text) {
    std::size_t at = 0;
    while (at < text.size()) {
        const std::size_t length = sequence_length(text, at);
        if (length == 0) return at;
        at += length;
    }
    return valid;
}

std::string truncate(std::string_view text, std::size_t max_bytes) {
    if (text.size() <= max_bytes) return std::string(text);
    std::size_t cut = max_bytes;
    // Step back over continuation bytes (10xxxxxx) to the start of the character that did not fit.
    while (cut > 0 && (static_cast<unsigned char>(text[cut]) & 0xC0) == 0x80) --cut;
    return std::string(text.substr(0, cut)) + "\u2026";
}

}  // namespace trainscope::utf8
