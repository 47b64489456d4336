"""A package that works wherever it is installed: the wheel built by `python -m build`,
installed by pip into a fresh venv (not editable), runs `companion vision detect` and
`companion serve` with its camera on from a directory that has nothing of the project.

The fresh venv sees the test venv's packages through a .pth line (numpy, OpenCV,
Flask...), so the test does not download and unpack OpenCV again; the companion itself
is only the wheel's copy (checked: it is imported from the fresh venv)."""

import json
import os
import shutil
import site
import subprocess
import sys
import time
import venv
from pathlib import Path

import pytest

from .helpers import Served

ROOT = Path(__file__).resolve().parents[2]
EXAMPLE = ROOT / "examples" / "worked-example.jsonl"


@pytest.fixture(scope="module")
def installed(tmp_path_factory) -> Path:
    """The fresh venv's bin directory, with the built wheel pip-installed."""
    work = tmp_path_factory.mktemp("wheel")
    source = work / "clone"  # tracked files only, as a clean clone has them
    files = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True,
                           check=True).stdout.decode().split("\0")
    for name in filter(None, files):
        src, dst = ROOT / name, source / name
        dst.parent.mkdir(parents=True, exist_ok=True)
        if src.is_symlink():
            dst.symlink_to(os.readlink(src))
        elif src.is_file():
            shutil.copy2(src, dst)
    dist = work / "dist"
    built = subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                           capture_output=True, text=True, timeout=600)
    assert built.returncode == 0, built.stdout[-2000:] + built.stderr[-2000:]
    wheels = list(dist.glob("niagara_companion-*.whl"))
    assert len(wheels) == 1 and list(dist.glob("niagara_companion-*.tar.gz"))
    env_dir = work / "venv"
    venv.create(env_dir, with_pip=True)
    python = env_dir / "bin" / "python"
    purelib = subprocess.run([str(python), "-c", "import sysconfig; "
                              "print(sysconfig.get_paths()['purelib'])"],
                             capture_output=True, text=True, check=True).stdout.strip()
    # The test venv's packages, after the fresh venv's own (so the wheel's companion wins).
    Path(purelib, "test-venv-packages.pth").write_text(
        "\n".join(p for p in site.getsitepackages()) + "\n")
    pip = subprocess.run([str(python), "-m", "pip", "install", "-q", "--no-deps",
                          str(wheels[0])], capture_output=True, text=True, timeout=300)
    assert pip.returncode == 0, pip.stderr
    return env_dir / "bin"


@pytest.fixture
def elsewhere(tmp_path) -> Path:
    """An unrelated directory to run from."""
    folder = tmp_path / "elsewhere"
    folder.mkdir()
    return folder


def test_the_installed_companion_is_the_wheels_own_copy(installed, elsewhere):
    where = subprocess.run([str(installed / "python"), "-c",
                            "import companion, companion.paths as p; print(companion.__file__);"
                            "print(p.packaged('board.json'))"],
                           capture_output=True, text=True, cwd=elsewhere, check=True)
    module, board = where.stdout.split()
    assert module.startswith(str(installed.parent)), module
    assert board.startswith(str(installed.parent)) and Path(board).is_file()


def test_vision_detect_reads_a_rendered_frame_from_anywhere(installed, elsewhere):
    companion = str(installed / "companion")
    rendered = subprocess.run([companion, "vision", "render", str(EXAMPLE), "--out",
                               "frame.png"], capture_output=True, text=True, cwd=elsewhere,
                              timeout=120)
    assert rendered.returncode == 0, rendered.stderr
    detect = subprocess.run([companion, "vision", "detect", "frame.png"], capture_output=True,
                            text=True, cwd=elsewhere, timeout=120)
    assert detect.returncode == 0, detect.stderr
    observation = json.loads(detect.stdout)
    assert observation["markers"] == 4 and "slots" in observation


def test_serve_answers_with_its_camera_on_from_anywhere(installed, elsewhere):
    served = Served(["--camera", "sim", "--no-hardware", "--database",
                     str(elsewhere / "games.sqlite3"), "--players", "red", "blue", "green"],
                    command=[str(installed / "companion")], cwd=elsewhere)
    try:
        deadline = time.monotonic() + 60
        camera = None
        while time.monotonic() < deadline:
            camera = served.get("/api/table")["camera"]
            if camera and camera.get("markers") == 4:
                break
            time.sleep(0.5)
    finally:
        served.stop()
    assert "camera off" not in "".join(served.errors)
    assert camera is not None and camera["source"] == "simulated"
    assert camera.get("markers") == 4, camera
