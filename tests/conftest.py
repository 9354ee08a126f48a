"""Test-run settings: the size of the property-based fuzz suite (tests/test_fuzz_inputs.py).

A plain run draws a few hundred examples per fuzz target; ``pytest -m fuzz`` selects the fuzz
targets only and draws FUZZ_EXAMPLES (10,000) from each.  Both are derandomized (the examples
follow from each test's name), so a run is reproducible.
"""
import os

from hypothesis import HealthCheck, settings

QUICK_EXAMPLES = 200
FUZZ_EXAMPLES = int(os.environ.get("TNE_FUZZ_EXAMPLES", "10000"))
_CHECKS = [HealthCheck.too_slow, HealthCheck.data_too_large, HealthCheck.filter_too_much]

settings.register_profile("quick", max_examples=QUICK_EXAMPLES, deadline=None,
                          derandomize=True, database=None, suppress_health_check=_CHECKS)
settings.register_profile("fuzz", max_examples=FUZZ_EXAMPLES, deadline=None,
                          derandomize=True, database=None, suppress_health_check=_CHECKS)


def pytest_configure(config):
    expr = config.getoption("markexpr", "") or ""
    big = "fuzz" in expr and "not fuzz" not in expr
    settings.load_profile("fuzz" if big else "quick")
