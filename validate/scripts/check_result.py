"""The end of a microbenchmark reader's --check: the failed conditions, or that the measurement holds."""
import sys


def finish(failures):
    """Prints each failed condition and exits 1, or prints that the check passed."""
    for f in failures:
        print("FAIL:", f)
    if failures:
        sys.exit(1)
    print("check passed")


def report(failures, check):
    """With --check, finish(failures); without, each failed condition printed as what --check would refuse."""
    if check:
        finish(failures)
    for f in failures:
        print("would fail --check:", f)
