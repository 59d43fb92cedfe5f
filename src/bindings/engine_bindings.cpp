// The engine's JavaScript surface. Only mapping lives here: every function takes and returns
// JSON text in the schemas of docs/scenario.md and docs/quiz.md, so the page, the URL, the quiz
// bank and the CLI share one format.
#include <emscripten/bind.h>

#include "engine/api.hpp"
#include "engine/hf_config.hpp"
#include "engine/quiz.hpp"

EMSCRIPTEN_BINDINGS(trainscope_engine) {
    emscripten::function("estimate", &trainscope::estimate_json_string);
    emscripten::function("presets", &trainscope::presets_json);
    emscripten::function("gpus", &trainscope::gpus_json);
    emscripten::function("defaultScenario", &trainscope::default_scenario_json);

    emscripten::function("quizInstance", &trainscope::quiz_instance_json_string);
    emscripten::function("quizGrade", &trainscope::quiz_grade_json_string);
    emscripten::function("quizValidateBank", &trainscope::quiz_validate_bank_json_string);
    emscripten::function("quizCheckBank", &trainscope::quiz_check_bank_json_string);
    emscripten::function("quizReadQuantity", &trainscope::quiz_read_quantity_json_string);
    emscripten::function("modelFromHfConfig", &trainscope::model_from_hf_config_json_string);
}
