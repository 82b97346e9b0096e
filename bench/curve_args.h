#pragma once
// What the model-side replays of the microbenchmarks (inflight_curve, tma_curve) share: their
// command line,
//   TOOL [--check] [GPU.yaml] [SILICON.jsonl] [gpu.KEY=V ...]
// and their exit codes (a bad preset, override or file: one message, exit 2).
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

namespace gms::bench {

struct CurveArgs {
  std::string gpu_file = "configs/gpus/h100.yaml";
  std::string silicon_file;       // empty: print the model's side only
  std::vector<std::string> sets;  // gpu.KEY=VALUE overrides
  bool check = false;
};

inline CurveArgs parse_curve_args(int argc, char** argv) {
  CurveArgs a;
  for (int i = 1; i < argc; ++i) {
    const std::string arg = argv[i];
    if (arg == "--check")
      a.check = true;
    else if (arg.find('=') != std::string::npos)
      a.sets.push_back(arg);
    else if (arg.ends_with(".yaml"))
      a.gpu_file = arg;
    else
      a.silicon_file = arg;
  }
  return a;
}

// Runs `run(args)` and returns its exit code; an exception becomes "NAME: what" and exit 2.
template <class Run>
int curve_main(const char* name, int argc, char** argv, Run&& run) {
  try {
    return run(parse_curve_args(argc, argv));
  } catch (const std::exception& e) {
    std::fprintf(stderr, "%s: %s\n", name, e.what());
    return 2;
  }
}

}  // namespace gms::bench
