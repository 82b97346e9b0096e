# ValidateResults.*: the memory side's measurements - local write-back, store copies, merge ratios, atomics and
# reductions, the L2 slices and fabric, GPC shares, the presets' measured values, the records' SASS-derived loads -
# each held by its validate/scripts/ check on the committed records, refused on a fixture, or set beside a model
# run. Included from tests/CMakeLists.txt where python3 is found (GMS_PYTHON3, gms_script_check).
# Stored spill frames that fit L2 still reach DRAM, local ones far sooner than global ones laid out the same
# (validate/results/h200/local_writeback; not modelled: docs/calibration.md).
gms_script_check(LocalWritebackStoredFramesReachDramBeforeL2IsFull local_writeback.py validate/results/h200/local_writeback)
gms_script_check(LocalWritebackRepeatsOnAThirdBoard local_writeback.py validate/results/h200/local_writeback/repeat)
if(GPUMEMSIM_BUILD_BENCH)
  # ValidateResults.NAME: bench/TOOL.cpp's JSON lines on PRESET (TOOL's extra arguments: ARGN) beside the record DIR,
  # validate/scripts/SCRIPT DIR --model LINES --check.
  function(gms_model_check name tool preset script dir)
    string(JOIN " " extra ${ARGN})
    add_test(NAME ValidateResults.${name}
             COMMAND sh -c "\"$0\" \"$1\" ${extra} > \"$2\" && \"$3\" \"$4\" \"$5\" --model \"$2\" --check"
                     $<TARGET_FILE:${tool}> ${PROJECT_SOURCE_DIR}/configs/gpus/${preset}.yaml
                     ${PROJECT_BINARY_DIR}/tests/${name}.jsonl ${GMS_PYTHON3}
                     ${PROJECT_SOURCE_DIR}/validate/scripts/${script} ${PROJECT_SOURCE_DIR}/${dir})
  endfunction()
  # ... the model's side of gms-local-ubench (bench/local_writeback.cpp: l2.dirty_ways_per_set,
  # l2.local_dirty_ways_per_set) beside it.
  gms_model_check(LocalWritebackModelWritesBackAsSilicon local_writeback h200 local_writeback.py
                  validate/results/h200/local_writeback)
  # A line stored from the far partition and read back costs one L2 lookup from the first round on, local or global
  # (l2.far_stores_copy_near): gms-local-ubench's warm-up launches under ncu on the H100 and the H200, the model's
  # first two rounds of the same cases beside them (docs/calibration.md, "A far store leaves a near copy").
  add_test(NAME ValidateResults.FarStoreCopiesAsSiliconReadsThem
           COMMAND sh -c "\"$0\" \"$1\" > \"$2\" && \"$0\" \"$3\" > \"$4\" && \"$5\" \"$6\" \"$7\" \"$2\" \"$8\" \"$4\" --check"
                   $<TARGET_FILE:local_writeback> ${PROJECT_SOURCE_DIR}/configs/gpus/h100.yaml
                   ${PROJECT_BINARY_DIR}/tests/far_store_copies_h100.jsonl ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml
                   ${PROJECT_BINARY_DIR}/tests/far_store_copies_h200.jsonl ${GMS_PYTHON3}
                   ${PROJECT_SOURCE_DIR}/validate/scripts/far_store_copies.py
                   ${PROJECT_SOURCE_DIR}/validate/results/h100/local
                   ${PROJECT_SOURCE_DIR}/validate/results/h200/local_writeback)
  # A store stream beside a resident set displaces it as silicon's does only with the far stores' near copies, and
  # without them the check refuses the model (validate/results/h200/store_copies: the 16 MiB-a-round cases).
  gms_model_check(StoreCopiesAsSiliconDisplaces store_copies h200 store_copies.py validate/results/h200/store_copies
                  stream_mib=16)
  gms_model_check(StoreCopiesCheckRefusesNoCopies store_copies h200 store_copies.py validate/results/h200/store_copies
                  stream_mib=16 gpu.l2.far_stores_copy_near=false)
  set_tests_properties(ValidateResults.StoreCopiesCheckRefusesNoCopies PROPERTIES PASS_REGULAR_EXPRESSION
                       "FAIL: model .* store R 16[.]0 S 16[.]0: displaced 0[.]0")
endif()
# gms-store-copy-ubench --pace: the same streams at lower rates keep more of the resident set on silicon (the
# model's LRU has no rate in it: validate/results/h200/store_copies/pace).
gms_script_check(StoreCopiesSlowerStreamsDisplaceLess store_copies.py validate/results/h200/store_copies/pace)
# ... with every round ended at a grid-wide barrier (the model's replay is in step), and from fewer SMs.
gms_script_check(StoreCopiesInStep store_copies.py validate/results/h200/store_copies/sync)
gms_script_check(StoreCopiesFromFewerSms store_copies.py validate/results/h200/store_copies/spread)
# The L2 request coalescer's merges beside time (docs/calibration.md, "Merged where silicon looks up"): on both committed
# scorecards the model runs fast where it merges more of the SMs' reads than silicon (correlation -0.84 / -0.78
# since reads of one 4 KiB block share their DRAM latency draw; -0.83 / -0.80 since the DRAM's latency spread; -0.82 / -0.76 since launch.sm_order; -0.83 / -0.77 before it, -0.84 / -0.78 before sm.mio_entries_by_cta_age; the H200's over 56
# records since the rows sweep joined its card), and
# silicon merges less at K 8192 than at 4096 where the model does not; a fixture whose model merges as silicon does
# is refused.
foreach(gpu h100 h200)
  add_test(NAME ValidateResults.MergeRatios.${gpu}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/merge_ratios.py
                   ${PROJECT_SOURCE_DIR}/docs/results/${gpu}-compare.json.xz --records ${PROJECT_SOURCE_DIR}/validate/results/${gpu} --check)
