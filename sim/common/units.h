#pragma once
// Parsing and printing of values with units ("50MiB", "3.35TB/s", "1980MHz", "273cycles").
// Every quantity is normalised to one base unit: bytes, bytes per second, hertz, cycles.
#include <optional>
#include <string>

namespace gms {

enum class Quantity {
  kInteger,        // plain count
  kReal,           // plain number, "92%" accepted as 0.92
  kBytes,          // B, KB, KiB, MB, MiB, GB, GiB, TB, TiB
  kBandwidth,      // B/s, KB/s ... TB/s, KiB/s ... TiB/s
  kBytesPerCycle,  // B/cycle, B/clk (or a plain number)
  kFrequency,      // Hz, kHz, MHz, GHz
  kCycles,         // cycles, cycle, cyc (or a plain number)
};

const char* quantity_unit(Quantity q);  // the base unit written in docs, e.g. "bytes"

// Parses text as the quantity; returns nullopt and sets *why on failure.
std::optional<double> parse_quantity(const std::string& text, Quantity q, std::string* why);

// Formats a base-unit value back into the shortest exact human form ("50MiB", "1.98GHz").
std::string format_quantity(double value, Quantity q);

}  // namespace gms
