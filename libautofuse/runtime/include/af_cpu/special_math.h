// Scalar special functions in double for the issue-22 special set that has no C++ library
// counterpart: the regularized incomplete gamma functions P(a, x) and Q(a, x), the Hurwitz zeta
// function zeta(x, q), the Airy function Ai(x) and the shifted Chebyshev, Laguerre and Legendre
// polynomials of a tensor degree. Header-only and C++17 so that the CPU runtime (AutoFuse's
// IgammaExtend, ..., LegendrePolynomialPExtend in af_cpu/autofuse_api.h),
// the interpreter and the front end's evaluator share one implementation. Domains, NaN and
// infinity results follow PyTorch's torch.special functions of the same names (checked with
// PyTorch 1.13; docs/ir.md, "The math op set"). The algorithms are the textbook ones, with
// the formula each uses named at its function (DLMF: the NIST Digital Library of Mathematical
// Functions, dlmf.nist.gov).
#pragma once

#include <cmath>
#include <limits>

namespace af_cpu::special {

inline constexpr double kPi = 3.14159265358979323846;
inline constexpr double kEps = 1e-17;  // series stop: below double's rounding of the sum

inline double Nan() {
  return std::numeric_limits<double>::quiet_NaN();
}

// ---- Hurwitz zeta --------------------------------------------------------------------------

// zeta(x, q) = sum_{k>=0} (q + k)^-x for x > 1 (DLMF 25.11.1). Euler-Maclaurin summation
// (DLMF 2.10.1 applied to t^-x): the first N terms directly, N chosen so that q + N >= max(10, x)
// (then the Bernoulli tail converges at least like (2 pi)^-2j), and the sum stops early once the
// remaining terms are bounded below 1e-17 of it. PyTorch's domain: x == 1 is +inf, x < 1 NaN;
// q a non-positive integer is +inf (a pole), q < 0 otherwise needs an integer x (NaN if not).
// x == +inf follows PyTorch too: 1 for q == 1, +inf where some |q + k| < 1, NaN otherwise.
inline double Zeta(double x, double q) {
  if (std::isnan(x) || std::isnan(q)) return Nan();
  if (x == 1) return HUGE_VAL;
  if (x < 1) return Nan();
  if (q <= 0) {
    if (q == std::floor(q)) return HUGE_VAL;
    if (x != std::floor(x)) return Nan();
  }
  if (std::isinf(q)) return Nan();
  if (std::isinf(x)) {
    if (q == 1) return 1.0;
    return (q < 1 && q > -1) || (q < 0 && q != std::floor(q)) ? HUGE_VAL : Nan();
  }
  // B_2j / (2j)! for j = 1..13.
  static constexpr double kB[] = {1.0 / 12,
                                  -1.0 / 720,
                                  1.0 / 30240,
                                  -1.0 / 1209600,
                                  1.0 / 47900160,
                                  -691.0 / 1307674368000.0,
                                  1.0 / 74724249600.0,
                                  -3617.0 / 10670622842880000.0,
                                  43867.0 / 5109094217170944000.0,
                                  -174611.0 / 802857662698291200000.0,
                                  77683.0 / 14101100039391805440000.0,
                                  -236364091.0 / 1693824136731743669452800000.0,
                                  657931.0 / 186313420339200000000000000.0};
  const double start = std::fmax(10.0, x);
  double s = 0;
  double w = q;
  for (;;) {
    if (w >= start) break;
    const double term = std::pow(w, -x);
    s += term;
    w += 1;
    if (w > 1 && std::fabs(term) * (1 + w / (x - 1)) < kEps * std::fabs(s)) return s;
  }
  // The tail from w: w^(1-x) / (x - 1) + w^-x / 2 + sum_j B_2j / (2j)! (x)_(2j-1) w^(-x-2j+1).
  const double wx = std::pow(w, -x);
  s += w * wx / (x - 1) + 0.5 * wx;
  double rising = x;      // x (x + 1) ... (x + 2j - 2)
  double power = wx / w;  // w^(-x-2j+1)
  for (int j = 0; j < 13; ++j) {
    const double t = kB[j] * rising * power;
    s += t;
    if (std::fabs(t) < kEps * std::fabs(s)) break;
    rising *= (x + 2 * j + 1) * (x + 2 * j + 2);
    power /= w * w;
  }
  return s;
}

// ---- Regularized incomplete gamma ----------------------------------------------------------

// log Gamma(1 + a) for 0 <= a < 0.2 without the rounding of 1 + a: -gamma_E a +
// sum_{k>=2} (-a)^k zeta(k) / k (DLMF 5.7.3).
inline double Lgamma1pSmall(double a) {
  constexpr double kEulerGamma = 0.57721566490153286061;
  double s = -kEulerGamma * a;
  double p = -a;  // (-a)^k
  for (int k = 2; k < 60; ++k) {
    p *= -a;
    const double t = p * Zeta(k, 1.0) / k;
    s += t;
    if (std::fabs(t) < kEps * std::fabs(s)) break;
  }
  return s;
}

// log of x^a e^-x / Gamma(a + 1). For a >= 10 as a (log1p(t) - t) - log(2 pi a) / 2 - S(a),
// t = (x - a) / a, S the Stirling series of log Gamma(a + 1) (DLMF 5.11.1), so that the large
// terms a log x and lgamma(a + 1) never cancel.
inline double LogPowExpOverGamma1p(double a, double x) {
  if (a < 10) return a * std::log(x) - x - std::lgamma(a + 1);
  const double t = (x - a) / a;
  const double r = 1 / (a * a);
  const double stirling =
      (1.0 / 12 - r * (1.0 / 360 - r * (1.0 / 1260 - r * (1.0 / 1680 - r / 1188)))) / a;
  return a * (std::log1p(t) - t) - 0.5 * std::log(2 * kPi * a) - stirling;
}

// P(a, x) = e^-x x^a / Gamma(a + 1) * sum_{n>=0} x^n / ((a + 1) ... (a + n)) (DLMF 8.7.1 with
// 8.2.4), for x < a + 1 where the terms fall from the first.
inline double IgammaSeries(double a, double x) {
  double term = 1;
  double s = 1;
  for (int n = 1; n < 100000; ++n) {
    term *= x / (a + n);
    s += term;
    if (term < kEps * s) break;
  }
  return std::exp(LogPowExpOverGamma1p(a, x)) * s;
}

// Q(a, x) = e^-x x^a / Gamma(a) * 1 / (x + 1 - a - 1 (1 - a) / (x + 3 - a - 2 (2 - a) / ...))
// (Legendre's continued fraction, DLMF 8.9.2 in its even form), for x >= a + 1, evaluated
// forwards by the modified Lentz method.
inline double IgammacFraction(double a, double x) {
  constexpr double kTiny = 1e-300;
  double b = x + 1 - a;
  double c = 1 / kTiny;
  double d = 1 / b;
  double f = d;
  for (int n = 1; n < 100000; ++n) {
    const double an = -n * (n - a);
    b += 2;
    d = an * d + b;
    if (std::fabs(d) < kTiny) d = kTiny;
    c = b + an / c;
    if (std::fabs(c) < kTiny) c = kTiny;
    d = 1 / d;
    const double delta = d * c;
    f *= delta;
    if (std::fabs(delta - 1) < kEps) break;
  }
  return std::exp(LogPowExpOverGamma1p(a, x)) * a * f;
}

// Q(a, x) for a < 1 and x < a + 1 (< 2), where 1 - P would lose Q's digits (Q ~ a E1(x) as
// a -> 0): gamma(a, x) = sum_n (-1)^n x^(a+n) / (n! (a + n)) (DLMF 8.7.1), so
// Q = 1 - x^a / Gamma(1 + a) - x^a / Gamma(1 + a) a sum_{n>=1} (-x)^n / (n! (a + n)).
inline double IgammacSmallA(double a, double x) {
  const double lg = a < 0.2 ? Lgamma1pSmall(a) : std::lgamma(1 + a);
  const double e = a * std::log(x) - lg;
  double term = 1;
  double s = 0;
  for (int n = 1; n < 200; ++n) {
    term *= -x / n;
    const double t = term / (a + n);
    s += t;
    if (std::fabs(t) < kEps * std::fabs(s)) break;
  }
  return -std::expm1(e) - std::exp(e) * a * s;
}

// Both P and Q for large a (a > 1e5) by Temme's uniform expansion (DLMF 8.12.3, 8.12.4, 8.12.8):
// Q = erfc(eta sqrt(a / 2)) / 2 + R, P = erfc(-eta sqrt(a / 2)) / 2 - R, with lambda = x / a,
// eta^2 / 2 = lambda - 1 - ln lambda (eta of lambda - 1's sign) and R = e^(-a eta^2 / 2) /
// sqrt(2 pi a) c0(eta), c0 = 1 / (lambda - 1) - 1 / eta (near eta = 0 its Taylor series
// -1/3 + eta / 12 - 2 eta^2 / 135). The next term is c1(eta) / a with |c1| < 0.01: below 1e-7
// of R at these a.
inline double IgammaUniform(double a, double x, bool upper) {
  const double t = x / a - 1;
  const double half_eta2 = t - std::log1p(t);
  const double eta = std::copysign(std::sqrt(2 * half_eta2), t);
  const double c0 =
      std::fabs(t) < 1e-3 ? -1.0 / 3 + eta / 12 - 2 * eta * eta / 135 : 1 / t - 1 / eta;
  const double r = std::exp(-a * half_eta2) / std::sqrt(2 * kPi * a) * c0;
  const double z = eta * std::sqrt(a / 2);
  return upper ? 0.5 * std::erfc(z) + r : 0.5 * std::erfc(-z) - r;
}

// The special values PyTorch's gammainc / gammaincc give, as P; NaN-free P or nothing.
// Returns true with *p set when (a, x) is one of them.
inline bool IgammaEdge(double a, double x, double* p) {
  if (std::isnan(a) || std::isnan(x) || a < 0 || x < 0) {
    *p = Nan();
  } else if (a == 0) {
    *p = x > 0 ? 1.0 : Nan();
  } else if (x == 0) {
    *p = 0.0;
  } else if (std::isinf(a)) {
    *p = std::isinf(x) ? Nan() : 0.0;
  } else if (std::isinf(x)) {
    *p = 1.0;
  } else {
    return false;
  }
  return true;
}

// P(a, x), the regularized lower incomplete gamma function (torch.special.gammainc): NaN for
// a < 0 or x < 0; P(0, x > 0) = 1, P(0, 0) = NaN, P(a, 0) = 0, P(inf, x) = 0, P(a, inf) = 1,
// P(inf, inf) = NaN.
inline double Igamma(double a, double x) {
  double p = 0;
  if (IgammaEdge(a, x, &p)) return p;
  if (a > 1e5) return IgammaUniform(a, x, false);
  if (x < a + 1) return IgammaSeries(a, x);
  return 1 - IgammacFraction(a, x);
}

// Q(a, x) = 1 - P(a, x) (torch.special.gammaincc), with the same special values.
inline double Igammac(double a, double x) {
  double p = 0;
  if (IgammaEdge(a, x, &p)) return std::isnan(p) ? p : 1 - p;
  if (a > 1e5) return IgammaUniform(a, x, true);
  if (x >= a + 1) return IgammacFraction(a, x);
  if (a < 1) return IgammacSmallA(a, x);
  return 1 - IgammaSeries(a, x);
}

// ---- Airy Ai -------------------------------------------------------------------------------

// Ai(x) (torch.special.airy_ai). |x| <= 1: the Maclaurin series Ai = c1 f - c2 g with
// f = sum 3^k (1/3)_k x^3k / (3k)!, g = sum 3^k (2/3)_k x^(3k+1) / (3k+1)! (DLMF 9.4.1);
// x > 1: Ai(x) = sqrt(x / 3) K_1/3(zeta) / pi; x < -1: Ai(x) = sqrt(|x|) / 2 (J_1/3(zeta) -
// Y_1/3(zeta) / sqrt(3)) (DLMF 9.6.1 and 9.6.6 with J_-nu = cos(nu pi) J_nu - sin(nu pi) Y_nu),
// zeta = 2 |x|^(3/2) / 3, by libstdc++'s Bessel functions. PyTorch gives NaN at +-inf.
inline double AiryAi(double x) {
  if (std::isnan(x) || std::isinf(x)) return Nan();
  const double ax = std::fabs(x);
  if (ax <= 1) {
    constexpr double kC1 = 0.355028053887817239260;  // Ai(0) = 3^(-2/3) / Gamma(2/3)
    constexpr double kC2 = 0.258819403792806798405;  // -Ai'(0) = 3^(-1/3) / Gamma(1/3)
    const double x3 = x * x * x;
    double f = 1;
    double g = x;
    double tf = 1;
    double tg = x;
    for (int k = 1; k < 40; ++k) {
      tf *= x3 / ((3.0 * k - 1) * (3.0 * k));
      tg *= x3 / ((3.0 * k) * (3.0 * k + 1));
      f += tf;
      g += tg;
      if (std::fabs(tf) + std::fabs(tg) < kEps * (std::fabs(f) + std::fabs(g))) break;
    }
    return kC1 * f - kC2 * g;
  }
  const double zeta = 2.0 / 3 * ax * std::sqrt(ax);
  if (x > 0) {
    if (zeta > 700) return 0.0;  // below double's range long before
    return std::sqrt(x / 3) * std::cyl_bessel_k(1.0 / 3, zeta) / kPi;
  }
  return std::sqrt(ax) / 2 *
         (std::cyl_bessel_j(1.0 / 3, zeta) - std::cyl_neumann(1.0 / 3, zeta) / std::sqrt(3.0));
}

// ---- Orthogonal polynomials of a tensor degree -----------------------------------------------

// The degree PyTorch uses: n converted to int64 by truncation, where NaN, +-inf and |n| >= 2^63
// come out negative (x86's conversion gives INT64_MIN), and a negative degree gives 0.
inline long long PolyDegree(double n) {
  if (!(std::fabs(n) < 9.2233720368547758e18)) return -1;
  return static_cast<long long>(n);
}

// A three-term recurrence p_(k+1) = step(k, p_k, p_(k-1)) from p_0 = 1 and p_1 up to degree n.
// Once a value is NaN (infinities meeting after an overflow) it stays NaN, so the loop ends there.
template <typename Step>
double Recur(long long n, double p1, Step step) {
  if (n == 0) return 1.0;
  double p = 1.0;
  double q = p1;
  for (long long k = 1; k < n; ++k) {
    const double r = step(k, q, p);
    if (std::isnan(r)) return r;
    p = q;
    q = r;
  }
  return q;
}

// The shifted Chebyshev polynomials T*_n(x) = T_n(2x - 1), U*_n, V*_n, W*_n
// (torch.special.shifted_chebyshev_polynomial_t/u/v/w; DLMF 18.3, 18.7.3 and 18.9.1 for the
// third and fourth kinds): with y = 2x - 1, y = +-1 in closed form, |y| < 1 and n > 6 by the
// trigonometric forms (y = cos t: T = cos(n t), U = sin((n + 1) t) / sin t, V = cos((n + 1/2) t)
// / cos(t / 2), W = sin((n + 1/2) t) / sin(t / 2)), otherwise the recurrence p_(k+1) = 2y p_k -
// p_(k-1) from p_1 = y (T), 2y (U), 2y - 1 (V), 2y + 1 (W). `kind` is 'T', 'U', 'V' or 'W'.
inline double ShiftedChebyshev(char kind, double x, double n_in) {
  const long long n = PolyDegree(n_in);
  if (n < 0) return 0.0;
  if (n == 0) return 1.0;
  if (std::isnan(x)) return x;
  const double y = x + x - 1;
  const double sign = n % 2 == 0 ? 1.0 : -1.0;
  const double m = static_cast<double>(n);
  if (y == 1 || y == -1) {
    const bool up = y == 1;
    switch (kind) {
      case 'T':
        return up ? 1.0 : sign;
      case 'U':
        return (up ? 1.0 : sign) * (m + 1);
      case 'V':
        return up ? 1.0 : sign * (2 * m + 1);
      default:
        return up ? 2 * m + 1 : sign;
    }
  }
  if (n > 6 && std::fabs(y) < 1) {
    const double t = std::acos(y);
    switch (kind) {
      case 'T':
        return std::cos(m * t);
      case 'U':
        return std::sin((m + 1) * t) / std::sin(t);
      case 'V':
        return std::cos((m + 0.5) * t) / std::cos(t / 2);
      default:
        return std::sin((m + 0.5) * t) / std::sin(t / 2);
    }
  }
  const double p1 = kind == 'T' ? y : kind == 'U' ? 2 * y : kind == 'V' ? 2 * y - 1 : 2 * y + 1;
  return Recur(n, p1, [y](long long, double q, double p) { return 2 * y * q - p; });
}

// The Laguerre polynomial L_n(x) (torch.special.laguerre_polynomial_l): (k + 1) L_(k+1) =
// (2k + 1 - x) L_k - k L_(k-1) from L_1 = 1 - x (DLMF 18.9.13).
inline double Laguerre(double x, double n_in) {
  const long long n = PolyDegree(n_in);
  if (n < 0) return 0.0;
  if (n == 0) return 1.0;
  return Recur(n, 1 - x, [x](long long k, double q, double p) {
    const double kd = static_cast<double>(k);
    return ((2 * kd + 1 - x) * q - kd * p) / (kd + 1);
  });
}

// The Legendre polynomial P_n(x) (torch.special.legendre_polynomial_p): P_n(1) = 1,
// P_n(-1) = (-1)^n, else (k + 1) P_(k+1) = (2k + 1) x P_k - k P_(k-1) from P_1 = x
// (DLMF 18.9.1).
inline double Legendre(double x, double n_in) {
  const long long n = PolyDegree(n_in);
  if (n < 0) return 0.0;
  if (n == 0) return 1.0;
  if (x == 1) return 1.0;
  if (x == -1) return n % 2 == 0 ? 1.0 : -1.0;
  return Recur(n, x, [x](long long k, double q, double p) {
    const double kd = static_cast<double>(k);
    return ((2 * kd + 1) * x * q - kd * p) / (kd + 1);
  });
}

}  // namespace af_cpu::special