endforeach()
set_tests_properties(ValidateResults.MergeRatios.h100 PROPERTIES PASS_REGULAR_EXPRESSION
                     "24 records: correlation of the merged excess with the time error -0[.]84.*check passed")
set_tests_properties(ValidateResults.MergeRatios.h200 PROPERTIES PASS_REGULAR_EXPRESSION
                     "56 records: correlation of the merged excess with the time error -0[.]78.*check passed")
gms_script_expect(MergeRatiosCheckRefusesAModelInStep merge_ratios.py
  "FAIL: no correlation.*FAIL: triton_gemm_MxNxK_64x128x32_w4_s4_grouped8: silicon 0[.]16 -> 0[.]08, model 0[.]16"
  ${PROJECT_SOURCE_DIR}/tests/data/merge_in_step/card.json --records
  ${PROJECT_SOURCE_DIR}/tests/data/merge_in_step/records --check)
# A warp's copies do not hold it longer when half of them miss to DRAM, at the WMMA GEMM's rate of copies
# (gms-copy-issue-ubench): the GEMM's order-dependent wait on its copies has another cause.
gms_script_check(CopiesDoNotWaitOnMissesAtTheGemmsRate copy_issue.py validate/results/h100/copy_issue)
# The CUDA GEMV's atomics cost it per request, not per element added (gms-gemv-parts-ubench atomics,
# validate/results/*/gemv_atomics: two H100s and an H200); on the H100s less with more warps per program.
foreach(run gemv_atomics gemv_atomics_run1)
  add_test(NAME ValidateResults.GemvAtomicsCostPerRequest.h100_${run}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/gemv_atomics_table.py
                   ${PROJECT_SOURCE_DIR}/validate/results/h100/gemv_atomics --run ${run} --check --check-warps)
endforeach()
gms_script_check(GemvAtomicsCostPerRequest.h200 gemv_atomics_table.py validate/results/h200/gemv_atomics)
gms_script_check(GemvAtomicsCheckRefusesCostPerAdd gemv_atomics_table.py tests/data/gemv_atomics_per_add REFUSES)
# Reductions to one line take turns, 11.1 ns apart on both GPUs (gms-red-ubench hot), as the presets'
# l2.atomic_line_interval says; a preset without it is refused.
foreach(gpu h100 h200)
  add_test(NAME ValidateResults.ReductionsToOneLineTakeTurns.${gpu}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/red_hot.py
                   ${PROJECT_SOURCE_DIR}/validate/results/${gpu}/red_hot --check
                   --preset ${PROJECT_SOURCE_DIR}/configs/gpus/${gpu}.yaml)
endforeach()
add_test(NAME ValidateResults.ReductionTurnsCheckRefusesAPresetWithoutThem
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/red_hot.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h100/red_hot --preset ${PROJECT_SOURCE_DIR}/configs/gpus/a100.yaml)
set_tests_properties(ValidateResults.ReductionTurnsCheckRefusesAPresetWithoutThem PROPERTIES WILL_FAIL TRUE)
# What pending reductions hold back (gms-red-ubench queue and backlog, both GPUs): not a warp's own load,
# a read of the added line behind 64+ SMs' reductions (TagArray::hold_until), other lines only in the
# tail; a fixture whose load waits behind its own reductions is refused.
gms_script_check(PendingReductionsHoldOnlyTheirLine.h100 red_holds.py validate/results/h100)
gms_script_check(PendingReductionsHoldOnlyTheirLine.h200 red_holds.py validate/results/h200)
gms_script_check(PendingReductionsCheckRefusesAnOwnQueueHold red_holds.py tests/data/red_holds_own_queue REFUSES)
# How the L2 slices take short runs of lines (gms-red-ubench under Nsight's per-slice rollups, H200): the
# GEMV's 896 lines load the busiest slice 1.68x the mean, 64 lines 5.9x - more unevenly than an XOR fold of
# single lines (docs/calibration.md, "The hot lines' drain" and "Four lines a slice"); an even spread is refused.
gms_script_check(ShortRunsOfLinesLoadTheSlicesUnevenly.h200 red_slices.py validate/results/h200/red_slices)
gms_script_check(SliceSpreadCheckRefusesAnEvenSpread red_slices.py tests/data/red_slices_even REFUSES)
# ... and on the H100, from its earlier profiles of the same rows (which carry the per-slice rollups too).
add_test(NAME ValidateResults.ShortRunsOfLinesLoadTheSlicesUnevenly.h100
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/red_slices.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h100/red/red_ncu.csv
                 ${PROJECT_SOURCE_DIR}/validate/results/h100/red_hot/red_hot_ncu.csv --check)
# The model's side (bench/slice_spread.cpp): XOR folding over 512-byte runs puts one block's 8 lines on silicon's
# third of the sectors' busiest slice, 26.7x the mean on the H100's 80 slices (a candidate map, not the presets' yet:
# docs/calibration.md, "Four lines a slice").
if(GPUMEMSIM_BUILD_BENCH)
  add_test(NAME ValidateResults.SliceInterleaveGivesSiliconsSpreadOfOneBlock
           COMMAND $<TARGET_FILE:slice_spread> ${PROJECT_SOURCE_DIR}/configs/gpus/h100.yaml gpu.l2.hash=xor
                   gpu.l2.slice_interleave=512B)
  set_tests_properties(ValidateResults.SliceInterleaveGivesSiliconsSpreadOfOneBlock PROPERTIES
                       PASS_REGULAR_EXPRESSION "\\| 1 \\| 8 \\| 26\\.67 \\(26\\.67-26\\.67\\)")
