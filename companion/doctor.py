"""`companion doctor`: is this table ready? One line per thing a table needs, each
saying what to fix when it is not.

    ok    camera: Pi camera, 1280x720
    ok    board seen: 4 of 4 markers
    warn  light: mean brightness 38 of 255, too dark: light the table more evenly
    FAIL  LED strip: SPI is switched off (/dev/spidev0.0 is missing): run ...
    ...
    not ready: 1 thing to fix (FAIL), 1 to look at (warn)

Exit status 0 when nothing FAILs (warnings do not stop a game), 1 otherwise. Each
check is a small function returning :class:`Finding` s, so a new one is a few lines.
"""

from __future__ import annotations

import argparse
import ipaddress
import os
import shutil
import time
import urllib.parse
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from companion import paths

OK, WARN, FAIL, SKIP = "ok", "warn", "FAIL", "skip"

# Below this mean brightness (0-255) colours are hard to tell apart; above the other,
# white gems and the clear water glare.
DARK, BRIGHT = 50, 220
# Variance of the Laplacian of the grey frame: a sharp board photo scores in the
# hundreds (rendered frames: 100-250), a defocused one single figures.
BLURRY = 15.0
CALIBRATION_MAX_DAYS = 180
DISK_FAIL_MB, DISK_WARN_MB = 200, 1000


@dataclass(frozen=True)
class Finding:
    status: str  # OK, WARN, FAIL or SKIP
    what: str
    says: str

    def line(self) -> str:
        return f"{self.status:<4}  {self.what}: {self.says}"


# -- camera and board --------------------------------------------------------------------

def _open(spec: str) -> tuple[Any, str]:
    """The frame source for `spec` and a name for it; ValueError/OSError if none."""
    from companion.vision.sources import SourceError, open_source

    if spec == "sim":
        from companion.app import Table
        from companion.camera_sources import SimulatedCamera
        from companion.store import Store

        table = Table(Store(":memory:"))
        table.new_game(["red", "blue", "green"], "red")
        return SimulatedCamera(table), "simulated camera (the synthetic renderer)"
    from companion.camera_sources import auto_candidates

    words = auto_candidates() if spec == "auto" else [spec]
    if not words:
        raise ValueError("no camera found: connect the Pi camera (ribbon, then reboot) "
                         "or a USB webcam, or name one with --camera")
    errors = []
    for word in words:
        try:
            source = open_source(word)
            return source, {"pi": "Pi camera", "0": "USB camera 0"}.get(word, word)
        except (SourceError, OSError, ImportError, RuntimeError) as exc:
            errors.append(f"{word}: {exc}")
    raise ValueError("; ".join(errors))


def check_camera(spec: str, frames: int = 10) -> list[Finding]:
    """The camera opens, gives frames, and the board is found in them; their light
    level and sharpness."""
    import cv2

    from companion.vision.board import BoardError
    from companion.vision.observer import Vision
    from companion.vision.profile import ProfileError

    try:
        vision = Vision(settle=1)
    except (BoardError, ProfileError) as exc:
        return [Finding(FAIL, "camera", f"the vision cannot start: {exc}")]
    try:
        source, name = _open(spec)
    except (ValueError, OSError) as exc:
        return [Finding(FAIL, "camera", str(exc))]
    image, observation = None, None
    try:
        for _ in range(max(1, frames)):
            frame = source.read()
            if frame is None:
                break
            image = frame
            observation = vision.observe(frame) or observation
    except Exception as exc:  # a camera that breaks mid-read says so, once
        return [Finding(FAIL, "camera", f"{name}: reading a frame failed: {exc}")]
    finally:
        source.close()
    if image is None:
        return [Finding(FAIL, "camera", f"{name}: gives no picture (is the lens cap on, "
                        "another program using it?)")]
    height, width = image.shape[:2]
    out = [Finding(OK, "camera", f"{name}, {width}x{height}")]
    if observation is not None:
        out.append(Finding(OK, "board seen", f"{observation['markers']} of 4 markers, "
                           "the board is found"))
    else:
        seen = len(vision.locator.finder.find(image))
        out.append(Finding(FAIL, "board seen", f"{seen} of 4 markers: the board is not "
                           "found; stick the markers where the board file says, keep them "
                           "in view and unshaded"))
    grey = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY) if image.ndim == 3 else image
    light = float(grey.mean())
    if light < DARK:
        out.append(Finding(WARN, "light", f"mean brightness {light:.0f} of 255, too dark: "
                           "light the table more"))
    elif light > BRIGHT:
        out.append(Finding(WARN, "light", f"mean brightness {light:.0f} of 255, too bright: "
                           "dim the light or the camera's exposure"))
    else:
        out.append(Finding(OK, "light", f"mean brightness {light:.0f} of 255"))
    focus = float(cv2.Laplacian(grey, cv2.CV_64F).var())
    if focus < BLURRY:
        out.append(Finding(WARN, "focus", f"sharpness {focus:.0f} (below {BLURRY:.0f}): "
                           "turn the lens ring until the board's print is crisp"))
    else:
        out.append(Finding(OK, "focus", f"sharpness {focus:.0f}"))
    return out


