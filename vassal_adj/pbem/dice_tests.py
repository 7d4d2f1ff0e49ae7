"""Is a die fair? The tests the dice audit runs on one player's dice of one kind (5.4).

A die has categories, each shown by some of its faces: a numbered d6 has six categories of
one face each; a symbol die (e.g. two infantry faces, one each of cavalry,
artillery, flag and sabre) has fewer categories than faces. Under a fair die category i comes
up with probability weights[i] / sides.

Which test, by sample size (LEVEL is the significance level, 1%):

* every category expects MIN_EXPECTED (5) or more: Pearson's chi-square test, whose
  approximation is good there;
* fewer: the exact multinomial test: the probability, under a fair die, of every outcome (counts
  per category, same number of dice) no more likely than the one observed. Its outcomes are
  enumerated, so it runs only while there are at most EXACT_OUTCOMES of them: every sample
  the chi-square leaves of a d6 or d10 (a d20 up to 46 dice, a die of five symbols up to 36);
  past that the sample is called too small for a test;
* a sample so small that even its least likely outcome has p >= LEVEL (three d6 or fewer)
  is called too small: no result could show bias.
"""

from __future__ import annotations

import math
from collections.abc import Iterator, Sequence

__all__ = ["EXACT_OUTCOMES", "LEVEL", "MIN_EXPECTED", "chi2_sf", "exact_p", "upper_gamma_q"]

LEVEL = 0.01  # significance level of the fairness test
MIN_EXPECTED = 5  # the chi-square approximation needs about 5 expected per category
EXACT_OUTCOMES = 100_000  # the exact test enumerates at most this many outcomes (about a second)
_TIE = 1e-9  # relative: outcomes this close in probability to the observed one count as as likely


def upper_gamma_q(a: float, x: float) -> float:
    """The regularised upper incomplete gamma function Q(a, x) = Γ(a, x) / Γ(a), a > 0.

    A series for P = 1 - Q where it converges fast (x < a + 1), else a continued fraction
    (modified Lentz), as in Numerical Recipes §6.2.

    >>> round(upper_gamma_q(1.0, 1.0), 6)  # Q(1, x) = exp(-x)
    0.367879
    """
    if x <= 0:
        return 1.0
    log_front = -x + a * math.log(x) - math.lgamma(a)
    if x < a + 1:
        n, term, total = a, 1.0 / a, 1.0 / a
        for _ in range(10_000):
            n += 1
            term *= x / n
            total += term
            if abs(term) < abs(total) * 1e-16:
                break
        return max(0.0, 1.0 - total * math.exp(log_front))
    tiny = 1e-300
    b = x + 1 - a
    c, d, h = 1 / tiny, 1 / b, 1 / b
    for i in range(1, 10_000):
        an = -i * (i - a)
        b += 2
        d = an * d + b
        d = tiny if abs(d) < tiny else d
        c = b + an / c
        c = tiny if abs(c) < tiny else c
        d = 1 / d
        h *= d * c
        if abs(d * c - 1) < 1e-16:
            break
    return math.exp(log_front) * h


def chi2_sf(x: float, df: int) -> float:
    """P(X >= x) for X chi-square with `df` degrees of freedom.

    >>> round(chi2_sf(3.84, 1), 3)
    0.05
    """
    return upper_gamma_q(df / 2, x / 2)


def _compositions(n: int, k: int) -> Iterator[tuple[int, ...]]:
    """Every way to put n dice in k categories (counts, in category order)."""
    if k == 1:
        yield (n,)
        return
    for first in range(n + 1):
        for rest in _compositions(n - first, k - 1):
            yield (first, *rest)


def _partitions(n: int, k: int, top: int) -> Iterator[tuple[int, ...]]:
    """The counts of n dice in k equally likely categories up to order: non-increasing, <= top."""
    if k == 0:
        if n == 0:
            yield ()
        return
    for first in range(min(n, top), -((-n) // k) - 1, -1):  # the largest count is at least n / k
        for rest in _partitions(n - first, k - 1, first):
            yield (first, *rest)


def _partition_count(n: int, k: int) -> int:
    """How many ways n dice fall in k equally likely categories up to order (partitions of n
    into at most k parts), counted without listing them."""
    ways = [1] + [0] * n  # ways[m]: partitions of m into parts of at most j, for j = 1..k in turn
    for j in range(1, k + 1):
        for m in range(j, n + 1):
            ways[m] += ways[m - j]
    return ways[n]


def exact_p(counts: Sequence[int], weights: Sequence[int]) -> tuple[float, float] | None:
    """The exact multinomial test of `counts` against probabilities weights / sum(weights):
    (p, the smallest p any outcome could give), or None past EXACT_OUTCOMES outcomes.

    >>> [round(p, 6) for p in exact_p([3, 0], [1, 1])]  # three tosses, all heads: 2 outcomes of 8
    [0.25, 0.25]
    """
    n, k, sides = sum(counts), len(counts), sum(weights)
    equal = len(set(weights)) == 1
    if (_partition_count(n, k) if equal else math.comb(n + k - 1, k - 1)) > EXACT_OUTCOMES:
        return None
    logs = [math.log(w / sides) for w in weights]
    front = math.lgamma(n + 1)

    def log_p(cs: Sequence[int]) -> float:
        return front + sum(c * lg - math.lgamma(c + 1) for c, lg in zip(cs, logs, strict=True))

    # (log probability, how many outcomes have it): with equal weights an outcome's probability
    # depends only on its counts up to order, so each partition stands for its arrangements.
    outcomes: list[tuple[float, int]] = []
    if equal:
        for part in _partitions(n, k, n):
            ways = math.factorial(k) // math.prod(math.factorial(part.count(v)) for v in set(part))
            outcomes.append((log_p(part), ways))
    else:
        outcomes = [(log_p(cs), 1) for cs in _compositions(n, k)]
    observed, least = log_p(counts), min(lp for lp, _ in outcomes)
    p = sum(ways * math.exp(lp) for lp, ways in outcomes if lp <= observed + _TIE * abs(observed))
    floor = sum(ways * math.exp(lp) for lp, ways in outcomes if lp <= least + _TIE * abs(least))
    return min(1.0, p), min(1.0, floor)