endif()
# Silicon's reductions hold the GEMV programs that issue them (gms-gemv-times stamps, H200): the first
# wave ends later with atomics than with plain stores, every later wave with it.
gms_script_check(GemvAtomicsHoldTheirPrograms.h200 gemv_times.py validate/results/h200/gemv_times)
gms_script_check(GemvAtomicsHoldTheirPrograms.h200_compute_done gemv_times.py validate/results/h200/gemv_times/compute_done)
gms_script_check(GemvAtomicsHoldCheckRefusesFreePrograms gemv_times.py tests/data/gemv_times_no_hold REFUSES)
# A half-written sector takes two sectors' slots of an SM's stores (gms-store-ubench,
# validate/results/h100/store), as the H100 and H200 presets say; a preset without it is refused.
add_test(NAME ValidateResults.HalfSectorStoresCostTwoSlots
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/store_rates.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h100/store --check
                 --preset ${PROJECT_SOURCE_DIR}/configs/gpus/h100.yaml --preset ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml)
add_test(NAME ValidateResults.HalfSectorCheckRefusesAPresetWithoutIt
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/store_rates.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h100/store --preset ${PROJECT_SOURCE_DIR}/configs/gpus/a100.yaml)
set_tests_properties(ValidateResults.HalfSectorCheckRefusesAPresetWithoutIt PROPERTIES WILL_FAIL TRUE)
# The Triton GEMM's own stamps: the small tiling's CTAs run faster on the same 24 SMs (two small
# GPCs) in every run (validate/results/h100/triton_cta_times).
gms_script_expect(TritonCtaTimesSmallGpcsAhead cta_sm_speed.py
  "4096x4096x4096_64x128x32_w4_s4_grouped8: 3 runs, 132 SMs, per-SM mean CTA duration CV 1[0-9]\\.[0-9]+ %, run-to-run correlation [-+0-9. ]+[^a-z]*24 SMs over 3 % faster than the median SM \\([0-9.]+ us\\): 26 27 32 33 34 35 36 37 38 39 40 41 72 73 78 79 80 81 82 83 84 85 126 127"
  ${PROJECT_SOURCE_DIR}/validate/results/h100/triton_cta_times)
# gms-lrc-ubench's table: the coalescer still merges with 65,536 distinct lines in flight.
gms_script_expect(LrcCapacityTable lrc_capacity.py
  "\\| 1 \\| 0 \\| 64 \\| 0\\.260 \\|.*\\| 1024 \\| 0 \\| 65536 \\| 0\\.760 \\|.*\\| 2112 \\| 0 \\| 135168 \\| 1\\.000 \\|"
  ${PROJECT_SOURCE_DIR}/validate/results/h100/lrc)
# The H200's, with its per-load latencies: 300-400 cycles for 90 % of the loads whether 1 or 2,112 groups share
# lines (a merged request comes back no sooner than a lookup; validate/results/h200/lrc).
gms_script_expect(LrcCapacityTable.h200 lrc_capacity.py
  "\\| 1 \\| 0 \\| 64 \\| 0\\.282 \\|.*\\| 2112 \\| 0 \\| 135168 \\| 1\\.000 \\|.*\\| 4 \\| 0 \\| 350 \\| 0\\.062 \\| 0\\.009 \\| 0\\.855 \\|.*\\| 2112 \\| 0 \\| 349 \\| 0\\.062 \\| 0\\.000 \\| 0\\.899 \\|"
  ${PROJECT_SOURCE_DIR}/validate/results/h200/lrc)
# ... and the model on that curve: the ubench replayed from its trace (four loads in flight per warp, as its
# SASS has them) on the H100 preset, within 0.06 of silicon where it is today - many groups and staggered
# warps. With few groups it merges 2-3x too much and runs 2-4x too fast (silicon's replies are bounded where
# the model's are not: docs/tensor-cores.md, "The coalescer's window and the replies it must still deliver");
# those cases are not held here. Since a load's data takes the shared-memory data path (sm.load_data_bytes_per_cycle,
# 2026-12-01) the replies come back spaced by it: few groups merge less (16 / 0: 0.155 -> 0.331, silicon 0.468;
# 128 / 0: 0.311 -> 0.405, silicon 0.685; times 13.8 -> 17.6 us, silicon 30.1), 1024 / 0 a little more (0.810 ->
# 0.837, silicon 0.760): held within 0.08.
add_test(NAME ValidateResults.LrcModelOnSiliconCurve
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/lrc_model_check.py $<TARGET_FILE:gpumemsim>
                 ${PROJECT_SOURCE_DIR}/configs/gpus/h100.yaml ${PROJECT_SOURCE_DIR}/validate/results/h100/lrc
                 --cases 1024/0,2112/0,128/4 --check 0.08)
