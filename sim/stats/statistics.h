#pragma once
// Small statistics for comparing simulation with measurements.
#include <vector>

namespace gms {

// Spearman rank correlation of two equally long series; ties share their mean rank. 0 when either
// series is constant.
double spearman(const std::vector<double>& a, const std::vector<double>& b);

}  // namespace gms
