#pragma once
// Summary statistics the microbenchmarks print (host code, shared by validate/runner/*_ubench.cu).
#include <algorithm>
#include <vector>

namespace ubench {

// The upper median (the element at n / 2 of the sorted values); 0 for none.
inline double median(std::vector<double> v) {
  if (v.empty()) return 0;
  std::sort(v.begin(), v.end());
  return v[v.size() / 2];
}

}  // namespace ubench
