// The engine's JavaScript surface. Only mapping lives here: every function takes and returns
// JSON text in the schema of docs/scenario.md, so the page, the URL and the CLI share one format.
#include <emscripten/bind.h>

#include "engine/api.hpp"

EMSCRIPTEN_BINDINGS(trainscope_engine) {
    emscripten::function("estimate", &trainscope::estimate_json_string);
    emscripten::function("presets", &trainscope::presets_json);
    emscripten::function("gpus", &trainscope::gpus_json);
    emscripten::function("defaultScenario", &trainscope::default_scenario_json);
}
