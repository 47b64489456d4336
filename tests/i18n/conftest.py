"""Shared fixtures of the i18n tests."""

from __future__ import annotations

from pathlib import Path

import pytest

from companion.i18n import LANGUAGES

# rules.md lives beside the repository (shared/spec), not in it.
SPEC_CANDIDATES = (
    Path(__file__).resolve().parents[2].parent / "shared" / "spec" / "rules.md",
    Path("/work/shared/spec/rules.md"),
)
OTHER_LANGUAGES = [lang for lang in LANGUAGES if lang != "en"]


@pytest.fixture(scope="session")
def rules_md() -> str:
    for path in SPEC_CANDIDATES:
        if path.is_file():
            return path.read_text(encoding="utf-8")
    pytest.skip("shared/spec/rules.md is not beside this checkout")
