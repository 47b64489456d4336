"""`companion leds …` and `companion buttons …`: check the wiring, see what the LEDs
show for a game log, try the buttons."""

from __future__ import annotations

import argparse
import logging
import sys
import time
import warnings
from pathlib import Path

from companion.rules import SLOTS, Game
from companion.rules.danger import DangerZone

from . import colours
from .backends import make_strip
from .config import ConfigError, HardwareConfig, StripConfig, load_config
from .controller import LedController
from .layout import DOCK, FALLS, WEATHER, LedLayout, label
from .strips import SimulatedStrip, Strip, StripError
from .ws281x import Platform, import_driver, preflight

TEST_WHITE = (90, 90, 90)
TEST_FIRST = (0, 200, 0)  # the upstream end of a range
TEST_LAST = (200, 0, 0)  # the downstream end


def register(subparsers: argparse._SubParsersAction) -> None:
    leds = subparsers.add_parser(
        "leds", help="the LED strip: check the wiring, show what a game looks like",
        description="The LED strip beside the river. Settings and the layout come from "
                    "the table's leds.json (~/.config/niagara-companion/, else the packaged "
                    "default; or --config, or $COMPANION_LEDS).")
    sub = leds.add_subparsers(dest="leds_command", metavar="ACTION")
    leds.set_defaults(func=lambda args: (leds.print_help(), 0)[1])

    p = sub.add_parser(
        "test", help="light each range of the layout in turn to check the wiring",
        description="Lights each place of the layout in turn: its first LED (upstream "
                    "end) green, its last LED (downstream end) red, the rest white. If a "
                    "range lights at the wrong place, or red comes before green along the "
                    "flow, fix its numbers in the layout file. On a terminal, Enter goes "
                    "to the next place; otherwise each is shown for --seconds.")
    _common(p, backend="use this strip instead of the file's strip.backend")
    p.add_argument("--place", action="append", metavar="NAME",
                   help="only this place (dock, 1 … 7R, falls-L, falls-R, weather-1 … "
                        "weather+2); may be repeated")
    p.add_argument("--seconds", type=float, default=1.5,
                   help="how long each place stays lit when not asking (default 1.5)")
    p.add_argument("--png", metavar="DIR",
                   help="also write a picture of the strip for each place into DIR")
    p.set_defaults(func=cmd_test)

    p = sub.add_parser(
        "show", help="print (or draw) what the LEDs show at the end of a game log",
        description="Replays a game log (JSON Lines, as `companion referee` reads it) and "
                    "prints, for each place of the layout, its LEDs, their colour and "
                    "why. Illegal lines are skipped, as the referee skips them.")
    p.add_argument("log", metavar="LOG", help="a game log (JSON Lines, first line setup)")
    _common(p, backend="with --light: use this strip instead of the file's strip.backend")
    p.add_argument("--line", type=int, metavar="N",
                   help="stop after line N of the log (default: the whole log)")
    p.add_argument("--png", metavar="FILE", help="write a picture of the strip as PNG")
    p.add_argument("--at", type=float, default=0.0, metavar="SECONDS",
                   help="the moment of the blinking to draw (default 0: blinking marks on)")
    p.add_argument("--light", action="store_true",
                   help="also light the configured strip with this frame")
    p.set_defaults(func=cmd_show)

    p = sub.add_parser(
        "check", help="say whether the real strip can be driven here, and if not why",
        description="Reads the hardware file, looks at this machine (Raspberry Pi model, "
                    "rpi_ws281x, root, /dev/mem, SPI) and says which strip the companion "
                    "will use. Exit status 0: the real strip (or the configured "
                    "simulated/off one); 1: it falls back to the simulated strip.")
    _common(p)
    p.set_defaults(func=cmd_check)

    buttons = subparsers.add_parser(
        "buttons", help="the table's push buttons: try them",
        description="Buttons wired from a GPIO pin to ground; pins come from the "
                    "\"buttons\" entry of the table's leds.json.")
    bsub = buttons.add_subparsers(dest="buttons_command", metavar="ACTION")
    buttons.set_defaults(func=lambda args: (buttons.print_help(), 0)[1])
    p = bsub.add_parser("test", help="print the name of every button pressed (Ctrl-C ends)",
                        description="Prints each button's name when it is pressed, so you "
                                    "can check the pins. Ctrl-C ends.")
    _common(p)
    p.add_argument("--seconds", type=float, default=None,
                   help="stop after this many seconds (default: until Ctrl-C)")
    p.set_defaults(func=cmd_buttons_test)


def _common(p: argparse.ArgumentParser, backend: str | None = None) -> None:
    p.add_argument("--config", metavar="FILE",
                   help="the hardware file (default: $COMPANION_LEDS, else "
                        "~/.config/niagara-companion/leds.json, else the packaged default)")
    if backend:
        p.add_argument("--backend", choices=("auto", "ws281x", "simulated", "off"),
                       help=backend)


