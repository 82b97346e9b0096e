#pragma once
// `gpumemsim recommend`: for one GEMM (or GEMV) shape on one GPU, the tilings, warps, stages and CTA
// orders a Triton-style kernel can use, filtered by what fits (shared memory, registers), simulated,
// ranked by predicted time, each with the resource that limits it. The search space is a value
// (RecommendSpace) so tests, the CLI and scripts can narrow it.
#include <array>
#include <cstdint>
#include <string>
#include <vector>

#include "api/simulation.h"
#include "common/parallel.h"

namespace gms {

struct RecommendSpace {
  // GEMM: BLOCK_M x BLOCK_N x BLOCK_K, warps, stages, GROUP_SIZE_M (1 = row-major launch order).
  std::vector<std::array<int, 3>> tiles;
  std::vector<int> warps, stages, group_m;
  // GEMV (seed 001's split-K kernel): BLOCK_N, BLOCK_K, warps, both load orders.
  std::vector<int> block_n, block_k;
  std::vector<std::string> gemv_orders;
};

// The default space: Triton's matmul autotune neighbourhood (GEMM) / gemlite's (GEMV).
RecommendSpace default_gemm_space();
RecommendSpace default_gemv_space();

struct RecommendRequest {
  std::string gpu;                    // preset name or file
  std::string kind = "gemm";          // gemm | gemv
  std::int64_t m = 0, n = 0, k = 0;   // GEMV: m = batch rows (1)
  std::string dtype = "fp16";
  std::string mma = "auto";           // GEMM: auto = per candidate as Triton compiles it (compiler_mma_class)
  std::vector<std::string> overrides; // gpu.* overrides for every candidate
  // GEMM: each wgmma candidate's main loop issues the instructions a compiled Triton loop of its copies would
  // (workload/loop_estimate.h); false = only the data path the model builds.
  bool estimate_loop = true;
  RecommendSpace space;
  unsigned jobs = 1;
  // Approximate candidates (RunOptions::sample_waves): each simulates this many waves and
  // extrapolates the rest; 0 = exact, the default.
  int sample_waves = 0;
  // How the candidates' simulations are spread: this process's threads by default; the CLI swaps in
  // dist::map_all under mpirun/srun. Each candidate is independent, so the ranking is the same.
  ParallelMap map = local_parallel_map;
};

struct Candidate {
  std::string label;                  // "128x256x64 w8 s3 g8"
  std::vector<std::string> set;       // workload.* overrides that make it
  std::string mma;                    // GEMM: its tensor-core class (wgmma, mma_sync, none)
  int loop_instructions = 0;          // GEMM: the estimated loop's instructions per warp and K tile (0 = none)
  int registers = 0;                  // needed per thread (before the cap)
  std::int64_t spill_bytes = 0;       // GEMM: the estimated frame swapped every K tile (workload/gemm_spill.h)
  std::string excluded;               // why it was not simulated / could not run; "" = ranked
  double time_ns = 0, dram_bytes = 0, l2_hit_pct = 0, tflops = 0;
  int ctas_per_sm = 0;
  std::string limiter;                // "tensor pipe", "L2 bandwidth", "DRAM bandwidth", ...
  std::string why;                    // the numbers behind the limiter
};

struct RecommendResult {
  std::string gpu_name, workload_text;  // the base workload (YAML) the candidates override
  std::vector<Candidate> ranked;        // fastest first
  std::vector<Candidate> excluded;      // in space order
};

// ConfigError for a bad request (unknown preset, empty space, no candidate runs).
RecommendResult recommend(const RecommendRequest& req);

// The inputs that simulate one configuration of a recommend result: the request's GPU and
// overrides, the result's base workload, then `set` (a candidate's, plus any extra workload.* keys).
ConfigInputs candidate_inputs(const RecommendRequest& req, const RecommendResult& r, const std::vector<std::string>& set);

// A GEMM candidate launched in the other CTA order (grouped GROUP_SIZE_M <-> row-major; a row-major
// one gets GROUP_SIZE_M 8): its `set` and a name for it ("row_major", "grouped8").
struct OtherOrder {
  std::vector<std::string> set;
  std::string name;
};
OtherOrder other_cta_order(const Candidate& c);

}  // namespace gms
