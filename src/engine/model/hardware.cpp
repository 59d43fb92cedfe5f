#include "engine/model/hardware.hpp"

namespace trainscope {

const std::vector<Gpu>& gpu_catalogue() {
    // Dense 16-bit tensor peak (no sparsity), memory in decimal bytes, board power, memory bandwidth
    // in decimal bytes/s (docs/model.md §7); every figure from the datasheet named in the row.
    static const std::vector<Gpu> catalogue = {
        {"h100-sxm", "NVIDIA H100 SXM", 80e9, 989e12, 700, 3.35e12, "NVIDIA H100 Tensor Core GPU datasheet (SXM5)"},
        {"h200-sxm", "NVIDIA H200 SXM", 141e9, 989e12, 700, 4.8e12, "NVIDIA H200 Tensor Core GPU datasheet (SXM)"},
        {"a100-sxm-80", "NVIDIA A100 SXM 80 GB", 80e9, 312e12, 400, 2.039e12, "NVIDIA A100 Tensor Core GPU datasheet"},
        {"a100-sxm-40", "NVIDIA A100 SXM 40 GB", 40e9, 312e12, 400, 1.555e12, "NVIDIA A100 Tensor Core GPU datasheet"},
        {"b200", "NVIDIA B200", 180e9, 2250e12, 1000, 8e12, "NVIDIA DGX B200 datasheet (per GPU; sold as 192 GB)"},
        {"mi300x", "AMD Instinct MI300X", 192e9, 1307e12, 750, 5.3e12, "AMD Instinct MI300X data sheet"},
        {"v100-32", "NVIDIA V100 32 GB", 32e9, 125e12, 300, 900e9, "NVIDIA V100 datasheet (SXM2, FP16 tensor)"},
        {"v100-16", "NVIDIA V100 16 GB", 16e9, 125e12, 300, 900e9, "NVIDIA V100 datasheet (SXM2, FP16 tensor)"},
        {"rtx-4090", "NVIDIA GeForce RTX 4090", 24e9, 165e12, 450, 1008e9,
         "NVIDIA Ada Lovelace architecture whitepaper (FP16 tensor, FP32 accumulate)"},
        {"tpu-v5p", "Google TPU v5p", 95e9, 459e12, 0, 2765e9, "Google Cloud TPU v5p documentation (BF16)"},
    };
    return catalogue;
}

const Gpu* find_gpu(std::string_view id) {
    for (const auto& gpu : gpu_catalogue())
        if (gpu.id == id) return &gpu;
    return nullptr;
}

}  // namespace trainscope
