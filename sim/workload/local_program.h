#pragma once
// A compiled kernel's local-memory (spill) traffic in program order, as its SASS has it: the global
// loads it is interleaved with, each STL and LDL at its frame offset, the scoreboard waits and the
// instructions between them. The GEMV replays it (workload `local_program`) so that a spilled slot
// is reloaded as far from its store as the compiled code puts it: what decides whether the reload
// hits L1 or L2 or goes to DRAM. validate/scripts/records_add_gemv_sass.py writes it from a listing.
//
// Text form, tokens separated by blanks (a line of local memory is one 4-byte slot of the 32 lanes
// of a warp, 128 bytes; an 8-byte access covers two lines, a 16-byte one four):
//   X<s>               a global load of x (activations) on scoreboard s (0-5, or _ for none)
//   W<n>.<s>           n global loads of W, 16 bytes a lane each, on scoreboard s
//   S<lo>+<n>/<i>      stores (STL) to frame lines lo .. lo+n-1, in i instructions
//   L<lo>+<n>/<i>.<s>  loads (LDL) of frame lines lo .. lo+n-1, in i instructions, on scoreboard s
//   D<mask>            wait for the scoreboards in mask (bits 0-5, 1..63)
//   F<n>               n FMA-pipe instructions (the warp's FLOPs are spread over them)
//   C<n>               n other instructions (address arithmetic, conversions: the issue port only)
// S and L take an optional suffix ~<c>: c other instructions issued among theirs (the extractor
// merges accesses across them).
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace gms {

inline constexpr std::uint8_t kNoScoreboard = 0xff;
inline constexpr int kSassScoreboards = 6;

struct LocalStep {
  enum class Kind : char { kXLoad = 'X', kWLoad = 'W', kStore = 'S', kLoad = 'L', kWait = 'D', kMath = 'F', kOther = 'C' };
  Kind kind = Kind::kOther;
  std::uint32_t first_line = 0;    // S, L
  std::uint32_t count = 1;         // lines (S, L), loads (W), instructions (F, C); 1 for X and D
  std::uint32_t instructions = 1;  // S, L: the STL/LDL instructions they stand for (1 <= i <= lines)
  std::uint32_t others = 0;        // S, L: other instructions issued among them
  std::uint8_t scoreboard = kNoScoreboard;  // X, W, L: 0..5 or kNoScoreboard; D: the mask
};

struct LocalProgram {
  std::vector<LocalStep> steps;
  // Totals, for validation against the configuration.
  std::int64_t x_loads = 0, w_loads = 0;
  std::int64_t stored_lines = 0, loaded_lines = 0;
  std::int64_t line_end = 0;  // one past the highest frame line touched
  std::int64_t math_instructions = 0, other_instructions = 0, local_instructions = 0;
  std::string str() const;  // the text form, which parses back to the same program
};

// The 16-byte-a-lane loads a warp of `warp_size` lanes issues for `rows` rows of `row_bytes`: a load
// covers several short rows, or a long row takes several loads.
std::int64_t warp_vector_loads(std::int64_t rows, std::int64_t row_bytes, int warp_size);

// Throws ConfigError naming `where` and the token for malformed text.
LocalProgram parse_local_program(std::string_view text, const std::string& where = "local_program");

}  // namespace gms
