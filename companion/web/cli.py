"""`companion serve`: the table app on this machine's network, with or without a camera
and LEDs. Registered into the main CLI by companion/cli.py."""

from __future__ import annotations

import argparse
import errno
import logging
import signal
import socket
import sys
import threading
import time
import urllib.request
import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
from werkzeug.serving import make_server

from companion import paths
from companion.app import Table, TableError, button_actions, follow_with_leds
from companion.rules import PLAYER_COLOURS
from companion.store import StoreError
from companion.watchdog import Heartbeat, Watchdog, notify, watchdog_seconds


def register(subparsers: Any) -> None:
    p = subparsers.add_parser(
        "serve", help="run the table page and the phones' pages (the companion itself)",
        description="Serve the table page and the phone pages. Open the printed table link "
                    "on the tablet (or scan its QR code); players scan their seat's code.")
    p.add_argument("--host", default="0.0.0.0",
                   help="address to listen on (default 0.0.0.0: the whole local network)")
    p.add_argument("--port", type=int, default=8000, help="port (default 8000)")
    p.add_argument("--config", metavar="FILE", help="TOML settings (see companion.web.DEFAULTS; "
                   "default: ~/.config/niagara-companion/settings.toml if there is one)")
    p.add_argument("--database", metavar="FILE", help="SQLite file for games (overrides config)")
    p.add_argument("--players", nargs="+", metavar="COLOUR", choices=PLAYER_COLOURS,
                   help="start a game with these colours in seating order (3-5), unless the "
                        "stored game already has exactly these players")
    p.add_argument("--start", choices=PLAYER_COLOURS, help="start player with --players")
    p.add_argument("--verbose", action="store_true", help="log every request")
    p.add_argument("--no-hardware", action="store_true",
                   help="do not open the LED strip or the buttons (the table page still "
                        "shows the simulated strip)")
    p.add_argument("--camera", default="auto", metavar="SOURCE",
                   help="auto (the Pi camera, else the first USB camera, else a simulated "
                        "one), sim, none, a camera number, a video file or a folder of "
                        "photos")
    p.set_defaults(func=cmd_serve)


def cmd_serve(args: argparse.Namespace) -> int:
    from companion.web import ConfigError, create_app, load_config

    logging.basicConfig(level=logging.INFO, format="%(name)s: %(message)s")
    logging.getLogger("werkzeug").setLevel(logging.INFO if args.verbose else logging.WARNING)

    settings = args.config or paths.settings_file()
    try:
        config: dict[str, Any] = load_config(settings) if settings else {}
    except ConfigError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    if args.database:
        config["DATABASE"] = args.database
    try:
        app = create_app(config)
    except StoreError as exc:
        print(f"companion serve: {exc}", file=sys.stderr)
        return 2
    table: Table = app.extensions["companion.table"]
    stop_hardware = attach_hardware(app, table, args.no_hardware)
    # The camera (OpenCV, the vision's profile) starts once the pages answer: start-up
    # to serving is about half as long, and the table page shows it when it comes.
    camera_beat = Heartbeat("camera", stale_after=20.0, alive=lambda: False)
    camera_stops: list[Callable[[], None]] = []
    camera_start = threading.Thread(
        target=lambda: camera_stops.append(_attach_camera(app, table, args.camera,
                                                          camera_beat)),
        name="camera-start", daemon=True)
    if args.players:
        try:
            _start_or_resume(table, args.players, args.start)
        except TableError as exc:
            print(f"companion serve: {exc.message}", file=sys.stderr)
            return 2
    try:
        listener = _listen(args.host, args.port)
    except OSError as exc:
        reason = "the port is in use" if exc.errno == errno.EADDRINUSE else exc.strerror
        print(f"companion serve: cannot listen on {args.host}:{args.port}: {reason}",
              file=sys.stderr)
        return 2
    port = listener.getsockname()[1]
    server = make_server(args.host, port, app, threaded=True, fd=listener.fileno())
    _announce(table, args.host, port, app.config.get("PUBLIC_URL"))
    signal.signal(signal.SIGTERM, _interrupt)  # systemd's stop: the same clean exit
    camera_start.start()
    watchdog = _start_watchdog(args.host, port, camera_beat)
    try:
        server.serve_forever()  # werkzeug's returns on Ctrl-C (KeyboardInterrupt)
    except KeyboardInterrupt:
        pass
    finally:
        notify("STOPPING=1")
        if watchdog is not None:
            watchdog.stop()
        server.server_close()
        listener.close()
        camera_start.join(timeout=30)
        for stop_camera in camera_stops:
            stop_camera()
        stop_hardware()
    print("companion serve: stopped; the game is saved and resumes on the next start")
    return 0


def _listen(host: str, port: int) -> socket.socket:
    """The listening socket, bound here so that a busy port is our one-line error
    (werkzeug would print its own and exit)."""
    family = socket.AF_INET6 if ":" in host else socket.AF_INET
    sock = socket.socket(family, socket.SOCK_STREAM)
    try:
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host, port))
        sock.listen(128)
    except OSError:
        sock.close()
        raise
    return sock


