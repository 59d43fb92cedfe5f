#pragma once

#include <string>
#include <string_view>

namespace trainscope {

// The double nearest to decimal text `[+-]digits[.digits][(e|E)[+-]digits]` (a JSON number, a
// reader's digits, printf's "%e" output), rounded to nearest, ties to even: what std::strtod
// gives, as -0.0, ±infinity past the largest double and 0 below the smallest. Text outside that
// form reads as far as it fits (nothing: 0). The engine's own, so that the wasm module links no
// strtod: Emscripten's computes in 128-bit software floating point, kilobytes of page (issue 9).
double read_decimal(std::string_view text);

// `value` as printf's "%.*e", "%.*f" or "%.*g" writes it (`style` 'e', 'f' or 'g'), exactly
// rounded, ties to even, precision 6 when negative: the same digits as std::snprintf, with no
// printf in the wasm module (issue 9). Not finite: "inf", "-inf", "nan".
std::string write_decimal(double value, char style, int precision);

// A whole number's digits, as "%lld" writes them.
std::string write_integer(long long value);

}  // namespace trainscope
