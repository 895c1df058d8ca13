// least_squares.hpp - ridge regression on sparse rows: the w minimising |Xw - y|^2 + lambda |w|^2, found by
// conjugate gradients on the normal equations (X'X + lambda I) w = X'y without forming X'X. Every sum runs in
// one fixed order on one thread, so a fit gives the same bits wherever it runs.
#pragma once

#include <cstdint>
#include <vector>

namespace othello::fit {

struct SparseRows {
  explicit SparseRows(uint32_t column_count) : columns(column_count) {}
  void add_entry(uint32_t column, float value) {
    column_of.push_back(column);
    value_of.push_back(value);
  }
  void end_row(double y) {
    row_end.push_back(column_of.size());
    target.push_back(y);
  }
  size_t rows() const { return target.size(); }
  size_t row_begin(size_t row) const { return row == 0 ? 0 : row_end[row - 1]; }

  uint32_t columns;
  std::vector<uint32_t> column_of;
  std::vector<float> value_of;
  std::vector<size_t> row_end;
  std::vector<double> target;
};

namespace least_squares_detail {

inline double dot(const std::vector<double>& a, const std::vector<double>& b) {
  double sum = 0;
  for (size_t k = 0; k < a.size(); ++k) sum += a[k] * b[k];
  return sum;
}

// out = (X'X + lambda I) v.
inline void normal_product(const SparseRows& x, double lambda, const std::vector<double>& v, std::vector<double>& out) {
  for (size_t k = 0; k < v.size(); ++k) out[k] = lambda * v[k];
  for (size_t row = 0; row < x.rows(); ++row) {
    double xv = 0;
    for (size_t e = x.row_begin(row); e < x.row_end[row]; ++e) xv += x.value_of[e] * v[x.column_of[e]];
    for (size_t e = x.row_begin(row); e < x.row_end[row]; ++e) out[x.column_of[e]] += x.value_of[e] * xv;
  }
}

} // namespace least_squares_detail

inline std::vector<double> ridge_fit(const SparseRows& x, double lambda, uint32_t iterations) {
  using namespace least_squares_detail;
  std::vector<double> w(x.columns, 0.0), r(x.columns, 0.0), p, product(x.columns, 0.0);
  for (size_t row = 0; row < x.rows(); ++row)
    for (size_t e = x.row_begin(row); e < x.row_end[row]; ++e) r[x.column_of[e]] += x.value_of[e] * x.target[row];
  p = r;
  double rr = dot(r, r);
  const double tolerance = rr * 1e-20;
  for (uint32_t iteration = 0; iteration < iterations && rr > tolerance; ++iteration) {
    normal_product(x, lambda, p, product);
    const double step = rr / dot(p, product);
    for (size_t k = 0; k < w.size(); ++k) {
      w[k] += step * p[k];
      r[k] -= step * product[k];
    }
    const double next_rr = dot(r, r);
    for (size_t k = 0; k < p.size(); ++k) p[k] = r[k] + next_rr / rr * p[k];
    rr = next_rr;
  }
  return w;
}

} // namespace othello::fit
