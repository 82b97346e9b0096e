// libFuzzer target: Accel-Sim kernel traces replayed through the engine, ISA tables, GPU/workload
// YAML, ncu CSV exports, .gmstrace files, saved scorecards and the per-SM lists (the first input byte picks: '%' ISA
// table, '&' YAML config, '^' ncu CSV, '!' .gmstrace, '@' a compare --json scorecard, '~' launch.sm_order and
// icnt.gpc_sms, else an Accel-Sim trace); build with
// -DGPUMEMSIM_FUZZ=ON and clang.
#include "fuzz_entries_sim.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  if (size > 0 && data[0] == '%')
    gms::fuzz::isa_table(data + 1, size - 1);
  else if (size > 0 && data[0] == '&')
    gms::fuzz::config_yaml(data + 1, size - 1);
  else if (size > 0 && data[0] == '^')
    gms::fuzz::ncu_csv(data + 1, size - 1);
  else if (size > 0 && data[0] == '!')
    gms::fuzz::gms_trace(data + 1, size - 1);
  else if (size > 0 && data[0] == '@')
    gms::fuzz::saved_scorecard_json(data + 1, size - 1);
  else if (size > 0 && data[0] == '~')
    gms::fuzz::sm_lists(data + 1, size - 1);
  else
    gms::fuzz::trace_replay(data, size);
  return 0;
}
