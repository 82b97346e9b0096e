#pragma once
// Parameter fitting for calibration. Parameters are searched in units of their starting value
// (x = start + (u - 1) * |start|, or a quarter of the bounds when the start is 0), inside bounds; integer parameters are rounded before each evaluation.
//   lm:          Levenberg-Marquardt on the residual vector, forward-difference Jacobian (steps of
//                5 % of the start: a timing model is piecewise flat at finer scales), Eigen solve.
//   nelder-mead: derivative-free simplex on the sum of squares; for integer or clipped parameters.
// Every evaluation is recorded; the best point seen is the answer.
#include <functional>
#include <string>
#include <vector>

namespace gms {

struct FitParam {
  std::string path;
  double start = 0, lo = 0, hi = 0;
  bool integer = false;
};

struct FitEval {
  std::vector<double> x;
  double cost = 0;  // sum of squared residuals
};

struct FitOptions {
  std::string method = "auto";  // auto | lm | nelder-mead (auto: nelder-mead when any parameter is integer)
  int max_evals = 30;
  double rel_tol = 1e-3;  // stop when an iteration improves the cost by less than this fraction
};

struct FitResult {
  std::string method;
  std::vector<double> x;  // best point
  double cost_start = 0, cost_best = 0;
  std::vector<FitEval> history;
};

using ResidualFn = std::function<std::vector<double>(const std::vector<double>& x)>;

// Throws ConfigError for unusable parameters (start outside bounds, start 0).
FitResult fit(const std::vector<FitParam>& params, const ResidualFn& residuals, const FitOptions& opt);

}  // namespace gms
