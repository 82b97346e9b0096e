#pragma once
// Two kinds of failure: ConfigError is the user's (bad YAML, bad trace, impossible kernel) and ends
// the program with exit code 2 and one clear line; SIM_ASSERT is ours (a broken invariant) and aborts
// with the state that broke it. Library code throws; only main() decides how to exit.
#include <sstream>
#include <stdexcept>
#include <string>

namespace gms {

class ConfigError : public std::runtime_error {
 public:
  explicit ConfigError(const std::string& what) : std::runtime_error(what) {}
};

[[noreturn]] void assertion_failed(const char* expr, const char* file, int line, const std::string& state);

}  // namespace gms

#define SIM_ASSERT(cond, state_expr)                                          \
  do {                                                                        \
    if (!(cond)) {                                                            \
      std::ostringstream gms_assert_os_;                                      \
      gms_assert_os_ << state_expr;                                           \
      ::gms::assertion_failed(#cond, __FILE__, __LINE__, gms_assert_os_.str()); \
    }                                                                         \
  } while (false)