set_tests_properties(ValidateResults.LrcModelOnSiliconCurve PROPERTIES TIMEOUT 300)
# The fixed costs of a kernel and of a CTA, measured (validate/results/h100/launch): ncu's duration of
# gms-cta-ubench's empty grids beyond what the model times for them (launch.kernel_overhead, within 2 %),
# and the cost of one more CTA per SM with 0..227 KiB of shared memory a CTA (launch.cta_launch_latency
# where one or two fit an SM, launch.cta_dispatch_interval elsewhere; within 10 %) - the smem/ call has
# both. The H200 preset takes the H100's values (same GH100 front end; no H200 could be drawn for it).
foreach(gpu h100 h200)
  add_test(NAME ValidateResults.LaunchCostsAreMeasured.${gpu}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/launch_model_check.py $<TARGET_FILE:gpumemsim>
                   ${PROJECT_SOURCE_DIR}/configs/gpus/${gpu}.yaml ${PROJECT_SOURCE_DIR}/validate/results/h100/launch/smem --check)
  set_tests_properties(ValidateResults.LaunchCostsAreMeasured.${gpu} PROPERTIES TIMEOUT 120)
endforeach()
# A far store takes its near slice's crossbar input only; its home pass comes over the fabric
# (gms-fabric-ubench stores, validate/results/h100/fabric_stores: 1.02 input cycles per stored sector,
# near or far) - what MemorySystem::to_home_slice charges stores since 2026-11-27.
add_test(NAME ValidateResults.FarStoresTakeOneCrossbarInput
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/fabric_stores.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h100/fabric_stores --check 0.1)
# Reductions alike (validate/results/h100/fabric_reductions: 1.27 input cycles a sector, near or far) -
# measured; the model keeps their home input until the limit it stands in for is found (its README).
add_test(NAME ValidateResults.FarReductionsTakeOneCrossbarInput
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/fabric_stores.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h100/fabric_reductions --mode reductions --check 0.1)
# Far loads and far stores whose data goes into one partition share its link (validate/results/h200/fabric_mix:
# 1,276 GB/s together, 1,198-1,241 either alone), as MemorySystem::cross_fabric's one server per direction has it.
add_test(NAME ValidateResults.FabricLoadsAndStoresShareALink
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/fabric_mix.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/fabric_mix --check)
# A half-written sector crosses the fabric as one whole sector and takes 1.25 of a whole one's crossbar-input
# cycles (l2.partial_sector_input_slots); one left half written is read from DRAM, one completed by a second
# store is not (validate/results/h200/fabric_halfstores).
add_test(NAME ValidateResults.FabricHalfSectorsCrossAsWholeOnes
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/fabric_mix.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/fabric_halfstores --check)
# An SM's stores go ahead of its loads: beside 4-8 loading warps the WMMA epilogue's half sectors keep their
# 0.5 a cycle while the loads fall to a fifth (validate/results/h200/store_mix) - not modelled yet (its README);
# the model's side of the program, build/store_mix, runs beside it.
add_test(NAME ValidateResults.StoresGoAheadOfLoads
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/store_mix.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/store_mix --check)
# The L2 shares a burst between SMs that send at once; the model serves them in arrival order (gms-gpc-ubench
# burst, validate/results/h200/gpc_burst): held on silicon's record, refused on the model's answer; the model's
# side, build/gpc_burst, runs beside it.
gms_script_check(L2SharesBurstsBetweenSms gpc_burst.py validate/results/h200/gpc_burst)
gms_script_check(GpcBurstCheckRefusesArrivalOrder gpc_burst.py tests/data/gpc_burst_queued REFUSES)
if(GPUMEMSIM_BUILD_BENCH)
  add_test(NAME ValidateResults.GpcBurstModelReplays COMMAND gpc_burst ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml)
  set_tests_properties(ValidateResults.GpcBurstModelReplays PROPERTIES PASS_REGULAR_EXPRESSION "all, odd late 500 [|]")
  # With the lines reaching the slices in the order they arrive (l2.reads_in_arrival_order), the even SMs,
  # 250 cycles ahead, are slowed by the odd ones' overlap as on silicon (60 %): at least 30 % of the way
  # from alone to all at once; booked when their warps issue they are not slowed at all (0 %).
  add_test(NAME ValidateResults.GpcBurstModelInArrivalOrder
           COMMAND gpc_burst ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml gpu.l2.reads_in_arrival_order=true)
  set_tests_properties(ValidateResults.GpcBurstModelInArrivalOrder PROPERTIES
                       PASS_REGULAR_EXPRESSION "all, odd late 250 [|] [0-9]+ [|] [0-9]+ [|] (0[.][3-9]|1[.])")
endif()
if(GPUMEMSIM_BUILD_BENCH)
  add_test(NAME ValidateResults.StoreMixModelReplays
           COMMAND store_mix ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml
                   ${PROJECT_SOURCE_DIR}/validate/results/h200/store_mix/store_mix_run.jsonl)
  set_tests_properties(ValidateResults.StoreMixModelReplays PROPERTIES PASS_REGULAR_EXPRESSION "stores [+] loads [|] 28 [|]")