# -- calibration -------------------------------------------------------------------------

def _age_days(path: Path, now: float) -> float:
    return (now - path.stat().st_mtime) / 86400


def check_calibration(now: float | None = None) -> list[Finding]:
    """The table's own board file and profile: there, readable, recent, in order."""
    from companion.vision.board import BoardError, load_board
    from companion.vision.profile import ProfileError
    from companion.vision.profile_file import load_profile

    now = time.time() if now is None else now
    out = []
    board, profile = paths.board_file(), paths.profile_file()
    for what, path, load, command in (
            ("board file", board, load_board, "companion calibrate board PHOTO"),
            ("colour profile", profile, load_profile, "companion calibrate profile PHOTOS")):
        try:
            load(path)
        except (BoardError, ProfileError) as exc:
            out.append(Finding(FAIL, what, f"{exc}; make it again: {command}"))
            continue
        if path == paths.packaged(path.name):
            out.append(Finding(WARN, what, f"the packaged default (this table is not "
                               f"calibrated): {command}"))
            continue
        days = _age_days(path, now)
        if days > CALIBRATION_MAX_DAYS:
            out.append(Finding(WARN, what, f"{path} is {days:.0f} days old: if the camera "
                               f"or the light changed, {command}"))
        else:
            out.append(Finding(OK, what, f"{path}, made {days:.0f} days ago"))
    own_board, own_profile = board != paths.packaged(board.name), \
        profile != paths.packaged(profile.name)
    if own_board and own_profile and profile.stat().st_mtime < board.stat().st_mtime:
        out.append(Finding(WARN, "colour profile", "older than the board file: learn it "
                           "again with the new geometry (companion calibrate profile PHOTOS)"))
    return out


# -- LEDs and buttons --------------------------------------------------------------------

def check_hardware(skip: bool = False) -> list[Finding]:
    """The LED strip (the same test as `companion leds check`) and the buttons."""
    if skip:
        return [Finding(SKIP, "LED strip", "not checked (--no-hardware)"),
                Finding(SKIP, "buttons", "not checked (--no-hardware)")]
    from companion.hardware import ConfigError, load_config
    from companion.hardware.ws281x import Platform, import_driver, preflight

    try:
        config = load_config()
    except ConfigError as exc:
        return [Finding(FAIL, "LED strip", f"{exc}; fix the file (companion leds check)")]
    strip = config.strip
    platform = Platform.detect()
    out = []
    if strip.backend in ("simulated", "off"):
        out.append(Finding(OK, "LED strip", f"the {strip.backend} strip, as {config.source} "
                           "says"))
    else:
        reason = preflight(strip, platform, import_driver() if platform.is_pi else None)
        if reason:
            out.append(Finding(FAIL, "LED strip", reason))
        else:
            out.append(Finding(OK, "LED strip", f"{strip.count} LEDs, {strip.mode} on "
                               f"GPIO{strip.pin}; companion leds test lights each place"))
    pins = config.buttons.pins
    if not pins:
        out.append(Finding(OK, "buttons", "none configured"))
        return out
    wired = ", ".join(f"{name} GPIO{pin}" for name, pin in pins.items())
    chips = [p for p in (Path("/dev/gpiochip0"), Path("/dev/gpiochip4"), Path("/dev/gpiomem"))
             if p.exists()]
    if not platform.is_pi or not chips:
        out.append(Finding(FAIL, "buttons", f"{wired}: no GPIO on this machine (not a "
                           "Raspberry Pi)"))
    elif not any(os.access(p, os.R_OK | os.W_OK) for p in chips):
        out.append(Finding(FAIL, "buttons", f"{wired}: this user may not open "
                           f"{chips[0]}: add it to the gpio group ('sudo usermod -aG gpio "
                           "$USER') and log in again"))
    else:
        out.append(Finding(OK, "buttons", f"{wired}; companion buttons test shows presses"))
    return out


# -- network, store, disk ----------------------------------------------------------------

def check_address(public_url: str | None, port: int,
                  lan: Callable[[], str | None] | None = None) -> list[Finding]:
    """The address the phones' QR codes will carry, and that a phone can reach it."""
    if public_url:
        host = urllib.parse.urlsplit(public_url).hostname or ""
        url = public_url
    else:
        if lan is None:
            from companion.web.views import lan_address
            lan = lan_address
        host = lan() or ""
        url = f"http://{host}:{port}/" if host else ""
    if not host:
        return [Finding(FAIL, "phones' address", "this machine has no network address: "
                        "join it to the Wi-Fi the phones use")]
    try:
        loopback = ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = host == "localhost"
    if loopback:
        return [Finding(FAIL, "phones' address", f"{url} is a loopback address, which a "
                        "phone cannot reach: set PUBLIC_URL to this machine's address on "
                        "the table's network")]
    return [Finding(OK, "phones' address", f"{url} (the QR codes carry it)")]


