// Number formats and what one value costs in memory.
#pragma once

#include <string_view>

namespace trainscope {

enum class NumberFormat { fp32, bf16, fp16, fp8, int8, int4 };

// Bytes per stored value: IEEE 754 widths; int4 packs two values per byte.
constexpr double bytes_per_value(NumberFormat format) {
    switch (format) {
        case NumberFormat::fp32:
            return 4.0;
        case NumberFormat::bf16:
            return 2.0;
        case NumberFormat::fp16:
            return 2.0;
        case NumberFormat::fp8:
            return 1.0;
        case NumberFormat::int8:
            return 1.0;
        case NumberFormat::int4:
            return 0.5;
    }
    return 2.0;
}

constexpr std::string_view format_name(NumberFormat format) {
    switch (format) {
        case NumberFormat::fp32:
            return "fp32";
        case NumberFormat::bf16:
            return "bf16";
        case NumberFormat::fp16:
            return "fp16";
        case NumberFormat::fp8:
            return "fp8";
        case NumberFormat::int8:
            return "int8";
        case NumberFormat::int4:
            return "int4";
    }
    return "bf16";
}

// False when `name` is not one of the format names above.
bool parse_number_format(std::string_view name, NumberFormat& out);

}  // namespace trainscope