endif()
# L2 hits and misses share the slices' read-out path (validate/results/h200/l2_mix: together 8.7-9.8 TB/s, what
# hits move alone; the L2 -> crossbar stage 9.1-9.7 % busy per TB/s received, hit or missed; a miss counted
# twice by the data array). The model's side replays the mixes (totals within 15 %); with a slice path twice as
# wide it moves 16 TB/s where silicon moves 9.6, and the check refuses it.
gms_script_check(L2MissesShareTheReadPath l2_mix.py validate/results/h200/l2_mix)
gms_script_check(L2MixCheckRefusesABypass l2_mix.py tests/data/l2_mix_bypass REFUSES)
# Under the 8192^3 Triton 128x128x64 GEMMs silicon's L2 -> crossbar stage carries 89-99 % of its ceiling
# (validate/results/h200/l2_stages), the load at which the model's slices run them (89-92 %); refused on a record
# where the 128x256x64 tilings' rows (55-71 %) carry the 128x128x64 names (tests/data/l2_stages_half).
gms_script_check(TritonGemmsKeepTheL2ReadPathNearlyFull l2_stages.py validate/results/h200/l2_stages)
gms_script_check(L2StagesCheckRefusesALighterLoad l2_stages.py tests/data/l2_stages_half REFUSES)
if(GPUMEMSIM_BUILD_BENCH)
  add_test(NAME ValidateResults.L2MixModelReplays
           COMMAND l2_mix_curve --check ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml
                   ${PROJECT_SOURCE_DIR}/validate/results/h200/l2_mix/l2_mix_run.jsonl)
  add_test(NAME ValidateResults.L2MixCheckRefusesAWiderPath
           COMMAND l2_mix_curve --check ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml
                   ${PROJECT_SOURCE_DIR}/tests/data/l2_mix_two_rows/l2_mix_run.jsonl gpu.l2.slice_bytes_per_cycle=100)
  set_tests_properties(ValidateResults.L2MixCheckRefusesAWiderPath PROPERTIES WILL_FAIL TRUE)
endif()
# The DRAM's share by GPC (gms-gpc-ubench contention, validate/results/<gpu>/gpc): with 512+ lines per SM
# in flight the SMs of the two 12-SM GPCs get 16-17 % (H100) / 6-8 % (H200) more than the rest, with
# 128-256 none. dram.gpc_share_backlog / gpc_share_ratio at the values below replay that stream within
# 0.03 of silicon's ratio at every depth; without them the model splits nowhere (the second test). Off in
# the presets: it leaves the WMMA GEMM's lockstep orders as they are (their queues never reach the
# backlog) and makes the GEMVs 0.4-0.7 points faster than silicon (docs/calibration.md).
foreach(case h100:1.28 h200:1.10)
  string(REPLACE ":" ";" case "${case}")
  list(GET case 0 gpu)
  list(GET case 1 ratio)
  add_test(NAME ValidateResults.GpcShareReproducesTheSplit.${gpu}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/gpc_split_model_check.py $<TARGET_FILE:gpumemsim>
                   ${PROJECT_SOURCE_DIR}/configs/gpus/${gpu}.yaml ${PROJECT_SOURCE_DIR}/validate/results/${gpu}/gpc
                   --set gpu.icnt.gpc_sms=12,12,18,18,18,18,18,18 --set gpu.dram.gpc_share_backlog=5MiB
                   --set gpu.dram.gpc_share_ratio=${ratio} --check 0.03)
  set_tests_properties(ValidateResults.GpcShareReproducesTheSplit.${gpu} PROPERTIES TIMEOUT 300)
endforeach()
add_test(NAME ValidateResults.GpcSplitCheckFailsFirstComeFirstServed
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/gpc_split_model_check.py $<TARGET_FILE:gpumemsim>
                 ${PROJECT_SOURCE_DIR}/configs/gpus/h100.yaml ${PROJECT_SOURCE_DIR}/validate/results/h100/gpc
                 --set gpu.icnt.gpc_sms=12,12,18,18,18,18,18,18 --check 0.03)
set_tests_properties(ValidateResults.GpcSplitCheckFailsFirstComeFirstServed PROPERTIES TIMEOUT 300
  PASS_REGULAR_EXPRESSION "x4: smallest GPCs' SMs over the largest's 1.000, silicon \\(ahead / rest\\) 1.157.*from silicon")
add_test(NAME ValidateResults.KernelOverheadCheckRefusesAPresetWithoutIt
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/launch_model_check.py $<TARGET_FILE:gpumemsim>
                 ${PROJECT_SOURCE_DIR}/configs/gpus/a100.yaml ${PROJECT_SOURCE_DIR}/validate/results/h100/launch --check)
set_tests_properties(ValidateResults.KernelOverheadCheckRefusesAPresetWithoutIt PROPERTIES TIMEOUT 120
  PASS_REGULAR_EXPRESSION "kernel_overhead 0 cycles: 100.0 % from it \\(tolerance 2.0 %\\)")
# A spilled GEMV's compiled order (workload local_program) from a listing: x and W loads with their
# scoreboards, STL/LDL at their frame lines (merged into ranges across plain instructions), the
# waits that retire loads, FMA-pipe math; the reduction's instructions left out.
gms_script_expect(SassLocalProgramReadsAListing sass_local_program.py
  "^C90 X3 C6 X4 C63 S62\\+2/1 C2 S64\\+4/2~2 C5 S56\\+6/3~2 C26 D8 .* L202\\+10/5\\.5 C1 L214\\+2/1\\.5 C1 W1\\.2 W1\\.3 D16 W1\\.4 .* W1\\.3 W3\\.2 D32 .* D16 F2 D32 F19 S696\\+1/1 F2 .* L68\\+1/1\\.2\n$"
  ${PROJECT_SOURCE_DIR}/tests/data/asm/local_program.sass)
# A reduction's shuffles and the most of them on one dependency chain (registers, and shared memory across
# a barrier), up to the last EXIT.
gms_script_expect(SassShuffleLevelsFollowsRegistersAndBarriers sass_shuffle_levels.py
  "^shuffle_levels_case: 5 shuffles, 3 levels\n$"
  ${PROJECT_SOURCE_DIR}/tests/data/asm/shuffle_levels.sass)
