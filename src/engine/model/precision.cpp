#include "engine/model/precision.hpp"

namespace trainscope {

bool parse_number_format(std::string_view name, NumberFormat& out) {
    for (const NumberFormat format : {NumberFormat::fp32, NumberFormat::bf16, NumberFormat::fp16, NumberFormat::fp8,
                                      NumberFormat::int8, NumberFormat::int4}) {
        if (format_name(format) == name) {
            out = format;
            return true;
        }
    }
    return false;
}

}  // namespace trainscope
