#!/usr/bin/env bash
# One device call: what cp.async (LDGSTS) costs at L2 when its shared destination is off the 32-byte
# alignment of its global source (gms-ldgsts-ubench, validate/runner/ldgsts_ubench.cu).
#   ldgsts_ubench.jsonl   time per pattern (L2-resident buffer, median of 20 launches)
#   ldgsts_ncu.csv        each pattern's two launches under ncu (sectors delivered, t-stage sectors,
#                         L2 lookups, requests, the L2 request coalescer)
#   ldgsts_env.txt        GPU, driver, clocks, ncu version, command, the LDGSTS forms in the SASS
set -uo pipefail
OUT=${OUT:-$PWD/out}
mkdir -p "$OUT"
here=$(dirname "$0")
source "$here/device_env.sh"
{
  device_env device_ldgsts.sh validate/runner/ldgsts_ubench.cu /tmp/gms-ldgsts-ubench
  echo "# copies in the SASS (expect LDGSTS.E.BYPASS.128 and LDGSTS.E.128)"
  cuobjdump -sass /tmp/gms-ldgsts-ubench | grep -oE "LDGSTS[A-Z0-9.]*" | sort | uniq -c
} > "$OUT/ldgsts_env.txt" 2>&1
/tmp/gms-ldgsts-ubench > "$OUT/ldgsts_ubench.jsonl" 2>> "$OUT/ldgsts_env.txt"
echo "ldgsts ubench exit $?"; cat "$OUT/ldgsts_ubench.jsonl"
metrics=gpu__time_duration.sum,sm__cycles_elapsed.max,lts__cycles_elapsed.max,lts__t_sectors_op_read.sum,lts__t_requests_op_read.sum,lts__t_sectors_srcunit_tex_op_read.sum,lts__t_requests_srcunit_tex_op_read.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__t_requests_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum,l1tex__t_sectors_pipe_lsu_mem_global_op_ld_lookup_hit.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared_op_st.sum,l1tex__data_pipe_lsu_wavefronts_mem_shared.sum,smsp__sass_inst_executed_op_ldgsts.sum,lrc__xbar2lrc_requests_op_read.sum,lrc__lrc2xbar_sectors_op_read.sum,lrc__lrc2xbar_sectors_op_read_coalescing_achieved_type_hardware.sum,dram__bytes_read.sum
source "$here/ncu_metrics.sh"
keep=$(keep_known_metrics "$metrics") 2>> "$OUT/ldgsts_env.txt"
ncu --cache-control none --clock-control none --metrics "$keep" --csv --page raw /tmp/gms-ldgsts-ubench --profile \
  > "$OUT/ldgsts_ncu.csv" 2>> "$OUT/ldgsts_env.txt"
echo "ldgsts ncu exit $?"
python3 - "$OUT/ldgsts_ncu.csv" <<'PY'
import csv, sys
rows = list(csv.reader(open(sys.argv[1])))
h = [i for i, r in enumerate(rows) if r and r[0] == "ID"][0]
names = ["full_aligned", "full_shift16", "halves_aligned", "halves_pad80", "rows256_aligned", "rows256_pad272", "full_shift16_ca"]
for i, r in enumerate(rows[h + 2:]):
    d = dict(zip(rows[h], r))
    g = lambda k: float(d.get(k, "nan").replace(",", "") or "nan")
    req = g("smsp__sass_inst_executed_op_ldgsts.sum") * 16
    print(names[i // 2], "xbar/req %.3f t/req %.3f lookups/req %.3f lrc_req/ldgsts %.3f us %.1f" % (
        g("l1tex__m_xbar2l1tex_read_sectors.sum") / req, g("l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum") / req,
        g("lts__t_sectors_srcunit_tex_op_read.sum") / req, g("lrc__xbar2lrc_requests_op_read.sum") / (req / 16),
        g("gpu__time_duration.sum") / 1e3))
PY