# The records replay the issue profile their committed SASS and ncu source export give.
add_test(NAME ValidateResults.RecordsCarryTheirCodesIssueProfile
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/records_add_issue.py --check
                 --gpumemsim $<TARGET_FILE:gpumemsim> validate/results/h100/gemm validate/results/h200/gemm
                 validate/results/h100/padding validate/results/h200/padding
                 validate/results/h100/triton_gemm validate/results/h200/triton_gemm validate/results/h100/triton_tma_gemm
                 validate/results/h200/triton_tma_gemm validate/results/h200/triton_rows validate/results/h200/triton_stages
                 validate/results/h100/seed002 validate/results/h200/seed002
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# One SM's line requests to the L2 (gms-inflight-ubench): the model's saturated rates, replayed on
# the memory system alone, within 3 % of silicon's (validate/results/*/inflight).
if(GPUMEMSIM_BUILD_BENCH)
  foreach(gpu h100 h200)
    add_test(NAME ValidateResults.InflightCurveMatchesSilicon.${gpu}
             COMMAND $<TARGET_FILE:inflight_curve> --check configs/gpus/${gpu}.yaml
                     validate/results/${gpu}/inflight/inflight_ubench.jsonl
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    # The SM's copy engine (gms-tma-ubench): what one more bulk tensor copy adds to a round, per box size.
    add_test(NAME ValidateResults.TmaCurveMatchesSilicon.${gpu}
             COMMAND $<TARGET_FILE:tma_curve> --check configs/gpus/${gpu}.yaml validate/results/${gpu}/tma/tma_ubench.jsonl
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
endif()
# The presets carry what the microbenchmarks measured: the SM-to-partition map (gms-partition-ubench,
# validate/results/*/partition), the cp.async fill rate (gms-fill-ubench, validate/results/*/fill),
# the special-register latency (gms-sreg-ubench, validate/results/*/sreg), the MIO queue's bounds
# (gms-mio-ubench, validate/results/*/mio) and the L2 fabric's link rate (gms-fabric-ubench,
# validate/results/*/fabric). A fifth field names a test that the check refuses a
# preset without the value (the A100's: never measured).
foreach(check "PartitionMap:partition_map.py:partition/partition_ubench.jsonl"
              "CopyFillRate:fill_slopes.py:fill/fill_run.jsonl:CopyFillCheckRefusesAPresetWithoutTheRate"
              "SpecialRegisterLatency:sreg_latency.py:sreg/sreg_run.jsonl:SpecialRegisterCheckRefusesAPresetWithoutTheLatency"
              "MioQueue:mio_queue.py:mio/mio_run.jsonl:MioQueueCheckRefusesAPresetWithoutTheBounds"
              "FabricLinkRate:fabric_links.py:fabric:FabricCheckRefusesAPresetWithoutTheLinkRate")
  string(REPLACE ":" ";" parts "${check}")
  list(GET parts 0 what)
  list(GET parts 1 script)
  list(GET parts 2 data)
  foreach(gpu h100 h200)
    add_test(NAME ValidateResults.Preset${what}IsMeasured.${gpu}
             COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/${script}
                     validate/results/${gpu}/${data} --check configs/gpus/${gpu}.yaml
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  endforeach()
  list(LENGTH parts fields)
  if(fields GREATER 3)
    list(GET parts 3 refusal)
    add_test(NAME ValidateResults.${refusal}
             COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/${script}
                     validate/results/h100/${data} --check configs/gpus/a100.yaml
             WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
    set_tests_properties(ValidateResults.${refusal} PROPERTIES WILL_FAIL TRUE)
  endif()
endforeach()
# A global load's data passes the shared-memory data path at 128 bytes a cycle (gms-fill-ubench --loads on the H200,
# validate/results/h200/load_fill; the H100 has the same sm_90 SM): both presets carry the rate; the A100's, never
# measured, is refused.
foreach(gpu h100 h200)
  add_test(NAME ValidateResults.PresetLoadDataRateIsMeasured.${gpu}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/load_fill_slopes.py
                   validate/results/h200/load_fill/load_fill_run.jsonl --check configs/gpus/${gpu}.yaml
           WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
  set_tests_properties(ValidateResults.PresetLoadDataRateIsMeasured.${gpu} PROPERTIES PASS_REGULAR_EXPRESSION
    "[|] 64 [|] [.]cg_dram [|] 512 [|] 4[.]02 [|].*mem_lgds wavefronts per LDG.*check passed")
endforeach()
add_test(NAME ValidateResults.LoadDataCheckRefusesAPresetWithoutTheRate
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/load_fill_slopes.py
                 validate/results/h200/load_fill/load_fill_run.jsonl --check configs/gpus/a100.yaml
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
set_tests_properties(ValidateResults.LoadDataCheckRefusesAPresetWithoutTheRate PROPERTIES WILL_FAIL TRUE)
# The WMMA and CUDA GEMV records carry silicon's repeated rounds of their time (device_repeat.sh):
# compare's ceiling per group and its `resolved:` targets read them.
add_test(NAME ValidateResults.RecordsCarryTheirRepeatedRounds
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/records_add_repeat.py --check
                 validate/results/h100 validate/results/h200
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# Records replay the shared-memory carve-out their ncu profile implies, and the GEMMs the spill
# frame Triton reported (records_add_carveout.py).
file(GLOB gms_record_dirs LIST_DIRECTORIES true ${PROJECT_SOURCE_DIR}/validate/results/h100/* ${PROJECT_SOURCE_DIR}/validate/results/h200/*)
list(FILTER gms_record_dirs EXCLUDE REGEX "\\.[a-z]+$")
add_test(NAME ValidateResults.RecordsCarryTheCarveOutTheirProfileImplies
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/records_add_carveout.py --check ${gms_record_dirs}
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# The GEMV records (CUDA and Triton) replay the window of loads in flight their committed SASS gives.
add_test(NAME ValidateResults.GemvRecordsCarryTheirCodesLoadsInFlight
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/records_add_gemv_sass.py --check
                 validate/results/h100/gemv validate/results/h200/gemv
                 validate/results/h100/triton_gemv validate/results/h200/triton_gemv
         WORKING_DIRECTORY ${PROJECT_SOURCE_DIR})
# Seed 001's GEMV keeps 9 of its 128 LDG.128 in flight per warp with 1 warp, 3 with 2-8 warps
# (the committed SASS' scoreboards; validate/results/h200/gemv_parts/README.md).
foreach(case "Li32ELi0E:128 LDG.E.128, at most 9 in flight" "Li256ELi0E:16 LDG.E.128, at most 3 in flight")
  string(REPLACE ":" ";" parts "${case}")
  list(GET parts 0 kernel)
  list(GET parts 1 expect)
  add_test(NAME ValidateResults.GemvLoadsInFlightFromSass.${kernel}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/sass_loads_in_flight.py
                   ${PROJECT_SOURCE_DIR}/validate/results/h200/gemv_parts/gemv_parts.sm90.sass.xz
                   --kernel gemv_splitk_kernelILi256ELi64E${kernel})
  set_tests_properties(ValidateResults.GemvLoadsInFlightFromSass.${kernel} PROPERTIES PASS_REGULAR_EXPRESSION "${expect}")
endforeach()
# Triton's 8192x28672 BLOCK_N 256 GEMV replays its compiled loads and waits (the record's workload local_program
# without spills, records_add_gemv_sass.py from the GEMV sweep's SASS): its global load sectors are silicon's, exactly
# (15,597,568: a W load 16 sectors, an x load one), where the window of loads_in_flight 8 (the most its code keeps
# pending) reads 14,909,440.
add_test(NAME ValidateResults.TritonGemvCompiledLoadsGiveSiliconsSectors
         COMMAND sh -c "d=${CMAKE_CURRENT_BINARY_DIR}/compiled_loads && rm -rf $d && \
           r=${PROJECT_SOURCE_DIR}/validate/results/h200/triton_gemv/triton_gemv_1x8192x28672_bn256_bk64_w4_llcc.json && \
           $<TARGET_FILE:gpumemsim> run -q -g ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml --record $r -o $d/program && \
           $<TARGET_FILE:gpumemsim> run -q -g ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml --record $r \
             --set workload.local_program= --set workload.loads_in_flight=8 -o $d/window && \
           grep -m1 -o '.l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.: [0-9.e+]*' $d/program/stats.json $d/window/stats.json")
set_tests_properties(ValidateResults.TritonGemvCompiledLoadsGiveSiliconsSectors PROPERTIES PASS_REGULAR_EXPRESSION
  "program/stats.json:.l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.: 15597568[.]0.*window/stats.json:.l1tex__t_sectors_pipe_lsu_mem_global_op_ld.sum.: 14909440[.]0")
# ... and, with --schedule, how many it keeps at each wait (1 warp: a mean of 7.44 of the most 9; Triton's BLOCK_N
# 256 GEMV keeps 3.3 of its 8, docs/shared-memory.md).
gms_script_expect(GemvLoadScheduleFromSass sass_loads_in_flight.py
  "sequence: L L L L L L L L L W1 W8 L .*in flight at each wait: 9 8 8 8 [0-9 ]+; mean 7[.]44"
  ${PROJECT_SOURCE_DIR}/validate/results/h200/gemv_parts/gemv_parts.sm90.sass.xz --kernel
  gemv_splitk_kernelILi256ELi64ELi32ELi0E --schedule)
# The Triton GEMM's rows sweep on an H200 (validate/results/h200/triton_rows): up to ~8 waves the cp.async
# row-major grid reads B once a wave, as the model's grid does; over 15.5 waves twice a wave - the excess of
# issue 11's 8192^3 row-major records comes late in the run. Held on the raw ncu file; the TMA grid, which
# loses the sharing sooner, refuses the same check.
add_test(NAME ValidateResults.TritonRowsReadBOnceAWaveUpToEightWaves
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/b_reads.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/triton_rows/triton_rows_ncu.csv.xz --check)
add_test(NAME ValidateResults.TritonRowsCheckRefusesTheTmaGrid
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/b_reads.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/triton_rows/triton_rows_tma_ncu.csv.xz --check --kernel ^triton_tma_gemm_)
set_tests_properties(ValidateResults.TritonRowsCheckRefusesTheTmaGrid PROPERTIES WILL_FAIL TRUE)
# ... the 128x256x64 tiling (one CTA an SM) likewise up to 7.8 waves; the 64x128x32 one (four an SM, a grid that drifts
# from its first wave: validate/results/h200/triton_cta_times) reads B 2.3-4.3 times a wave and refuses it.
add_test(NAME ValidateResults.TritonRowsLargeTilesReadBOnceAWave
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/b_reads.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/triton_rows/triton_rows_tilings_ncu.csv.xz --check --kernel 128x256x64)
add_test(NAME ValidateResults.TritonRowsCheckRefusesTheSmallTiles
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/b_reads.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/triton_rows/triton_rows_tilings_ncu.csv.xz --check --kernel 64x128x32)
set_tests_properties(ValidateResults.TritonRowsCheckRefusesTheSmallTiles PROPERTIES WILL_FAIL TRUE)
# One wave of Triton's cp.async 128x128x64 GEMM (M = 512: no later wave to drift): with 32 coalescer entries a slice the
# model merges what silicon merges and its warps wait for their copies as silicon's do (48 until the dispatcher took
# silicon's SM order, launch.sm_order: now 48 merge too much, L2 read sectors -6.3 %); the presets' 12 entries leave
# the slices ~87 % busy and the warps copy-bound (long_scoreboard ~60 % against 16.7). docs/calibration.md, "What the
# coalescer's 12 entries stand for". Both without the DRAM's latency spread (dram.latency_spread): with it and 32 entries
# the time is -0.3 % (-2.7 % without) but the warps wait on their copies 48 % of the time and the L2 read sectors are
# 8 % high - one wave whose every tile waits on its reads, where independent draws charge more than silicon's slow
# reads do (docs/calibration.md, "The DRAM's latency spread").
set(GMS_ONE_WAVE_TRITON ${PROJECT_SOURCE_DIR}/validate/results/h200/triton_rows/triton_gemm_512x8192x8192_128x128x64_w4_s3_grouped8.json)
set(GMS_ONE_WAVE_TARGETS
    --require "smsp__warp_issue_stalled_long_scoreboard_per_warp_active.pct:mae<=3"
    --require "lts__t_sectors_srcunit_tex_op_read.sum:mape<=5" --require "gpu__time_duration.sum:mape<=3")
add_test(NAME ValidateResults.OneWaveOfTritonGemmWaitsAsSiliconWith32CoalescerEntries
         COMMAND $<TARGET_FILE:gpumemsim> compare --gpu ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml ${GMS_ONE_WAVE_TRITON}
                 --jobs 1 --set gpu.l2.coalescer_entries=32 --set gpu.dram.latency_spread= ${GMS_ONE_WAVE_TARGETS})
add_test(NAME ValidateResults.OneWaveOfTritonGemmIsCopyBoundWithThePresetsTable
         COMMAND $<TARGET_FILE:gpumemsim> compare --gpu ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml ${GMS_ONE_WAVE_TRITON}
                 --jobs 1 --set gpu.dram.latency_spread= ${GMS_ONE_WAVE_TARGETS})
# Refused by the long_scoreboard target itself (not by any failure of the run): its miss and the presets' wait are printed.
set_tests_properties(ValidateResults.OneWaveOfTritonGemmIsCopyBoundWithThePresetsTable PROPERTIES PASS_REGULAR_EXPRESSION
  "MISS smsp__warp_issue_stalled_long_scoreboard_per_warp_active[.]pct:mae<=3 +mean [|]error[|] 4[0-9][.][0-9] pp")
# dram.latency_spread in the H200 and H100 presets is the table gms-latency-spread-ubench's unloaded 1 GiB walk gives
# (validate/results/h200/latency_spread; the H100's estimated as the H200's); a preset without it is refused.
gms_script_expect(PresetsLatencySpreadIsTheWalks latency_spread.py "ok +.*h200[.]yaml.*ok +.*h100[.]yaml.*check passed"
  ${PROJECT_SOURCE_DIR}/validate/results/h200/latency_spread/latency_spread_run.jsonl --check
  ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml ${PROJECT_SOURCE_DIR}/configs/gpus/h100.yaml)
add_test(NAME ValidateResults.LatencySpreadCheckRefusesAPresetWithout
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/latency_spread.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/latency_spread/latency_spread_run.jsonl --check
                 ${PROJECT_SOURCE_DIR}/configs/gpus/a100.yaml)
set_tests_properties(ValidateResults.LatencySpreadCheckRefusesAPresetWithout PROPERTIES WILL_FAIL TRUE)
# gms-latency-lanes-ubench's analysis (validate/scripts/latency_lanes.py): on synthetic steps, lanes that draw
# independently read an excess of 1 and lanes that wait together 0 (the measurement itself: the next device call).
gms_script_expect(LatencyLanesAnalysisTellsIndependentFromTogether latency_lanes.py "self-test passed" --self-test)
# Its measurement on the H200 (validate/results/h200/latency_lanes, 2026-12-05): a warp's N unrelated misses wait as
# N independent draws (excess 0.82-0.91 from 8 lanes), N adjacent lines of one 4 KiB block nearly as one (0.06-0.33).
# The model's side replays the steps as a trace: with the preset's dram.latency_spread_scope (block) what the other
# lanes add misses silicon's by 48 cycles on the mean from 4 lanes up; per-read draws (read) by 118, one draw per
# channel by 100, one for the device by 110, no spread by 110 - the check's bound is 60.
add_test(NAME ValidateResults.LatencyLanesModelWaitsAsSilicon
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/latency_lanes.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/latency_lanes/latency_lanes_run.jsonl
                 --model $<TARGET_FILE:gpumemsim> --gpu ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml --steps 1024 --check)
set_tests_properties(ValidateResults.LatencyLanesModelWaitsAsSilicon PROPERTIES PASS_REGULAR_EXPRESSION "check passed")
add_test(NAME ValidateResults.LatencyLanesCheckRefusesPerReadDraws
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/validate/scripts/latency_lanes.py
                 ${PROJECT_SOURCE_DIR}/validate/results/h200/latency_lanes/latency_lanes_run.jsonl
                 --model $<TARGET_FILE:gpumemsim> --gpu ${PROJECT_SOURCE_DIR}/configs/gpus/h200.yaml --steps 1024 --check
                 --set gpu.dram.latency_spread_scope=read)
set_tests_properties(ValidateResults.LatencyLanesCheckRefusesPerReadDraws PROPERTIES PASS_REGULAR_EXPRESSION "check FAILED")