def _config(args: argparse.Namespace, prog: str) -> HardwareConfig | None:
    try:
        config = load_config(args.config)
    except ConfigError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return None
    backend = getattr(args, "backend", None)
    if backend:
        strip = config.strip
        config = HardwareConfig(
            StripConfig(backend, strip.count, strip.pin, strip.strip_type, strip.freq_hz,
                        strip.dma, strip.invert, strip.output),
            config.layout, config.buttons, config.source)
    return config


def _open_strip(config: HardwareConfig, prog: str) -> Strip:
    # The fallback reason goes to the user here, once, rather than through the log.
    logger = logging.getLogger("companion.hardware")
    level = logger.level
    logger.setLevel(logging.ERROR)
    try:
        strip = make_strip(config)
    finally:
        logger.setLevel(level)
    if isinstance(strip, SimulatedStrip) and strip.reason:
        print(f"{prog}: {strip.reason}; using the simulated strip", file=sys.stderr)
    return strip


# -- leds test ---------------------------------------------------------------------------

def cmd_test(args: argparse.Namespace) -> int:
    prog = "companion leds test"
    config = _config(args, prog)
    if config is None:
        return 2
    layout = config.layout
    names = list(layout)
    if args.place:
        unknown = [n for n in args.place if n not in layout]
        if unknown:
            print(f"{prog}: {unknown[0]} is not in the layout (places: {', '.join(names)})",
                  file=sys.stderr)
            return 2
        names = [n for n in names if n in args.place]
    png_dir = Path(args.png) if args.png else None
    if png_dir:
        try:
            png_dir.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            print(f"{prog}: cannot write pictures to {png_dir}: {exc.strerror}", file=sys.stderr)
            return 2
    strip = _open_strip(config, prog)
    ask = sys.stdin.isatty() and sys.stdout.isatty()
    print(f"{len(names)} places on a {strip.count}-LED strip ({strip.kind}); "
          + ("Enter: next, q: quit" if ask else f"{args.seconds:g} s each"))
    try:
        for n, name in enumerate(names, 1):
            rng = layout[name]
            light_range(strip, layout, name)
            print(f"{n:2}/{len(names)}  {label(name):22} LEDs {str(rng):9} ({len(rng)} LEDs)",
                  flush=True)
            if png_dir:
                strip.to_png(png_dir / f"{n:02d}-{name}.png", [rng.indices])
            if ask:
                if input().strip().lower() == "q":
                    break
            elif args.seconds > 0:
                time.sleep(args.seconds)
    except (KeyboardInterrupt, EOFError):
        pass
    except StripError as exc:
        print(f"{prog}: {exc}", file=sys.stderr)
        return 1
    finally:
        strip.close()
    return 0


def light_range(strip: Strip, layout: LedLayout, name: str) -> None:
    """Only `name`'s LEDs lit: upstream end green, downstream end red, the rest white."""
    strip.clear()
    indices = layout[name].indices
    for i in indices:
        strip[i] = TEST_WHITE
    strip[indices[0]] = TEST_FIRST
    if len(indices) > 1:
        strip[indices[-1]] = TEST_LAST
    strip.show()


# -- leds show ---------------------------------------------------------------------------

def cmd_show(args: argparse.Namespace) -> int:
    prog = "companion leds show"
    config = _config(args, prog)
    if config is None:
        return 2
    from companion.cli import _reason, game_at_end
    from companion.rules.referee import NoSetup

    try:
        game = game_at_end(args.log, args.line)
    except (OSError, NoSetup) as exc:
        print(f"{prog}: cannot read {args.log}: {_reason(exc)}", file=sys.stderr)
        return 2
    layout = config.layout
    strip: Strip = SimulatedStrip(config.strip.count, config.strip.output)
    if args.light:
        strip = _open_strip(config, prog)
    leds = LedController(strip, layout, clock=lambda: args.at)
    leds.show(game)
    leds.render(args.at)
    zone = leds.zone
    assert zone is not None
    print(headline(game, zone))
    pixels = strip.pixels()
    for name in layout:
        rng = layout[name]
        colour = pixels[rng.indices[0]]
        print(f"  {label(name):22} LEDs {str(rng):9} {colours.hex_colour(colour)}  "
              f"{meaning(name, zone)}")
    if args.png:
        try:
            strip.to_png(args.png, [layout[n].indices for n in layout])
        except OSError as exc:
            print(f"{prog}: cannot write {args.png}: {exc.strerror or exc}", file=sys.stderr)
            return 2
        print(f"wrote {args.png}")
    if args.light and sys.stdin.isatty():
        input("the strip shows this frame; press Enter to turn it off")
    strip.close()
    return 0


