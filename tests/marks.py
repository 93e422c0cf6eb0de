"""Marks shared by the test files."""

from __future__ import annotations

import pytest

#: The ten-times tiers of the property tests and other many-hands runs: ``make
#: test-long`` runs them for a closing note; ``make test`` (CI) runs their fast tiers.
LONG = (pytest.mark.slow, pytest.mark.long)

#: Runs the READMEs' shell examples, which need every client built: ``make test`` runs
#: these after ``make clients-test``, not in its main pytest run.
README = pytest.mark.readme
