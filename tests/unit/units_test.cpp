#include "common/units.h"

#include <gtest/gtest.h>

namespace gms {
namespace {

double parse_ok(const std::string& s, Quantity q) {
  std::string why;
  auto v = parse_quantity(s, q, &why);
  EXPECT_TRUE(v.has_value()) << s << ": " << why;
  return v.value_or(-1);
}

std::string parse_err(const std::string& s, Quantity q) {
  std::string why;
  EXPECT_FALSE(parse_quantity(s, q, &why).has_value()) << s;
  return why;
}

TEST(Units, BytesAcceptDecimalAndBinaryPrefixes) {
  EXPECT_EQ(parse_ok("50MiB", Quantity::kBytes), 50.0 * 1024 * 1024);
  EXPECT_EQ(parse_ok("40MB", Quantity::kBytes), 40e6);
  EXPECT_EQ(parse_ok("128B", Quantity::kBytes), 128);
  EXPECT_EQ(parse_ok("4096", Quantity::kBytes), 4096);
  EXPECT_EQ(parse_ok("1.5KiB", Quantity::kBytes), 1536);
  EXPECT_EQ(parse_ok("227 KiB", Quantity::kBytes), 227 * 1024);
}

TEST(Units, BandwidthFrequencyCycles) {
  EXPECT_DOUBLE_EQ(parse_ok("3.35TB/s", Quantity::kBandwidth), 3.35e12);
  EXPECT_DOUBLE_EQ(parse_ok("1980MHz", Quantity::kFrequency), 1.98e9);
  EXPECT_DOUBLE_EQ(parse_ok("1.98GHz", Quantity::kFrequency), 1.98e9);
  EXPECT_EQ(parse_ok("273cycles", Quantity::kCycles), 273);
  EXPECT_EQ(parse_ok("273", Quantity::kCycles), 273);
  EXPECT_DOUBLE_EQ(parse_ok("92%", Quantity::kReal), 0.92);
  EXPECT_DOUBLE_EQ(parse_ok("64B/cycle", Quantity::kBytesPerCycle), 64);
}

TEST(Units, RejectsWrongOrMissingUnits) {
  EXPECT_NE(parse_err("50MHz", Quantity::kBytes).find("unknown unit 'MHz'"), std::string::npos);
  EXPECT_NE(parse_err("3352", Quantity::kBandwidth).find("needs a unit"), std::string::npos);
  EXPECT_NE(parse_err("abc", Quantity::kInteger).find("not a number"), std::string::npos);
  EXPECT_NE(parse_err("1.5", Quantity::kInteger).find("whole number"), std::string::npos);
  EXPECT_NE(parse_err("", Quantity::kBytes).find("empty"), std::string::npos);
}

TEST(Units, FormatRoundTrips) {
  for (double v : {50.0 * 1048576, 128.0, 3.0 * 1024, 62914560.0}) {
    std::string why;
    EXPECT_EQ(parse_quantity(format_quantity(v, Quantity::kBytes), Quantity::kBytes, &why), v);
  }
  EXPECT_EQ(format_quantity(50.0 * 1048576, Quantity::kBytes), "50MiB");
  EXPECT_EQ(format_quantity(1.98e9, Quantity::kFrequency), "1.98GHz");
}

}  // namespace
}  // namespace gms
