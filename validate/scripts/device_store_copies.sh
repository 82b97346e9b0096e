#!/usr/bin/env bash
# One device call: gms-store-copy-ubench (validate/runner/store_copy_ubench.cu) - does a far store's near copy take a
# resident line's L2 way as a far read's copy does? One CTA an SM reads its part of a resident set R (8/16/24 MiB)
# every round and streams S (2..32 MiB a round, all SMs) of fresh lines as stores or as reads, 16 rounds a launch.
# Every launch (two per case) under ncu, whose cache control writes L2 back and empties it before each, so a launch's
# DRAM reads are R once plus what the stream pushed out of R (plus the stream itself when it reads).
#   store_copies_run.jsonl  the cases as the binary prints them (cycles per round)
#   store_copies_ncu.csv    ncu --page raw of the launches
#   store_copies_env.txt    GPU, driver, clocks, ncu, command, the build, the SASS' loads and stores
# `pace`: the 16 MiB streams only, each at four rates (gms-store-copy-ubench --pace), as store_copies_pace_*;
# `spread`: the 16 MiB streams from all SMs, every second or every fourth (--spread), as store_copies_spread_*;
# `sync`: the default cases with every round ended at a grid-wide barrier (--sync), as store_copies_sync_*.
# Read by validate/scripts/store_copies.py beside the model's rounds (bench/store_copies.cpp).
# Usage: validate/scripts/device_store_copies.sh [pace|spread|sync]
set -uo pipefail
source "$(dirname "$0")/device_env.sh"
source "$(dirname "$0")/ncu_metrics.sh"
metrics="gpu__time_duration.sum,dram__bytes_read.sum,dram__bytes_write.sum,lts__t_sectors_op_read.sum,lts__t_sectors_op_write.sum,lts__t_sectors_op_read_lookup_hit.sum,lts__t_sectors_op_read_lookup_miss.sum,lts__t_sectors_srcunit_ltcfabric.sum,l1tex__m_xbar2l1tex_read_sectors.sum,l1tex__m_l1tex2xbar_write_sectors.sum,launch__grid_size,launch__block_size"
name=store_copies${1:+_$1}
device_build_env $name "device_store_copies.sh $*" validate/runner/store_copy_ubench.cu /tmp/gms-store-copy-ubench "Function|LDG|STG|NANOSLEEP"
/tmp/gms-store-copy-ubench ${1:+--$1} > "$OUT/${name}_run.jsonl"
ncu --clock-control none --csv --page raw -k regex:store_copy_rounds \
    --metrics "$(keep_known_metrics "$metrics" 2>> "$OUT/${name}_env.txt")" \
    /tmp/gms-store-copy-ubench ${1:+--$1} > "$OUT/${name}_ncu.csv" 2> "$OUT/${name}_ncu.err"
echo "ncu exit $?" >> "$OUT/${name}_env.txt"
nvidia-smi --query-gpu=clocks.sm,temperature.gpu,power.draw --format=csv >> "$OUT/${name}_env.txt"