def _start_watchdog(host: str, port: int, camera_beat: Heartbeat) -> Watchdog | None:
    """Tell systemd we are up; under its watchdog, keep telling it while the web
    server answers and the camera loop goes round (companion.watchdog)."""
    notify("READY=1")
    seconds = watchdog_seconds()
    if seconds is None:
        return None
    address = {"0.0.0.0": "127.0.0.1", "::": "::1", "": "127.0.0.1"}.get(host, host)
    url = f"http://{f'[{address}]' if ':' in address else address}:{port}/api/table"
    period = seconds / 3

    def web() -> str | None:
        try:
            with urllib.request.urlopen(url, timeout=period) as response:
                return None if response.status == 200 else f"{url} answered {response.status}"
        except OSError as exc:
            return f"{url}: {exc}"

    return Watchdog({"web": web, "camera": camera_beat.check}, period).start()


def _interrupt(signum: int, frame: Any) -> None:
    raise KeyboardInterrupt


def _start_or_resume(table: Table, players: list[str], start: str | None) -> None:
    game = table.game
    if game is not None and not game.is_over and list(game.players) == list(players) \
            and (start is None or game.setup.start == start):
        return
    table.new_game(players, start)


def _announce(table: Table, host: str, port: int, public_url: str | None) -> None:
    from companion.web.views import lan_address

    if public_url:
        base = public_url.rstrip("/")
    else:
        address = lan_address() if host in ("0.0.0.0", "::", "") else host
        base = f"http://{address or '127.0.0.1'}:{port}"
    link = f"{base}/table?key={table.table_key}"
    game = table.game
    if game is None:
        status = "no game yet: set one up on the table page"
    else:
        status = (f"game {table.game_id}: {', '.join(game.players)}, round {game.round}, "
                  f"phase {game.phase}")
    print(f"Niagara Companion: {status}")
    print(f"Table page (open on the tablet, keep it private to the table):\n  {link}")
    print(f"Watch only: {base}/")
    try:
        import segno
        segno.make(link, error="l").terminal(compact=True)
    except Exception:  # a terminal that cannot draw the code still has the link
        pass
    sys.stdout.flush()


def _attach_camera(app: Any, table: Table, spec: str, beat: Heartbeat | None = None
                   ) -> Callable[[], None]:
    """The camera watches the board and plays the moves it sees (companion.camera);
    the table page shows what it is doing. A vision that cannot start (no board file,
    a bad profile) leaves the companion running without it, saying why. `beat` is
    told of every frame the camera loop reads (for the watchdog)."""
    from companion.camera import TableCamera
    from companion.camera_sources import open_camera

    if beat is not None:  # no camera loop, nothing to watch (until one starts below)
        beat.alive = lambda: False
    try:
        opened = open_camera(spec, table)
        if opened is None:
            return lambda: None
        source: Any = _Beating(opened, beat) if beat is not None else opened
        camera = TableCamera(table, source).start()
    except (OSError, ValueError, RuntimeError, ImportError) as exc:
        print(f"companion serve: camera off: {exc}", file=sys.stderr)
        return lambda: None
    if beat is not None:  # a lost camera ends its loop on purpose: that is not a hang
        beat.alive = lambda: camera.status.get("state") != "lost"
    app.extensions["companion.camera"] = camera
    return camera.stop


class _Beating:
    """A frame source that tells a Heartbeat of every read (the camera loop's round)."""

    def __init__(self, source: Any, beat: Heartbeat) -> None:
        self.source = source
        self.beat = beat
        self.name = getattr(source, "name", "camera")

    def read(self) -> Any:
        self.beat.beat()
        return self.source.read()

    def close(self) -> None:
        self.source.close()


def attach_hardware(app: Any, table: Table, skip: bool, simulated: bool = False
                    ) -> Callable[[], None]:
    """The LED strip (real, or simulated when there is none) follows the table, the
    table page shows its pixels, and the push buttons act on the table. Without
    companion.hardware, or with a bad hardware file, the app runs without them.
    `simulated`: a simulated strip following the table and no buttons, whatever this
    machine has (companion demo). Returns the function that stops them."""
    try:
        from companion import hardware
        from companion.hardware.scene import draw_zone
    except ImportError:
        return lambda: None
    try:
        config = hardware.load_config()
    except hardware.ConfigError as exc:
        print(f"companion serve: LEDs and buttons off: {exc}", file=sys.stderr)
        return lambda: None
    layout = config.layout
    if simulated:
        strip: Any = hardware.SimulatedStrip(config.strip.count, config.strip.output,
                                             reason="the demo")
    elif skip:
        strip = hardware.NullStrip(config.strip.count)
    else:
        strip = hardware.make_strip(config)
    controller = hardware.LedController(strip, layout)

    def pixels() -> list[list[int]]:
        # The zone as it is now (the strip itself may still be mid-animation).
        frame = np.zeros((strip.count, 3), dtype=np.uint8)
        zone = table.zone  # computed once per change by the table
        if zone is not None:
            draw_zone(frame, layout, zone, time.monotonic())
        return frame.tolist()

    app.extensions["companion.leds"] = pixels
    if skip:
        return lambda: None
    unfollow = follow_with_leds(table, controller)
    controller.start()
    panel = None
    if not simulated:
        with warnings.catch_warnings():  # gpiozero warns once per pin library it lacks
            warnings.simplefilter("ignore")
            panel = hardware.open_buttons(config.buttons, button_actions(table))

    def stop() -> None:
        unfollow()
        controller.stop()
        if panel is not None:
            panel.close()
        strip.close()
    return stop
