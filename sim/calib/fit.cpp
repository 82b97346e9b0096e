#include "calib/fit.h"

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>

#include "common/error.h"

namespace gms {
namespace {

class Problem {
 public:
  Problem(const std::vector<FitParam>& p, const ResidualFn& fn, int max_evals)
      : params_(p), fn_(fn), max_evals_(max_evals) {}

  std::vector<double> to_x(const Eigen::VectorXd& u) const {
    std::vector<double> x(params_.size());
    for (size_t i = 0; i < params_.size(); ++i) {
      const FitParam& p = params_[i];
      const double scale = p.start != 0 ? std::fabs(p.start) : (p.hi - p.lo) / 4;
      double v = std::clamp(p.start + (u[static_cast<Eigen::Index>(i)] - 1) * scale, p.lo, p.hi);
      x[i] = params_[i].integer ? std::round(v) : v;
    }
    return x;
  }
  Eigen::VectorXd to_u(const std::vector<double>& x) const {
    Eigen::VectorXd u(static_cast<Eigen::Index>(x.size()));
    for (size_t i = 0; i < x.size(); ++i) {
      const FitParam& p = params_[i];
      const double scale = p.start != 0 ? std::fabs(p.start) : (p.hi - p.lo) / 4;
      u[static_cast<Eigen::Index>(i)] = 1 + (x[i] - p.start) / scale;
    }
    return u;
  }
  bool exhausted() const { return static_cast<int>(result.history.size()) >= max_evals_; }

  // Residuals at u (cached by the clamped, rounded x).
  const std::vector<double>& residuals(const Eigen::VectorXd& u) {
    std::vector<double> x = to_x(u);
    auto it = cache_.find(x);
    if (it != cache_.end()) return it->second;
    std::vector<double> r = fn_(x);
    double cost = 0;
    for (double v : r) cost += v * v;
    result.history.push_back({x, cost});
    if (result.history.size() == 1) result.cost_start = cost;
    if (result.history.size() == 1 || cost < result.cost_best) {
      result.cost_best = cost;
      result.x = x;
    }
    return cache_.emplace(x, std::move(r)).first->second;
  }
  double cost(const Eigen::VectorXd& u) {
    double c = 0;
    for (double v : residuals(u)) c += v * v;
    return c;
  }

  FitResult result;

