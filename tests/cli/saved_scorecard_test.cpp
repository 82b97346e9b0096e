// compare --simulated (score a saved scorecard without replaying) and --expect-simulated (are fresh
// replays still that scorecard?): the CI fidelity label checks the committed whole scorecards this way.
#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "cli_util.h"

namespace {

std::string gemv_records() {
  std::string out;
  for (const char* r : {"gemv_1x4096x7168_bn256_bk64_w4_llcc", "gemv_1x4096x7168_bn256_bk64_w4_lclc",
                        "gemv_1x4096x7168_bn256_bk64_w8_lclc"})
    out += " " + src(std::string("validate/results/h100/gemv/") + r + ".json");
  return out;
}

nlohmann::json read_json(const std::filesystem::path& p) { return nlohmann::json::parse(slurp(p)); }

void write_json(const std::filesystem::path& p, const nlohmann::json& j) { std::ofstream(p) << j.dump(2) << "\n"; }

const std::string kTargets = " --require 'gpu__time_duration.sum:mape<=50' --require 'spearman:gemv>=-1'";

TEST(Cli, CompareScoresASavedScorecardAsItsOwnReplay) {
  auto dir = gms::test::temp_dir("cli_saved_scorecard");
  const std::string base = "compare --gpu " + src("configs/gpus/h100.yaml") + gemv_records() + kTargets;
  auto replayed = run(base + " --jobs 2 --json " + (dir / "card.json").string());
  ASSERT_EQ(replayed.code, 0) << replayed.out;
  ASSERT_EQ(run_shell("xz -k " + (dir / "card.json").string()).code, 0);

  // The saved card scores to the same summary, ranks and targets, replaying nothing; compressed or not.
  for (const char* card : {"card.json", "card.json.xz"}) {
    auto saved = run(base + " --simulated " + (dir / card).string() + " --json " + (dir / "again.json").string());
    ASSERT_EQ(saved.code, 0) << saved.out;
    EXPECT_NE(saved.out.find("(simulated: " + (dir / card).string() + ")"), std::string::npos) << saved.out;
    const nlohmann::json a = read_json(dir / "card.json"), b = read_json(dir / "again.json");
    for (const char* key : {"gpu", "cases", "summary", "spearman_time", "spearman_time_group_sizes", "silicon_rank_noise",
                            "targets"})
      EXPECT_EQ(a[key], b[key]) << key;
  }

  // Fresh replays equal the card: it is this model's.
  auto same = run(base + " --expect-simulated " + (dir / "card.json.xz").string());
  EXPECT_EQ(same.code, 0) << same.out;
  EXPECT_NE(same.out.find("0 simulated values differ"), std::string::npos) << same.out;

  // One simulated value moved in the card: the replays no longer match it (a failed check, exit 1),
  // and --simulated scores the moved value.
  nlohmann::json moved = read_json(dir / "card.json");
  for (auto& c : moved["cases"])
    if (c["case"] == "gemv_1x4096x7168_bn256_bk64_w4_lclc")
      c["metrics"]["gpu__time_duration.sum"]["simulated"] = c["metrics"]["gpu__time_duration.sum"]["simulated"].get<double>() * (1.0 + 1e-9);
  write_json(dir / "moved.json", moved);
  auto stale = run(base + " --expect-simulated " + (dir / "moved.json").string());
  EXPECT_EQ(stale.code, 1) << stale.out;
  EXPECT_NE(stale.out.find("1 simulated values differ"), std::string::npos) << stale.out;
  EXPECT_NE(stale.out.find("gemv/gemv_1x4096x7168_bn256_bk64_w4_lclc gpu__time_duration.sum: saved"), std::string::npos)
      << stale.out;
  EXPECT_NE(stale.out.find("is not this model's scorecard"), std::string::npos) << stale.out;
}

TEST(Cli, CompareRefusesASavedScorecardThatDoesNotFit) {
  auto dir = gms::test::temp_dir("cli_saved_scorecard_misfit");
  const std::string h100 = "compare --gpu " + src("configs/gpus/h100.yaml");
  ASSERT_EQ(run(h100 + gemv_records() + " --jobs 2 --json " + (dir / "card.json").string()).code, 0);
  const std::string card = " --simulated " + (dir / "card.json").string();
  auto expect_user_error = [](const Result& r, const std::string& says) {
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << r.out;
  };
  // A record the card never replayed.
  expect_user_error(run(h100 + card + " " + src("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w1_llcc.json")),
                    "has no case gemv/gemv_1x4096x7168_bn256_bk64_w1_llcc");
  // Another GPU's preset.
  expect_user_error(run("compare --gpu " + src("configs/gpus/h200.yaml") + card + gemv_records()), "a scorecard of NVIDIA H100");
  // A record whose measurement changed after the card was made.
  nlohmann::json changed = read_json(dir / "card.json");
  changed["cases"][0]["metrics"]["dram__bytes_read.sum"]["measured"] = 1.0;
  write_json(dir / "changed.json", changed);
  expect_user_error(run(h100 + " --simulated " + (dir / "changed.json").string() + gemv_records()),
                    "the record changed after the scorecard was made");
  // What a saved card cannot answer, and files that are not cards.
  expect_user_error(run(h100 + card + gemv_records() + " --set gpu.l2.slice_bytes_per_cycle=64"), "does not combine");
  expect_user_error(run(h100 + card + gemv_records() + " --sample-waves 4"), "does not combine");
  // A replay compares with a card only when both were made the same way.
  expect_user_error(run(h100 + gemv_records() + " --expect-simulated " + (dir / "card.json").string() + " --sample-waves 4"),
                    "made with exact replays, this compare asks for --sample-waves 4");
  expect_user_error(run(h100 + gemv_records() + " --expect-simulated " + (dir / "card.json").string() +
                        " --set gpu.dram.efficiency=0.9"),
                    "replay it the way it was made");
  expect_user_error(run(h100 + " --simulated " + src("configs/gpus/h100.yaml") + gemv_records()), "not JSON");
  write_json(dir / "other.json", nlohmann::json{{"gpu", "x"}});
  expect_user_error(run(h100 + " --simulated " + (dir / "other.json").string() + gemv_records()),
                    "not a `gpumemsim compare --json` scorecard");
  expect_user_error(run(h100 + " --simulated " + (dir / "none.json.xz").string() + gemv_records()), "cannot open the scorecard");
}

// A card made from sampled and shortened replays (a cheap canary of a whole scorecard) says how it was
// made; the same replays match it, and --simulated scores it with the launches it replayed.
TEST(Cli, CompareMatchesASampledCardMadeTheSameWay) {
  auto dir = gms::test::temp_dir("cli_saved_scorecard_sampled");
  const std::string how = " --sample-waves 2 --set gpu.dram.efficiency=0.9";
  const std::string base = "compare --gpu " + src("configs/gpus/h100.yaml") + gemv_records();
  ASSERT_EQ(run(base + how + " --jobs 2 --json " + (dir / "canary.json").string()).code, 0);
  const nlohmann::json card = read_json(dir / "canary.json");
  EXPECT_EQ(card["sample_waves"], 2);
  EXPECT_EQ(card["overrides"], nlohmann::json::array({"gpu.dram.efficiency=0.9"}));
  auto same = run(base + how + " --expect-simulated " + (dir / "canary.json").string());
  EXPECT_EQ(same.code, 0) << same.out;
  auto scored = run(base + " --simulated " + (dir / "canary.json").string() + " --json " + (dir / "again.json").string());
  ASSERT_EQ(scored.code, 0) << scored.out;
  const nlohmann::json again = read_json(dir / "again.json");
  for (const char* key : {"sample_waves", "overrides", "cases", "summary", "spearman_time"}) EXPECT_EQ(card[key], again[key]) << key;
}

// A scorecard in parts - one replay of some records, another of the rest (the record sets a change moved, beside the
// card of the others) - scores as the whole replayed at once: --simulated repeated, a later part's case replacing an
// earlier one's. Parts of two GPUs, or made two ways, are refused.
TEST(Cli, CompareScoresAScorecardMadeInParts) {
  auto dir = gms::test::temp_dir("cli_saved_scorecard_parts");
  auto refused = [](const Result& r, const std::string& says) {
    EXPECT_EQ(r.code, 2) << r.out;
    EXPECT_NE(r.out.find(says), std::string::npos) << r.out;
  };
  const std::string h100 = "compare --gpu " + src("configs/gpus/h100.yaml");
  const std::string a = " " + src("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_llcc.json");
  const std::string b = " " + src("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w4_lclc.json") + " " +
                        src("validate/results/h100/gemv/gemv_1x4096x7168_bn256_bk64_w8_lclc.json");
  ASSERT_EQ(run(h100 + gemv_records() + " --jobs 2 --json " + (dir / "whole.json").string()).code, 0);
  ASSERT_EQ(run(h100 + a + " --json " + (dir / "a.json").string()).code, 0);
  ASSERT_EQ(run(h100 + b + " --jobs 2 --json " + (dir / "b.json").string()).code, 0);
  // The first part's copy of a case is replaced by the later part's: moved in `a` only where `b` holds it too.
  nlohmann::json stale = read_json(dir / "whole.json");
  for (auto& c : stale["cases"]) c["metrics"]["gpu__time_duration.sum"]["simulated"] = 1.0;
  write_json(dir / "stale.json", stale);
  auto parts = run(h100 + gemv_records() + " --simulated " + (dir / "a.json").string() + " --simulated " +
                   (dir / "b.json").string() + " --json " + (dir / "merged.json").string());
  ASSERT_EQ(parts.code, 0) << parts.out;
  EXPECT_NE(parts.out.find("(simulated: " + (dir / "a.json").string() + " + " + (dir / "b.json").string() + ")"),
            std::string::npos) << parts.out;
  const nlohmann::json whole = read_json(dir / "whole.json"), merged = read_json(dir / "merged.json");
  for (const char* key : {"cases", "summary", "spearman_time"}) EXPECT_EQ(whole[key], merged[key]) << key;
  // The stale card first, both parts after it: every case from the parts.
  auto over = run(h100 + gemv_records() + " --simulated " + (dir / "stale.json").string() + " --simulated " +
                  (dir / "a.json").string() + " --simulated " + (dir / "b.json").string() + " --json " +
                  (dir / "over.json").string());
  ASSERT_EQ(over.code, 0) << over.out;
  EXPECT_EQ(read_json(dir / "over.json")["cases"], whole["cases"]);
  // A part of another GPU, or one made with a --set, does not join.
  nlohmann::json other = read_json(dir / "b.json");
  other["gpu"] = "NVIDIA H200 SXM 141GB";
  write_json(dir / "other.json", other);
  refused(run(h100 + gemv_records() + " --simulated " + (dir / "a.json").string() + " --simulated " +
                        (dir / "other.json").string()),
                    "a scorecard of NVIDIA H200");
  nlohmann::json set = read_json(dir / "b.json");
  set["overrides"] = nlohmann::json::array({"gpu.dram.efficiency=0.9"});
  write_json(dir / "set.json", set);
  refused(run(h100 + gemv_records() + " --simulated " + (dir / "a.json").string() + " --simulated " +
                        (dir / "set.json").string()),
                    "replay it the way it was made");
  // A part replayed with a --set that restates the preset's value (a switch the preset took after that what-if was
  // made) is the preset's own replay: it joins, and the merged card has no overrides.
  ASSERT_EQ(run(h100 + b + " --jobs 2 --set gpu.sm.mio_queue_per_subpartition=31 --set gpu.sm.mio_release_latency=47cycles"
                " --json " + (dir / "restated.json").string()).code, 0);
  auto restated = run(h100 + gemv_records() + " --simulated " + (dir / "a.json").string() + " --simulated " +
                      (dir / "restated.json").string() + " --json " + (dir / "joined.json").string());
  ASSERT_EQ(restated.code, 0) << restated.out;
  EXPECT_NE(restated.out.find("--set gpu.sm.mio_queue_per_subpartition=31 is what "), std::string::npos) << restated.out;
  const nlohmann::json joined = read_json(dir / "joined.json");
  EXPECT_EQ(joined["cases"], whole["cases"]);
  EXPECT_EQ(joined["overrides"], nlohmann::json::array());
}

}  // namespace
