# Scripts.ScorecardDiffOf*: the what-if scorecards the docs quote (docs/results/GPU-compare-<CARD>.json.xz) against
# each GPU's committed scorecard, by scripts/scorecard_diff.py. Included from tests/CMakeLists.txt where python3 is
# found (GMS_PYTHON3, gms_script_check).
# Scripts.ScorecardDiffOf<NAME>: scripts/scorecard_diff.py of GPU's committed scorecard against the what-if cards
# docs/results/GPU-compare-<CARD>.json.xz, printing REGEX - the numbers the docs quote for that what-if.
# Each what-if beside the scorecard of the model it varied: 59110df's (docs/results/GPU-compare-59110df.json.xz), the
# presets' card until sm.mio_bursts_enter_one_at_a_time moved it on 2026-12-01; 9e59883's (h200-compare-9e59883), the
# H200 presets' card until sm.mio_entries_by_cta_age moved it on 2026-12-03 (and h100-compare-9e59883, the H100's, later
# the same day).
function(gms_scorecard_diff name gpu regex)
  set(cards)
  foreach(card ${ARGN})
    list(APPEND cards ${PROJECT_SOURCE_DIR}/docs/results/${gpu}-compare-${card}.json.xz)
  endforeach()
  add_test(NAME Scripts.ScorecardDiffOf${name}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py
                   ${PROJECT_SOURCE_DIR}/docs/results/${gpu}-compare-59110df.json.xz ${cards})
  set_tests_properties(Scripts.ScorecardDiffOf${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}")
endfunction()
# The presets' card before and after a burst of shared instructions took freed MIO entries one at a time
# (docs/shared-memory.md, "Who takes a freed MIO entry"; 5.97 -> 5.65 / 5.74 -> 5.44 %): 59110df's card against
# the committed one, which since 2026-12-01 also has the Triton GEMVs replay their compiled loads and waits.
# The base reads 5.96 / 5.73 % since scorecard_diff.py tells apart the cases of one name in two record sets
# (gemm/ and padding/), which it paired with the wrong base case before (5.97 / 5.74 in the docs' older tables).
# Since 2026-12-01 (sixty-second session) the committed card is also the presets' without the start gate and with
# loads' data on the shared-memory data path (below).
# Both against 71f7762's card (GPU-compare-71f7762.json.xz), the committed one before l2.far_stores_copy_near.
foreach(gpu_mape "h100;142;5[.]96 -> 5[.]40" "h200;138;5[.]73 -> 5[.]58")
  list(GET gpu_mape 0 gpu)
  list(GET gpu_mape 1 n)
  list(GET gpu_mape 2 mape)
  add_test(NAME Scripts.ScorecardDiffOfMioBurstsOneAtATime.${gpu}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py
                   ${PROJECT_SOURCE_DIR}/docs/results/${gpu}-compare-59110df.json.xz ${PROJECT_SOURCE_DIR}/docs/results/${gpu}-compare-71f7762.json.xz)
  set_tests_properties(Scripts.ScorecardDiffOfMioBurstsOneAtATime.${gpu} PROPERTIES PASS_REGULAR_EXPRESSION
    "[|] tiled_gemm [|] 9 [|] 3[.][78] -> 4[.]5 [|].*[|] all [|] ${n} [|] ${mape} [|]")
endforeach()
# The presets without the fitted start gate (sm.mio_start_backlog 31 -> off), global loads waiting in the MIO queue
# and the two measured MIO-entry rules on (docs/shared-memory.md, "The presets drop the gate"): the gate's card
# (370fd19) against the committed one, which since has loads' data on the shared-memory data path too
# (sm.load_data_bytes_per_cycle) - time 5.48 -> 5.40 / 5.51 -> 5.58 % (5.69 / 6.14 without the load data), seed 002's
# DRAM reads 33.2 -> 14.9 / 26.4 -> 8.9 % (its 128- and 256-thread rungs no longer drift in K).
foreach(gpu_mape "h100;142;5[.]48 -> 5[.]40;33[.]2 -> 14[.]9" "h200;138;5[.]51 -> 5[.]58;26[.]4 -> 8[.]9")
  list(GET gpu_mape 0 gpu)
  list(GET gpu_mape 1 n)
  list(GET gpu_mape 2 mape)
  list(GET gpu_mape 3 dram)
  add_test(NAME Scripts.ScorecardDiffOfNoStartGate.${gpu}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py
                   ${PROJECT_SOURCE_DIR}/docs/results/${gpu}-compare-gate31.json.xz ${PROJECT_SOURCE_DIR}/docs/results/${gpu}-compare-71f7762.json.xz)
  set_tests_properties(Scripts.ScorecardDiffOfNoStartGate.${gpu} PROPERTIES PASS_REGULAR_EXPRESSION
    "[|] tiled_gemm [|] 9 [|] [0-9.]+ -> [0-9.]+ [|] ${dram} [|].*[|] all [|] ${n} [|] ${mape} [|]")
endforeach()
# Reads in arrival order (docs/calibration.md).
gms_scorecard_diff(ReadsInArrivalOrder h100 "[|] all [|] 142 [|] 5[.]96 -> 5[.]30 [|]" reads-in-order-a reads-in-order-b)
# ... with stores and reductions in arrival order too (both switches; the H200's, which the README quotes beside it).
gms_scorecard_diff(BothInArrivalOrder.h100 h100 "[|] all [|] 142 [|] 5[.]96 -> 5[.]60 [|]" both-in-order-a both-in-order-b)
gms_scorecard_diff(BothInArrivalOrder.h200 h200 "[|] all [|] 138 [|] 5[.]73 -> 5[.]55 [|]" both-in-order-a both-in-order-b)
# The GPC port with a 96-entry coalescer (docs/tensor-cores.md, "The GPC port with a larger coalescer").
gms_scorecard_diff(GpcPortAndLargerCoalescer h100
                   "[|] gemm [|] 61 [|] 7[.]0 -> 6[.]4 [|] 15[.]0 -> 14[.]7 [|].*[|] all [|] 142 [|] 5[.]96 -> 5[.]76 [|]" gpc550-e96)
# Scripts.ScorecardDiffOf<NAME>: a what-if card on some record sets (docs/results/h100-compare-<CARD>.json.xz) against
# 9e59883's H100 card (h100-compare-9e59883), the presets' until sm.mio_entries_by_cta_age moved it on 2026-12-03,
# printing REGEX.
function(gms_whatif_diff name card regex)
  add_test(NAME Scripts.ScorecardDiffOf${name}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py
                   ${PROJECT_SOURCE_DIR}/docs/results/h100-compare-9e59883.json.xz
                   ${PROJECT_SOURCE_DIR}/docs/results/h100-compare-${card}.json.xz)
  set_tests_properties(Scripts.ScorecardDiffOf${name} PROPERTIES PASS_REGULAR_EXPRESSION "${regex}")
endfunction()
# 32-way L2 sets (16 in the presets, estimated) on the record sets whose L2 hit rates are most off (gemm, triton_gemm,
# triton_tma_gemm; docs/calibration.md, "Silicon's L2 keeps more beside a slower stream").
# sm.issue_share_* on the whole H200 card (docs/co-resident-ctas.md, "The port shared as silicon's scheduler shares it"):
# the ladder's time closer, its DRAM far off (the SM's two CTAs no longer drift apart), the 8192^3 orders ranked better.
add_test(NAME Scripts.ScorecardDiffOfIssueShare
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-9e59883.json.xz
                 ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-share-a.json.xz ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-share-b.json.xz)
set_tests_properties(Scripts.ScorecardDiffOfIssueShare PROPERTIES PASS_REGULAR_EXPRESSION
  "[|] tiled_gemm [|] 9 [|] 4[.]5 -> 3[.]7 [|] 8[.]9 -> 27[.]8 [|] 2[.]1 -> 5[.]6 [|].*[|] all [|] 138 [|] 5[.]63 -> 5[.]54 [|].*8192x8192x8192 128x128x32 w4 s3 pad8 [(]CTA orders[)] [|] 10 [|] [+]0[.]63 [|] [+]0[.]74 [|]")
# sm.warp_scheduler: oldest_three on the whole H200 card (docs/co-resident-ctas.md, "Who issues when several warps want the
# port"): the measured rule at the block grain - time a little closer, the ladder's DRAM far off (its co-resident CTAs in
# step), the 8192^3 orders ranked as with the issue share.
add_test(NAME Scripts.ScorecardDiffOfOldestThree
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-9e59883.json.xz
                 ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-three-a.json.xz ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-three-b.json.xz)
set_tests_properties(Scripts.ScorecardDiffOfOldestThree PROPERTIES PASS_REGULAR_EXPRESSION
  "[|] tiled_gemm [|] 9 [|] 4[.]5 -> 4[.]3 [|] 8[.]9 -> 27[.]3 [|] 2[.]1 -> 6[.]2 [|].*[|] all [|] 138 [|] 5[.]63 -> 5[.]48 [|].*8192x8192x8192 128x128x32 w4 s3 pad8 [(]CTA orders[)] [|] 10 [|] [+]0[.]63 [|] [+]0[.]74 [|]")
# sm.warp_scheduler: cta_share on the whole H200 card (docs/cta-share.md): the issue trace's 2:1 between an
# SM's two CTAs kept as a count at the block grain - r3_bk32's skew, duration CV and DRAM on silicon's, the card's time a
# little closer, the ladder's Spearman against its record up, r1 and r3_bk64 in step.
add_test(NAME Scripts.ScorecardDiffOfCtaShare
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-9e59883.json.xz
                 ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-ctashare-a.json.xz ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-ctashare-b.json.xz)
set_tests_properties(Scripts.ScorecardDiffOfCtaShare PROPERTIES PASS_REGULAR_EXPRESSION
  "[|] tiled_gemm [|] 9 [|] 4[.]5 -> 4[.]1 [|] 8[.]9 -> 9[.]8 [|] 2[.]1 -> 4[.]0 [|].*[|] all [|] 138 [|] 5[.]63 -> 5[.]36 [|].*tiled_gemm 4096x4096x4096 [(]tilings and data paths[)] [|] 9 [|] [+]0[.]85 [|] [+]0[.]93 [|]")
# ... and on the H100's records (all but the Triton GEMVs and spilling GEMMs): the same direction, smaller.
gms_whatif_diff(CtaShareH100 ctashare "[|] tiled_gemm [|] 9 [|] 4[.]3 -> 3[.]9 [|] 14[.]0 -> 13[.]0 [|] 3[.]4 -> 4[.]7 [|].*[|] all [|] 82 [|] 5[.]54 -> 5[.]47 [|]")
gms_whatif_diff(L2Assoc32 assoc32 "[|] gemm [|] 48 [|] 6[.]2 -> 6[.]3 [|] 13[.]3 -> 13[.]1 [|] 3[.]9 -> 4[.]0 [|]")
# l2.far_read_home_evict_first on the same record sets (docs/calibration.md, "Silicon's L2 keeps more beside a slower
# stream"): right at a slow pace, not at the GEMMs' full rate.
gms_whatif_diff(FarReadHomeEvictFirst farhome "[|] gemm [|] 48 [|] 6[.]2 -> 6[.]1 [|] 13[.]3 -> 14[.]6 [|] 3[.]9 -> 3[.]8 [|]")
# 64-way sets (sixty-sixth session): what the in-step ubench fits best moves none of those records either.
gms_whatif_diff(L2Assoc64 assoc64 "[|] gemm [|] 48 [|] 6[.]2 -> 6[.]2 [|] 13[.]3 -> 12[.]9 [|] 3[.]9 -> 4[.]0 [|]")
# 4 coalescer entries a slice (12 in the presets), with the padding set: the 64x128x32 tilings' time comes right, the
# large tiles' goes wrong (docs/calibration.md, "Merged where silicon looks up"); a fit, not kept.
gms_whatif_diff(CoalescerEntries4 lrc4 "[|] gemm [|] 57 [|] 6[.]6 -> 7[.]4 [|] 13[.]1 -> 13[.]1 [|] 3[.]9 -> 4[.]5 [|]")
# A barrier's measured 43-49 cycles (docs/co-resident-ctas.md, "The barrier's latency, a what-if").
gms_scorecard_diff(BarrierLatency.h100 h100 "[|] all [|] 142 [|] 5[.]96 -> 5[.]65 [|]" barrier45)
gms_scorecard_diff(BarrierLatency.h200 h200 "[|] all [|] 138 [|] 5[.]73 -> 5[.]20 [|]" barrier45)
# The lone profile's dispatch stall below full occupancy (docs/co-resident-ctas.md, "A lone profile for the dispatch stall").
gms_scorecard_diff(DispatchFollowsResidents.h100 h100 "[|] tiled_gemm [|] 9 [|] 3[.]7 -> 3[.]9 [|] 33[.]2 -> 33[.]6 [|]" residents)
gms_scorecard_diff(DispatchFollowsResidents.h200 h200 "[|] tiled_gemm [|] 9 [|] 3[.]8 -> 3[.]9 [|] 26[.]4 -> 26[.]3 [|]" residents)
# The L2 slices' reply path at 128 B a cycle (docs/tensor-cores.md, "The reply path is an option").
gms_scorecard_diff(ReplyPath h100
                   "[|] gemm [|] 61 [|] 7[.]0 -> 7[.]1 [|] 15[.]0 -> 15[.]1 [|].*[|] all [|] 142 [|] 5[.]96 -> 6[.]11 [|]" reply128)
# The shared path in turns, a warp's shared-load data at 40 bytes a cycle and the port shared by count, on the whole H200
# card (docs/shared-path-turns.md, "The whole card"): the GEMMs' time right (6.7 -> 4.6 %; the 8192^3 WMMA orders'
# Spearman +0.62 -> +0.86) but their DRAM reads over (9.6 -> 13.7 %), the Triton GEMVs' time too fast (4.9 -> 7.7 %).
add_test(NAME Scripts.ScorecardDiffOfTurnsDataShare
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-9e59883.json.xz
                 ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-turns-data-share-a.json.xz
                 ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-turns-data-share-b.json.xz)
set_tests_properties(Scripts.ScorecardDiffOfTurnsDataShare PROPERTIES PASS_REGULAR_EXPRESSION
  "[|] gemm [|] 57 [|] 6[.]7 -> 4[.]6 [|] 9[.]6 -> 13[.]7 [|].*[|] gemv [|] 72 [|] 4[.]9 -> 7[.]7 [|].*[|] all [|] 138 [|] 5[.]63 -> 6[.]22 [|].*gemm 8192x8192x8192 128x128x32 w4 s3 pad8 [(]CTA orders[)] [|] 10 [|] [+]0[.]63 [|] [+]0[.]81 [|]")
# A miss forwarded past the slices' data path (l2.miss_data_forwarded; docs/calibration.md, "A late CTA catches up in the
# model"), on the H200's Triton GEMM sets with the rows sweep and its GEMVs, against the presets' card of 2f1bbbc: the
# GEMMs slower and their L2 hit rates further off, the GEMVs as they were. Not kept.
add_test(NAME Scripts.ScorecardDiffOfMissDataForwarded
         COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-2f1bbbc.json.xz
                 ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-fwd-t.json.xz ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-fwd-b.json.xz)
set_tests_properties(Scripts.ScorecardDiffOfMissDataForwarded PROPERTIES PASS_REGULAR_EXPRESSION
  "[|] gemm [|] 44 [|] 7[.]0 -> 8[.]3 [|] 11[.]1 -> 11[.]1 [|] 4[.]6 -> 5[.]8 [|].*[|] gemv [|] 72 [|] 4[.]8 -> 4[.]8 [|]")
# The L2 request coalescer's table at 24 and 48 entries a slice instead of the presets' 12 (2026-12-04, docs/calibration.md,
# "What the coalescer's 12 entries stand for"): the H200's Triton GEMM sets against the card they varied (b3258e7's, frozen).
function(gms_coalescer_entries_diff entries row)
  add_test(NAME Scripts.ScorecardDiffOfCoalescerEntries${entries}
           COMMAND ${GMS_PYTHON3} ${PROJECT_SOURCE_DIR}/scripts/scorecard_diff.py ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-b3258e7.json.xz
                   ${PROJECT_SOURCE_DIR}/docs/results/h200-compare-lrc${entries}.json.xz)
  set_tests_properties(Scripts.ScorecardDiffOfCoalescerEntries${entries} PROPERTIES PASS_REGULAR_EXPRESSION
    "[|] gemm [|] 56 [|] ${row} [|]")
endfunction()
gms_coalescer_entries_diff(24 "7[.]2 -> 8[.]1 [|] 12[.]5 -> 12[.]6 [|] 4[.]8 -> 6[.]1")
gms_coalescer_entries_diff(48 "7[.]2 -> 9[.]6 [|] 12[.]5 -> 12[.]6 [|] 4[.]8 -> 7[.]7")
