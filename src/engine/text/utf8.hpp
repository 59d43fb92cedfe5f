// UTF-8 checks for text that comes from outside (scenarios, quiz banks, pasted configs) and
// cuts that keep echoed text short without splitting a character.
#pragma once

#include <cstddef>
#include <string>
#include <string_view>

namespace trainscope::utf8 {

constexpr std::size_t valid = static_cast<std::size_t>(-1);

// The byte offset of the first byte that does not start a well-formed UTF-8 sequence
// (RFC 3629: no overlong forms, no surrogates, nothing above U+10FFFF), or `valid`.
std::size_t first_invalid_byte(std::string_view text);

// At most `max_bytes` bytes of `text`, cut before a character that would not fit, with "…"
// appended when anything was cut. Text that is not valid UTF-8 is cut at a byte boundary the
// same way (continuation bytes are never left dangling).
std::string truncate(std::string_view text, std::size_t max_bytes);

}  // namespace trainscope::utf8
