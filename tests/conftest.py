"""Every test runs with its own XDG config and data directories, so that a
table's real calibration or games on this machine neither change nor feed a test."""

import pytest


@pytest.fixture(autouse=True)
def xdg(tmp_path, monkeypatch):
    config, data = tmp_path / "xdg-config", tmp_path / "xdg-data"
    monkeypatch.setenv("XDG_CONFIG_HOME", str(config))
    monkeypatch.setenv("XDG_DATA_HOME", str(data))
    monkeypatch.delenv("COMPANION_LEDS", raising=False)
    return config / "niagara-companion", data / "niagara-companion"
