// The estimate's words for its bytes per parameter: the formats' names, the parts of the sum and
// the counting conventions (estimate.hpp), in the current language.
#include "engine/model/estimate.hpp"

#include "engine/text/messages.hpp"
#include "engine/text/quantity.hpp"

namespace trainscope {

std::string_view format_label(NumberFormat format) {
    switch (format) {
        case NumberFormat::fp32:
            return "FP32";
        case NumberFormat::bf16:
            return "BF16";
        case NumberFormat::fp16:
            return "FP16";
        case NumberFormat::fp8:
            return "FP8";
        case NumberFormat::int8:
            return "INT8";
        case NumberFormat::int4:
            return "INT4";
    }
    return "BF16";
}

std::vector<BytesPerParamPart> bytes_per_param_parts(const TrainingSettings& training, const BytesPerParam& bytes) {
    // Mixed precision: 16-bit weights and gradients, FP32 master and moments (Micikevicius et al.
    // 2018, §3.1; ZeRO §3.1, docs/model.md §3). FP32 training keeps everything in FP32, no master.
    const NumberFormat pass = training.precision;
    std::vector<BytesPerParamPart> parts;
    const auto first_moment = [] { return message("estimate.part.first_moment", "first moment (m)"); };
    const auto second_moment = [] { return message("estimate.part.second_moment", "second moment (v)"); };
    // docs/model.md §2: autocast's FP32 parameters play the master copy's part, and the weights the
    // passes use are its 16-bit copies; pure 16-bit keeps the optimizer's states in 16 bits too.
    const bool mixed = pass != NumberFormat::fp32;
    const bool autocast = mixed && training.precision_recipe == PrecisionRecipe::autocast;
    const NumberFormat state = mixed && training.precision_recipe == PrecisionRecipe::pure ? pass : NumberFormat::fp32;
    parts.push_back({"weights",
                     autocast ? message("estimate.part.compute_copies", "16-bit copies for compute")
                              : message("estimate.part.weights", "weights"),
                     pass, bytes.weights});
    parts.push_back({"gradients", message("estimate.part.gradients", "gradients"),
                     bytes.gradients == 4 ? NumberFormat::fp32 : pass, bytes.gradients});
    if (bytes.master_weights > 0)
        parts.push_back({"master_weights",
                         autocast ? message("estimate.part.fp32_weights", "FP32 weights")
                                  : message("estimate.part.master_copy", "master copy"),
                         NumberFormat::fp32, bytes.master_weights});
    switch (training.optimizer) {
        case Optimizer::adam:
        case Optimizer::adamw:
            parts.push_back({"optimizer_states", first_moment(), state, bytes.optimizer_states / 2});
            parts.push_back({"optimizer_states", second_moment(), state, bytes.optimizer_states / 2});
            break;
        case Optimizer::adam_8bit:
            // Two 8-bit moments, each with its share of the block scales (Dettmers et al. 2021, §2).
            parts.push_back({"optimizer_states", first_moment(), NumberFormat::int8, bytes.optimizer_states / 2});
            parts.push_back({"optimizer_states", second_moment(), NumberFormat::int8, bytes.optimizer_states / 2});
            break;
        case Optimizer::sgd_momentum:
            parts.push_back(
                {"optimizer_states", message("estimate.part.momentum", "momentum"), state, bytes.optimizer_states});
            break;
        case Optimizer::adafactor:
            parts.push_back({"optimizer_states",
                             message("estimate.part.factored_second_moment", "factored second moment"), state,
                             bytes.optimizer_states});
            break;
        case Optimizer::sgd:
            break;
    }
    return parts;
}

std::string bytes_per_param_sum(const std::vector<BytesPerParamPart>& parts) {
    std::string text;
    double total = 0;
    for (const auto& part : parts) {
        if (!text.empty()) text += " + ";
        text += quantity::format_significant(part.bytes);
        total += part.bytes;
    }
    return text + " = " + quantity::format_significant(total);
}

std::string accounting_label(AccountingConvention accounting) {
    if (accounting == AccountingConvention::fp32_gradients)
        return message("estimate.accounting.fp32_gradients.label", "FP32 gradients");
    return message("estimate.accounting.zero.label", "ZeRO paper");
}

std::string accounting_explanation(AccountingConvention accounting, const TrainingSettings& training,
                                   const Architecture& architecture, double parameters) {
    // docs/model.md §2: the sum is this optimizer's and precision's, written by the engine.
    TrainingSettings under = training;
    under.accounting = accounting;
    const std::string sum =
        bytes_per_param_sum(bytes_per_param_parts(under, training_bytes_per_param(under, architecture, parameters)));
    if (accounting == AccountingConvention::zero)
        return message("estimate.accounting.zero.explanation",
                       "The ZeRO paper's count, and the lesson's: gradients stored in the training precision, {sum} "
                       "bytes per parameter.",
                       {{"sum", sum}});
    return message("estimate.accounting.fp32_gradients.explanation",
                   "Hugging Face's memory guide and DeepSpeed's ZeRO-3 estimator count the gradients in FP32, as when "
                   "they are accumulated in FP32: {sum} bytes per parameter.",
                   {{"sum", sum}});
}

}  // namespace trainscope
