// Accelerators: memory, dense 16-bit peak, power and memory bandwidth, from vendor datasheets (docs/model.md §7).
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace trainscope {

struct Gpu {
    std::string id;
    std::string name;
    double memory_bytes = 0;
    double peak_flops = 0;  // dense BF16/FP16 FLOP/s, no sparsity
    double watts = 0;
    double memory_bandwidth = 0;  // bytes/s of device memory (HBM/GDDR); 0 when not given (custom)
    std::string source;
};

const std::vector<Gpu>& gpu_catalogue();
const Gpu* find_gpu(std::string_view id);

}  // namespace trainscope
