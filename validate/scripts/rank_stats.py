"""Rank statistics shared by the validate scripts (repeat_ranks.py, recommend_table.py, cta_sm_speed.py,
merge_ratios.py): ranks with ties sharing their mean rank, Pearson's correlation, and Spearman's on the ranks (the
same definition as the simulator's `compare`, sim/stats/statistics.h)."""


def ranks(xs):
    """0-based ranks of xs; equal values share the mean of their ranks."""
    order = sorted(range(len(xs)), key=lambda i: xs[i])
    r = [0.0] * len(xs)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and xs[order[j + 1]] == xs[order[i]]:
            j += 1
        for k in range(i, j + 1):
            r[order[k]] = (i + j) / 2.0
        i = j + 1
    return r


def pearson(a, b):
    """Pearson's correlation of two equally long series; NaN when either is constant."""
    n = len(a)
    ma, mb = sum(a) / n, sum(b) / n
    cov = sum((x - ma) * (y - mb) for x, y in zip(a, b))
    va = sum((x - ma) ** 2 for x in a) ** 0.5
    vb = sum((y - mb) ** 2 for y in b) ** 0.5
    return cov / (va * vb) if va and vb else float("nan")


def spearman(a, b):
    """Spearman's rank correlation of two equally long series; NaN when either is constant."""
    return pearson(ranks(a), ranks(b))