 private:
  const std::vector<FitParam>& params_;
  const ResidualFn& fn_;
  int max_evals_;
  std::map<std::vector<double>, std::vector<double>> cache_;
};

void levenberg_marquardt(Problem& pb, Eigen::Index n, const FitOptions& opt) {
  Eigen::VectorXd u = Eigen::VectorXd::Ones(n);
  double lambda = 1e-2;
  const double h = 0.05;
  while (!pb.exhausted()) {
    std::vector<double> r0 = pb.residuals(u);
    const Eigen::Index m = static_cast<Eigen::Index>(r0.size());
    Eigen::Map<const Eigen::VectorXd> r(r0.data(), m);
    Eigen::MatrixXd J(m, n);
    for (Eigen::Index j = 0; j < n; ++j) {
      Eigen::VectorXd up = u;
      up[j] += h;
      if (pb.to_x(up)[static_cast<size_t>(j)] == pb.to_x(u)[static_cast<size_t>(j)]) up[j] = u[j] - h;  // at the upper bound
      const double du = up[j] - u[j];
      const std::vector<double>& r1 = pb.residuals(up);
      for (Eigen::Index i = 0; i < m; ++i) J(i, j) = (r1[static_cast<size_t>(i)] - r0[static_cast<size_t>(i)]) / du;
    }
    const double c0 = r.squaredNorm();
    bool improved = false;
    while (!pb.exhausted()) {
      Eigen::MatrixXd A = J.transpose() * J;
      A.diagonal() += lambda * (A.diagonal().array() + 1e-9).matrix();
      Eigen::VectorXd step = A.ldlt().solve(-J.transpose() * r);
      Eigen::VectorXd trial = u + step;
      double c1 = pb.cost(trial);
      if (c1 < c0) {
        u = trial;
        lambda = std::max(lambda / 3, 1e-6);
        improved = (c0 - c1) > opt.rel_tol * c0;
        break;
      }
      lambda *= 4;
      if (lambda > 1e6 || step.norm() < 1e-3) return;  // finer than 0.1 % of the start: noise
    }
    if (!improved) return;
  }
}

void nelder_mead(Problem& pb, Eigen::Index n, const FitOptions& opt) {
  std::vector<Eigen::VectorXd> s(static_cast<size_t>(n + 1), Eigen::VectorXd::Ones(n));
  for (Eigen::Index j = 0; j < n; ++j) s[static_cast<size_t>(j + 1)][j] += 0.15;
  std::vector<double> f;
  for (auto& v : s) f.push_back(pb.cost(v));
  while (!pb.exhausted()) {
    std::vector<size_t> idx(s.size());
    for (size_t i = 0; i < idx.size(); ++i) idx[i] = i;
    std::sort(idx.begin(), idx.end(), [&](size_t a, size_t b) { return f[a] < f[b]; });
    std::vector<Eigen::VectorXd> s2;
    std::vector<double> f2;
    for (size_t i : idx) {
      s2.push_back(s[i]);
      f2.push_back(f[i]);
    }
    s.swap(s2);
    f.swap(f2);
    double spread = 0;
    for (size_t i = 1; i < s.size(); ++i) spread = std::max(spread, (s[i] - s[0]).cwiseAbs().maxCoeff());
    if (spread < 0.005 || std::fabs(f.back() - f.front()) <= opt.rel_tol * std::max(f.front(), 1e-12)) return;
    Eigen::VectorXd centroid = Eigen::VectorXd::Zero(n);
    for (size_t i = 0; i + 1 < s.size(); ++i) centroid += s[i] / static_cast<double>(n);
    const Eigen::VectorXd& worst = s.back();
    Eigen::VectorXd xr = centroid + (centroid - worst);
    double fr = pb.cost(xr);
    if (fr < f.front()) {
      Eigen::VectorXd xe = centroid + 2 * (centroid - worst);
      double fe = pb.exhausted() ? std::numeric_limits<double>::max() : pb.cost(xe);
      if (fe < fr) {
        s.back() = xe;
        f.back() = fe;
      } else {
        s.back() = xr;
        f.back() = fr;
      }
    } else if (fr < f[f.size() - 2]) {
      s.back() = xr;
      f.back() = fr;
    } else {
      Eigen::VectorXd xc = centroid + 0.5 * (worst - centroid);
      double fc = pb.cost(xc);
      if (fc < f.back()) {
        s.back() = xc;
        f.back() = fc;
      } else {
        for (size_t i = 1; i < s.size() && !pb.exhausted(); ++i) {
          s[i] = s[0] + 0.5 * (s[i] - s[0]);
          f[i] = pb.cost(s[i]);
        }
      }
    }
  }
}

// A simplex over rounded coordinates can stall next to the optimum: finish integer parameters by
// stepping each one by +-1 while that helps by more than `rel_tol` (a parameter in thousands of
// cycles otherwise walks one cycle per replay of every record for noise-sized gains).
void polish_integers(Problem& pb, const std::vector<FitParam>& params, double rel_tol) {
  bool moved = true;
  while (moved && !pb.exhausted()) {
    moved = false;
    for (size_t i = 0; i < params.size() && !pb.exhausted(); ++i) {
      if (!params[i].integer) continue;
      for (double d : {-1.0, 1.0}) {
        std::vector<double> x = pb.result.x;
        x[i] += d;
        if (x[i] < params[i].lo || x[i] > params[i].hi || pb.exhausted()) continue;
        const double before = pb.result.cost_best;
        pb.cost(pb.to_u(x));
        if (pb.result.cost_best < before * (1 - rel_tol)) moved = true;
      }
    }
  }
}

}  // namespace

FitResult fit(const std::vector<FitParam>& params, const ResidualFn& residuals, const FitOptions& opt) {
  if (params.empty()) throw ConfigError("--fit: no parameters");
  for (const auto& p : params) {
    if (p.start == 0 && p.hi <= p.lo)
      throw ConfigError("--fit " + p.path + ": the starting value is 0; give bounds (" + p.path + "=LO:HI)");
    if (p.lo > p.hi || p.start < p.lo || p.start > p.hi)
      throw ConfigError("--fit " + p.path + ": bounds [" + std::to_string(p.lo) + ", " + std::to_string(p.hi) +
                        "] do not contain the starting value " + std::to_string(p.start));
  }
  if (opt.max_evals < static_cast<int>(params.size()) + 2)
    throw ConfigError("--max-evals " + std::to_string(opt.max_evals) + ": too few for " + std::to_string(params.size()) +
                      " parameters (need at least " + std::to_string(params.size() + 2) + ")");
  std::string method = opt.method;
  if (method == "auto")
    method = std::any_of(params.begin(), params.end(), [](const FitParam& p) { return p.integer; }) ? "nelder-mead" : "lm";
  if (method != "lm" && method != "nelder-mead")
    throw ConfigError("--method " + method + ": expected auto, lm or nelder-mead");
  Problem pb(params, residuals, opt.max_evals);
  const auto n = static_cast<Eigen::Index>(params.size());
  if (method == "lm")
    levenberg_marquardt(pb, n, opt);
  else
    nelder_mead(pb, n, opt);
  polish_integers(pb, params, opt.rel_tol);
  pb.result.method = method;
  return pb.result;
}

}  // namespace gms
