// Clusters as they are built (issue 23): the GPU catalogue's interconnect, context and expert
// parallelism, the layouts of published runs, and the communication model (docs/model.md §10–§13).
#include <cmath>
#include <string>

#include "catch_include.hpp"
#include "engine/api/api.hpp"
#include "engine/model/hardware.hpp"
#include "engine/text/json.hpp"
#include "estimate_support.hpp"

using namespace trainscope;
using trainscope::testing::estimate_of;
using trainscope::testing::has_error_for;
using trainscope::testing::number_at;

TEST_CASE("every GPU row has short names and an interconnect with its source", "[catalogue][interconnect]") {
    for (const Gpu& gpu : gpu_catalogue()) {
        INFO(gpu.id);
        CHECK(!gpu.short_name.empty());
        CHECK(!gpu.model_name.empty());
        // The short name is the name without its vendor, and the model name a prefix of it.
        CHECK(gpu.name.size() > gpu.short_name.size());
        CHECK(gpu.name.compare(gpu.name.size() - gpu.short_name.size(), gpu.short_name.size(), gpu.short_name) == 0);
        CHECK(gpu.short_name.rfind(gpu.model_name, 0) == 0);
        CHECK(gpu.gpus_per_node >= 1);
        CHECK(gpu.intra_node_bandwidth > 0);
        CHECK(!gpu.interconnect_source.empty());
        // The fast link is at least as fast as the network between nodes.
        CHECK(gpu.intra_node_bandwidth >= gpu.inter_node_bandwidth);
    }
}

TEST_CASE("the interconnect figures are the datasheets', one direction", "[catalogue][interconnect][published]") {
    // NVIDIA H100 datasheet: NVLink 900 GB/s, PCIe Gen5 128 GB/s (both directions); DGX H100: a
    // 400 Gb/s ConnectX-7 per GPU. H800: NVLink 400 GB/s; DeepSeek-V3 §3.2.2: InfiniBand 50 GB/s.
    const Gpu* h100 = find_gpu("h100-sxm");
    REQUIRE(h100 != nullptr);
    CHECK(h100->intra_node_bandwidth == 450e9);
    CHECK(h100->inter_node_bandwidth == 50e9);
    CHECK(h100->pcie_bandwidth == 64e9);
    CHECK(h100->gpus_per_node == 8);
    const Gpu* h800 = find_gpu("h800-sxm");
    REQUIRE(h800 != nullptr);
    CHECK(h800->intra_node_bandwidth == 200e9);
    CHECK(h800->inter_node_bandwidth == 50e9);
    // The H800 is an H100 with its NVLink cut: the same memory, peak and power.
    CHECK(h800->memory_bytes == h100->memory_bytes);
    CHECK(h800->peak_flops == h100->peak_flops);
    CHECK(h800->watts == h100->watts);
    CHECK(find_gpu("a100-sxm-80")->inter_node_bandwidth == 25e9);
}

TEST_CASE("gpus_json and the estimate's gpu carry the short names and the interconnect", "[catalogue][interconnect]") {
    const json::ParseResult gpus = json::parse(gpus_json());
    REQUIRE(gpus.ok);
    for (const auto& gpu : gpus.value.items) {
        for (const char* field : {"short_name", "model_name", "interconnect_source"})
            CHECK(gpu.find(field)->kind == json::Kind::string);
        for (const char* field : {"gpus_per_node", "intra_node_bandwidth", "inter_node_bandwidth", "pcie_bandwidth"})
            CHECK(gpu.find(field)->kind == json::Kind::number);
    }
    const json::Value estimate = estimate_of(R"({"hardware":{"gpu":"a100-sxm-80"}})");
    CHECK(estimate.find_path("gpu.short_name")->text == "A100 SXM 80 GB");
    CHECK(estimate.find_path("gpu.model_name")->text == "A100 SXM");
    CHECK(number_at(estimate, "gpu.intra_node_bandwidth") == 300e9);
}
