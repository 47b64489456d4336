"""The Pi's service unit and install script (systemd/), checked without installing:
the unit's content, and the script's --dry-run."""

import os
import pwd
import shutil
import subprocess
from collections import defaultdict

import pytest

from .helpers import ROOT

SYSTEMD = ROOT / "systemd"


def unit_entries(text: str) -> dict[str, dict[str, list[str]]]:
    sections: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        sections[section][key].append(value)
    return sections


def pi_home() -> str:
    """Where install.sh puts user pi's files: their home, or the one it would make."""
    try:
        return pwd.getpwnam("pi").pw_dir
    except KeyError:
        return "/var/lib/pi"


def dry_run(*args: str, user: str | None = "pi") -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if k != "SUDO_USER"}
    if user:
        env["SUDO_USER"] = user
    return subprocess.run(["bash", str(SYSTEMD / "install.sh"), "--dry-run", *args],
                          capture_output=True, text=True, env=env, timeout=60)


def test_the_unit_runs_companion_serve_from_the_venv_as_a_gpio_spi_video_user():
    unit = unit_entries((SYSTEMD / "companion.service").read_text())
    service = unit["Service"]
    assert service["ExecStart"] == ["@DIR@/.venv/bin/companion serve"]
    assert service["User"] == ["@USER@"]
    assert set(service["SupplementaryGroups"][0].split()) == {"gpio", "spi", "video", "i2c"}
    # The LED layout is found like every table file (companion.paths), not pinned here.
    assert not any(e.startswith("COMPANION_LEDS=") for e in service["Environment"])
    assert service["Restart"] == ["on-failure"]
    assert unit["Install"]["WantedBy"] == ["multi-user.target"]


def test_the_unit_has_a_watchdog_fed_by_the_companion():
    service = unit_entries((SYSTEMD / "companion.service").read_text())["Service"]
    assert service["Type"] == ["notify"] and service["NotifyAccess"] == ["main"]
    assert int(service["WatchdogSec"][0]) >= 10


def test_the_unit_is_hardened_but_keeps_the_camera_and_leds_usable():
    service = unit_entries((SYSTEMD / "companion.service").read_text())["Service"]
    for key, value in {"NoNewPrivileges": "yes", "PrivateTmp": "yes",
                       "ProtectSystem": "strict", "ProtectHome": "read-only"}.items():
        assert service[key] == [value], key
    assert service["ReadWritePaths"] == ["@DATA@"]
    # Each of these would hide /dev/video*, /dev/gpiomem, /dev/spidev* or /dev/mem.
    for key in ("PrivateDevices", "DeviceAllow", "DevicePolicy", "ProtectClock"):
        assert key not in service, key


def test_the_install_script_is_valid_bash():
    subprocess.run(["bash", "-n", str(SYSTEMD / "install.sh")], check=True)


def test_dry_run_makes_a_venv_that_sees_debians_opencv_and_rpi_ws281x():
    result = dry_run()
    assert result.returncode == 0, result.stderr
    steps = [line[2:] for line in result.stdout.splitlines() if line.startswith("+ ")]
    assert any("apt-get install" in s and "python3-opencv" in s for s in steps)
    assert f"python3 -m venv --system-site-packages {ROOT}/.venv" in steps
    assert f"{ROOT}/.venv/bin/python -m pip install -q -e {ROOT}[pi]" in steps
    assert "raspi-config nonint do_spi 0" in steps
    assert "systemctl enable --now companion.service" in steps


def test_dry_run_fills_the_unit_with_the_user_and_the_checkout():
    out = dry_run().stdout
    unit = unit_entries(out[out.index("[Unit]"):out.index("+ systemctl daemon-reload")])
    assert unit["Service"]["User"] == ["pi"]
    assert unit["Service"]["ExecStart"] == [f"{ROOT}/.venv/bin/companion serve"]
    assert "@" not in out.split("[Unit]", 1)[1].split("+ systemctl")[0]
    assert "usermod -aG spi pi" in out and "usermod -aG gpio pi" in out
    assert unit["Service"]["ReadWritePaths"] == [f"{pi_home()}/.local/share/niagara-companion"]


def test_dry_run_makes_the_users_data_and_config_dirs_as_the_user():
    out = dry_run().stdout
    home = pi_home()
    data, config = f"{home}/.local/share/niagara-companion", f"{home}/.config/niagara-companion"
    assert f"+ runuser -u pi -- mkdir -p {data} {config}" in out
    assert f"+ runuser -u pi -- cp {ROOT}/calibration/leds.json {config}/leds.json" in out


def test_lgpio_and_picamera2_are_optional_as_plain_debian_lacks_them():
    steps = [line for line in dry_run().stdout.splitlines() if line.startswith("+ ")]
    required = next(s for s in steps if "python3-opencv" in s)
    assert "python3-lgpio" not in required and "python3-picamera2" not in required


def test_without_sudo_user_the_service_gets_its_own_user():
    out = dry_run(user=None).stdout
    assert "User=companion" in out


def test_root_mode_for_pwm_runs_as_root_without_groups():
    out = dry_run("--root").stdout
    assert "User=root" in out
    assert "SupplementaryGroups" not in out and "usermod" not in out


def test_no_start_enables_without_starting():
    out = dry_run("--no-start", "--no-spi").stdout
    assert "+ systemctl enable companion.service" in out
    assert "--now" not in out and "raspi-config" not in out


def test_an_unknown_option_is_one_line_and_exit_2():
    result = dry_run("--colour")
    assert result.returncode == 2
    assert result.stderr == "install.sh: unknown option --colour (see --help)\n"


@pytest.mark.skipif(shutil.which("systemd-analyze") is None, reason="no systemd-analyze here")
def test_the_filled_unit_passes_systemd_analyze_verify(tmp_path):
    out = dry_run().stdout
    text = out[out.index("# Niagara Companion"):out.index("+ systemctl daemon-reload")]
    if not (ROOT / ".venv" / "bin" / "companion").exists():
        pytest.skip("no .venv/bin/companion in this checkout for ExecStart")
    unit = tmp_path / "companion.service"
    unit.write_text(text)
    result = subprocess.run(["systemd-analyze", "verify", str(unit)], capture_output=True,
                            text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # A value it cannot parse is only a warning (exit 0): none may name our unit.
    assert [line for line in result.stderr.splitlines() if "companion.service" in line] == []