def check_store(database: str | os.PathLike[str]) -> list[Finding]:
    """The games' database opens and can be written."""
    from companion.store import Store, StoreError

    path = Path(database).expanduser()
    folder = path.parent
    existing = next((p for p in (folder, *folder.parents) if p.exists()), Path("/"))
    if not os.access(existing, os.W_OK | os.X_OK) or \
            (path.exists() and not os.access(path, os.R_OK | os.W_OK)):
        return [Finding(FAIL, "store", f"{path} cannot be written by this user: fix the "
                        f"owner of {existing if not path.exists() else path}")]
    if path.exists() and not os.access(folder, os.W_OK):
        return [Finding(FAIL, "store", f"{folder} is read-only: SQLite needs to write its "
                        "journal beside the database")]
    try:
        store = Store(path)
        try:
            games = len(store.games())
        finally:
            store.close()
    except StoreError as exc:
        return [Finding(FAIL, "store", str(exc))]
    return [Finding(OK, "store", f"{path}, {games} game{'s' if games != 1 else ''}")]


def check_disk(database: str | os.PathLike[str]) -> list[Finding]:
    path = Path(database).expanduser()
    existing = next((p for p in (path.parent, *path.parents) if p.exists()), Path("/"))
    free_mb = shutil.disk_usage(existing).free / 1e6
    if free_mb < DISK_FAIL_MB:
        status, hint = FAIL, ": free some space, or games cannot be saved"
    elif free_mb < DISK_WARN_MB:
        status, hint = WARN, ": getting full"
    else:
        status, hint = OK, ""
    return [Finding(status, "free disk", f"{free_mb:,.0f} MB on {existing}{hint}")]


# -- the command ---------------------------------------------------------------------------

def diagnose(args: argparse.Namespace) -> Iterable[Finding]:
    """Every check, in the order a person setting up a table meets them."""
    from companion.web import ConfigError, load_config

    settings: dict[str, Any] = {}
    settings_path = args.config or paths.settings_file()
    if settings_path:
        try:
            settings = load_config(settings_path)
        except ConfigError as exc:
            yield Finding(FAIL, "settings", str(exc))
    yield from check_calibration()
    if args.camera == "none":
        yield Finding(SKIP, "camera", "not checked (--camera none)")
    else:
        yield from check_camera(args.camera, args.frames)
    yield from check_hardware(args.no_hardware)
    yield from check_address(args.public_url or settings.get("PUBLIC_URL"), args.port)
    database = args.database or settings.get("DATABASE") or paths.database_file()
    yield from check_store(database)
    yield from check_disk(database)


def cmd_doctor(args: argparse.Namespace) -> int:
    counts = {OK: 0, WARN: 0, FAIL: 0, SKIP: 0}
    for finding in diagnose(args):
        print(finding.line(), flush=True)
        counts[finding.status] += 1
    if counts[FAIL]:
        print(f"not ready: {counts[FAIL]} thing{'s' if counts[FAIL] > 1 else ''} to fix "
              f"(FAIL), {counts[WARN]} to look at (warn)")
        return 1
    print("ready" + (f" ({counts[WARN]} to look at: warn)" if counts[WARN] else ""))
    return 0


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "doctor", help="is this table ready? one line per need, saying what to fix",
        description="Checks the camera and the board in it (markers, light, focus), the "
                    "calibration, the LED strip and buttons, the address the phones will "
                    "use, the store and the free disk. Exit 0 when nothing FAILs.")
    p.add_argument("--camera", default="auto", metavar="SOURCE",
                   help="auto (the Pi camera, else the first USB one), sim, none, a camera "
                        "number, a video or a folder of photos")
    p.add_argument("--frames", type=int, default=10, help="frames to read (default 10)")
    p.add_argument("--config", metavar="FILE", help="the serve settings (TOML; default: "
                   "~/.config/niagara-companion/settings.toml if there is one)")
    p.add_argument("--database", metavar="FILE", help="the games' SQLite file")
    p.add_argument("--public-url", metavar="URL", help="the address phones will use "
                   "(default: PUBLIC_URL of the settings, else this machine's LAN address)")
    p.add_argument("--port", type=int, default=8000, help="the port serve listens on")
    p.add_argument("--no-hardware", action="store_true",
                   help="do not check the LED strip and the buttons (a table without them)")
    p.set_defaults(func=cmd_doctor)


__all__ = ["Finding", "check_camera", "check_calibration", "check_hardware",
           "check_address", "check_store", "check_disk", "register"]
