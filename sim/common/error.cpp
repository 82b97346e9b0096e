#include "common/error.h"

#include <cstdio>
#include <cstdlib>

namespace gms {

void assertion_failed(const char* expr, const char* file, int line, const std::string& state) {
  std::fprintf(stderr, "gpumemsim: internal error: assertion '%s' failed at %s:%d\n  state: %s\n", expr, file,
               line, state.c_str());
  std::abort();
}

}  // namespace gms
