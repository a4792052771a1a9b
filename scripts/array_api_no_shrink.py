"""pytest plugin used by ``scripts/array_api.sh``: the array API suite's Hypothesis profile without shrinking.

Shrinking a failing example can take Hypothesis up to five minutes per test, which dominates a run on a busy
2-core machine; it changes only how a failure is reported, never whether a test passes. Loaded with ``-p``
after the suite's conftest has registered its ``array-api-tests`` profile (max examples, deadline, derandomize).
"""

import pytest
from hypothesis import Phase, settings


@pytest.hookimpl(trylast=True)
def pytest_configure(config: pytest.Config) -> None:
    base = settings.get_profile("array-api-tests")
    settings.register_profile("array-api-tests-no-shrink", base,
                              phases=[Phase.explicit, Phase.reuse, Phase.generate])
    settings.load_profile("array-api-tests-no-shrink")