def headline(game: Game, zone: DangerZone) -> str:
    if zone.phase == "over":
        return f"game over: {', '.join(zone.winners)} won"
    speeds = sorted(zone.speeds)
    if zone.known:
        what = f"river speed {speeds[0]}"
    elif len(speeds) == 1:
        what = f"river speed will be {speeds[0]}"
    else:
        what = "possible river speeds " + ", ".join(str(s) for s in speeds)
    who = f", {zone.to_move} to move" if zone.to_move else ""
    return f"round {game.round}, phase {game.phase}{who}: {what}"


def meaning(name: str, zone: DangerZone) -> str:
    if zone.phase == "over":
        return "winner's colour"
    if name in SLOTS:
        fallers = [f"{p}'s canoe{' with ' + g if g else ''}" for p, at, g in zone.canoes
                   if at == name]
        if name in zone.certain:
            text = "falls this round" if zone.known else "falls for every possible speed"
        elif name in zone.possible:
            text = "falls for some possible speed"
        elif name in zone.last:
            text = "ends on the last slot before the falls"
        else:
            text = "calm"
        if fallers:
            verb = "falls" if len(fallers) == 1 else "fall"
            text += f" - {' and '.join(fallers)} {verb} (blinking)"
        return text
    if name in FALLS.values():
        side = name[-1]
        if side in zone.edges:
            return "discs go over this edge"
        return "discs may go over this edge" if side in zone.maybe_edges else "calm"
    if name == DOCK:
        return f"{zone.to_move} to move" if zone.to_move else "-"
    for value, weather_name in WEATHER.items():
        if name == weather_name:
            return "the cloud is here" if value == zone.weather else "-"
    return "-"


# -- leds check ---------------------------------------------------------------------------

def cmd_check(args: argparse.Namespace) -> int:
    prog = "companion leds check"
    config = _config(args, prog)
    if config is None:
        return 2
    s = config.strip
    out = s.output
    budget = f"{out.budget_ma:g} mA budget" if out.budget_ma else "no power budget"
    print(f"hardware file: {config.source}")
    print(f"strip: {s.count} LEDs, {s.strip_type}, data on GPIO{s.pin} ({s.mode}), "
          f"brightness {out.brightness}/255, gamma {out.gamma:g}, {budget}; "
          f"backend {s.backend}")
    print(f"layout: {len(config.layout.ranges)} places; buttons: "
          + ", ".join(f"{n} GPIO{p}" for n, p in config.buttons.pins.items()))
    if s.backend in ("simulated", "off"):
        print(f"uses: the {s.backend} strip (as configured)")
        return 0
    platform = Platform.detect()
    driver = import_driver() if platform.is_pi else None
    print(f"machine: {platform.model or 'not a Raspberry Pi'}, "
          f"{'root' if platform.euid == 0 else 'not root'}, rpi_ws281x "
          f"{'installed' if driver is not None else 'not installed'}")
    reason = preflight(s, platform, driver)
    if reason:
        print(f"uses: the simulated strip, because {reason}")
        return 1
    print(f"uses: the real strip ({s.mode} on GPIO{s.pin}); `companion leds test` lights "
          "each place in turn")
    return 0


# -- buttons test ---------------------------------------------------------------------------

def cmd_buttons_test(args: argparse.Namespace) -> int:
    prog = "companion buttons test"
    config = _config(args, prog)
    if config is None:
        return 2
    from .buttons import ButtonPanel

    def pressed(name: str) -> None:
        print(f"{time.strftime('%H:%M:%S')}  {name} (GPIO{config.buttons.pins[name]})",
              flush=True)

    from gpiozero.exc import BadPinFactory, PinFactoryFallback

    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", PinFactoryFallback)  # one clear line instead
            panel = ButtonPanel.from_config(config.buttons, when_pressed=pressed)
    except BadPinFactory:
        print(f"{prog}: no GPIO pins on this machine (gpiozero found no pin library): "
              "run this on the Raspberry Pi, with python3-lgpio installed", file=sys.stderr)
        return 2
    except Exception as exc:  # GPIOPinInUse, PermissionError, …
        print(f"{prog}: cannot open the buttons: {type(exc).__name__}: {exc} (is another "
              "companion running? is the user in the gpio group?)", file=sys.stderr)
        return 2
    print("press the buttons: " + ", ".join(f"{n} on GPIO{p}" for n, p in
                                            config.buttons.pins.items())
          + "; Ctrl-C ends", flush=True)
    try:
        deadline = None if args.seconds is None else time.monotonic() + args.seconds
        while deadline is None or time.monotonic() < deadline:
            time.sleep(0.1)
    except KeyboardInterrupt:
        pass
    finally:
        panel.close()
    return 0
