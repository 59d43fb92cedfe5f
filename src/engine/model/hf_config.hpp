// Reading a Hugging Face config.json (the file beside a model's weights) into the engine's
// architecture fields, with the engine's JSON reader and the engine's own checks, so the page
// keeps no second copy of either. Every problem is named by the config's own key.
#pragma once

#include <string>
#include <string_view>

namespace trainscope {

// Returns {architecture: {layers, hidden, …} | null, name, errors: [{field, message}], notes: [text]}.
// `field` is the config.json key ("num_key_value_heads"), or "config.json" for the whole file.
// architecture is null whenever errors is non-empty. Never throws.
std::string model_from_hf_config_json(std::string_view config_json);

}  // namespace trainscope
