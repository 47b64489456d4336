"""The POV-Ray scene of one frame: table, board with its print, paper markers, acrylic
discs, canoes, gems, the cloud token, lamps, window light and a reaching hand.

`scene_sdl` writes the scene description; `render` runs POV-Ray 3.7 on it (niced) and
returns the raw image, which photo.py then turns into a camera's JPEG.
"""

from __future__ import annotations

import math
import random
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from companion.vision.board import Board

from .camera import SIZE, Pose, pov
from .layout import Piece
from .world import World, kelvin_rgb

BOARD_THICK = 2.0     # mm of cardboard
CANOE = (45.0, 16.0, 11.0)   # length, width, height (mm)
GEM_MM = 9.0
DISC_THICK = 3.0
MARKER_MARGIN = 0.25   # white paper around a marker, share of its side


@dataclass(frozen=True)
class HandPose:
    """A forearm reaching from outside the board (`from_mm`) to `reach_mm`, the hand
    `lift_mm` above the board, optionally holding a canoe (player colour)."""

    from_mm: tuple[float, float]
    reach_mm: tuple[float, float]
    lift_mm: float
    holding: str | None = None
    gem: str | None = None


def _v(p: np.ndarray | tuple[float, float, float]) -> str:
    return f"<{p[0]:.3f},{p[1]:.3f},{p[2]:.3f}>"


def _rgb(c: tuple[int, int, int] | tuple[float, float, float], scale: float = 255.0) -> str:
    # sRGB -> linear: the scene renders with assumed_gamma 1.0
    lin = [(v / scale) ** 2.2 for v in c]
    return f"rgb <{lin[0]:.4f},{lin[1]:.4f},{lin[2]:.4f}>"


def _image_map_xy_to_board(path: Path, x0: float, y0: float, w: float, h: float,
                           z: float) -> str:
    """A texture mapping `path` onto the board rectangle (x0, y0, w, h) at height z."""
    # image_map lies on the unit square of the x-y plane, its top at y = 1; the matrix
    # sends u to board x, v to board -y (image top = board y0) and the projection axis up.
    return (f'pigment {{ image_map {{ png "{path}" interpolate 2 }} '
            f"matrix <{w:.3f},0,0, 0,0,{h:.3f}, 0,1,0, {x0:.3f},{z:.3f},{-(y0 + h):.3f}> }}")


def scene_sdl(world: World, board: Board, pose: Pose, pieces: list[Piece],
              print_png: Path, marker_pngs: dict[int, Path], hand: HandPose | None = None,
              rnd: random.Random | None = None) -> str:
    rnd = rnd or random.Random(0)
    w, h = board.size_mm
    out: list[str] = []
    add = out.append
    add("#version 3.7;")
    add(f"global_settings {{ assumed_gamma 1.0 max_trace_level 6 "
        f"ambient_light rgb {world.ambient:.3f} }}")
    f, r, u = pose.axes()
    add(f"camera {{ perspective location {_v(pose.location)} look_at {_v(pose.look_at)} "
        f"sky {_v(pose.sky)} right x*{SIZE[0] / SIZE[1]:.5f} angle {pose.fov_deg:.3f} }}")
    # Lamps: point lights (hard shadows) or area lights (soft), coloured by temperature.
    for lamp in world.lamps:
        col = kelvin_rgb(lamp.kelvin)
        p = pov(lamp.position_mm[0], lamp.position_mm[1], lamp.position_mm[2])
        power = lamp.power * 1.1
        area = ""
        if lamp.soft_mm > 0:
            s = lamp.soft_mm
            area = (f"area_light <{s:.1f},0,0>, <0,0,{s:.1f}>, 3, 3 adaptive 1 jitter "
                    "circular orient")
        add(f"light_source {{ {_v(p)} color rgb <{col[0] * power:.3f},{col[1] * power:.3f},"
            f"{col[2] * power:.3f}> {area} fade_distance {lamp.position_mm[2]:.0f} "
            "fade_power 1 }")
    if world.window:
        win = world.window
        col = kelvin_rgb(win["kelvin"])
        el = math.radians(win["elevation_deg"])
        dx, dy = win["direction"]
        far = 3000.0
        p = pov(w / 2 + dx * far * math.cos(el), h / 2 + dy * far * math.cos(el),
                far * math.sin(el))
        pw = win["power"]
        add(f"light_source {{ {_v(p)} color rgb <{col[0] * pw:.3f},{col[1] * pw:.3f},"
            f"{col[2] * pw:.3f}> area_light <500,0,0>, <0,500,0>, 3, 3 adaptive 1 jitter "
            f"parallel point_at {_v(pov(w / 2, h / 2))} }}")
    # A dim fill from the room so shadows are never black.
    add(f"light_source {{ {_v(pov(w / 2, h / 2, 2500))} color rgb 0.12 shadowless }}")
    # The table.
    tc = world.table_rgb
    if world.table in ("oak", "walnut", "pine"):
        dark = tuple(int(c * 0.7) for c in tc)
        pig = (f"pigment {{ wood turbulence 0.08 color_map {{ [0 {_rgb(tc)}] [0.5 {_rgb(dark)}] "
               f"[1 {_rgb(tc)}] }} scale 14 rotate y*{rnd.uniform(0, 180):.0f} rotate x*90 }}")
        fin = "finish { specular 0.25 roughness 0.03 reflection 0.03 }"
    elif world.table == "tablecloth":
        dark = tuple(int(c * 0.85) for c in tc)
        pig = (f"pigment {{ gradient x color_map {{ [0 {_rgb(tc)}] [0.5 {_rgb(dark)}] "
               f"[1 {_rgb(tc)}] }} scale 2.5 }} normal {{ bumps 0.2 scale 1.5 }}")
        fin = "finish { specular 0.02 }"
    else:
        pig = (f"pigment {{ granite color_map {{ [0 {_rgb(tc)}] [1 "
               f"{_rgb(tuple(int(c * 0.92) for c in tc))}] }} scale 30 }}")
        fin = "finish { specular 0.4 roughness 0.02 reflection 0.05 }"
    add(f"plane {{ y, {-BOARD_THICK:.2f} texture {{ {pig} {fin} }} }}")
    # The board: cardboard with the print on top, slightly glossy.
    gloss = world.print_style["gloss"]
    add(f"box {{ <0,{-BOARD_THICK:.2f},0>, <{w:.2f},0,{-h:.2f}> texture {{ "
        f"{_image_map_xy_to_board(print_png, 0, 0, w, h, 0)} "
        f"finish {{ diffuse 0.85 specular {gloss:.2f} roughness 0.006 }} }} }}")
    # Markers on paper, stuck where the board file says.
    ms = board.markers.size_mm
    side = ms * (1 + 2 * MARKER_MARGIN)
    for mid, (cx, cy) in board.markers.centres_mm.items():
        paper = _image_map_xy_to_board(marker_pngs[mid], cx - side / 2, cy - side / 2,
                                       side, side, 0)
        add(f"box {{ <{cx - side / 2:.2f},0,{-(cy - side / 2):.2f}>, "
            f"<{cx + side / 2:.2f},0.12,{-(cy + side / 2):.2f}> texture {{ "
            f"{paper}"
            " finish { diffuse 0.9 specular 0.02 } } }")
    add(_DECLARES.format(**_materials(world)))
    for piece in pieces:
        add(_piece(piece, board))
    if hand is not None:
        add(_hand(world, hand))
    return "\n".join(out)


def _materials(world: World) -> dict[str, str]:
    fin = world.canoe_finish
    return {"spec": f"{fin['specular']:.3f}", "rough": f"{fin['roughness']:.4f}"}


_DECLARES = """
#declare CanoeFinish = finish {{ diffuse 0.75 specular {spec} roughness {rough} }}
#declare Hull = difference {{
  intersection {{ sphere {{ 0, 1 scale <22.5, 11, 8> }} plane {{ y, 0 }} translate y*11 }}
  intersection {{ sphere {{ 0, 1 scale <19.5, 8.5, 6.3> }} plane {{ y, 0.5 }} translate y*11.01 }}
  box {{ <-30, 10.2, -10>, <30, 12, 10> }}
}}
#declare Seat = box {{ <-4, 2.2, -6>, <4, 3.6, 6> }}
#declare Gem = intersection {{
  plane {{ <1, 1.1, 1>, 1 }} plane {{ <-1, 1.1, 1>, 1 }} plane {{ <1, 1.1, -1>, 1 }}
  plane {{ <-1, 1.1, -1>, 1 }} plane {{ <1, -1.3, 1>, 1 }} plane {{ <-1, -1.3, 1>, 1 }}
  plane {{ <1, -1.3, -1>, 1 }} plane {{ <-1, -1.3, -1>, 1 }} plane {{ y, 0.55 }}
  plane {{ <1.4, 0.2, 0>, 1 }} plane {{ <-1.4, 0.2, 0>, 1 }} plane {{ <0, 0.2, 1.4>, 1 }}
  plane {{ <0, 0.2, -1.4>, 1 }}
  bounded_by {{ sphere {{ 0, 1.8 }} }}
  scale 3.4 translate y*2.6
}}
#declare Disc = cylinder {{ <0, 0, 0>, <0, {thick}, 0>, 1 }}
#declare Cloud = blob {{ threshold 0.6
  sphere {{ <0, 3, 0>, 7, 1 }} sphere {{ <6, 3, 2>, 6, 1 }} sphere {{ <-6, 3, 1>, 6, 1 }}
  sphere {{ <2, 3, -5>, 5.5, 1 }} sphere {{ <-3, 4, 4>, 5, 1 }}
  scale <1, 0.8, 1> }}
""".replace("{thick}", f"{DISC_THICK}")


def _piece(piece: Piece, board: Board) -> str:
    p = pov(piece.x, piece.y)
    if piece.kind == "disc":
        r = board.disc_radius_mm
        return (f"object {{ Disc scale <{r:.2f},1,{r:.2f}> translate {_v(p + [0, 0.05, 0])} "
                "pigment { rgbf <0.97, 0.99, 1.0, 0.93> } "
                "finish { ambient 0 diffuse 0.05 specular 0.9 roughness 0.002 "
                "reflection { 0.03, 0.5 fresnel } conserve_energy } "
                "interior { ior 1.49 } }")
    if piece.kind == "cloud":
        return (f"object {{ Cloud rotate y*{piece.angle:.1f} translate {_v(p)} "
                "pigment { rgb 0.88 } finish { diffuse 0.8 specular 0.3 roughness 0.02 } }")
    if piece.kind == "gem":
        return _gem(piece.colour, f"rotate y*{piece.angle:.1f} translate {_v(p + [0, -1.4, 0])}")
    # A canoe on its disc (a disc is DISC_THICK high), on the dock or at the falls (board).
    on_disc = board.place_at((piece.x, piece.y)) in board.slots
    lift = DISC_THICK if on_disc else 0.0
    where = f"rotate y*{-piece.angle:.1f} translate {_v(p + [0, lift, 0])}"
    s = [f"union {{ object {{ Hull }} object {{ Seat }} texture {{ pigment {{ "
         f"{_rgb(_canoe_rgb[piece.colour])} }} finish {{ CanoeFinish }} }} {where} }}"]
    if piece.gem:
        turn = int(piece.x * 13 + piece.y * 7) % 90
        s.append(_gem(piece.gem, f"rotate y*{turn:d} translate y*1.2 {where}"))
    return "\n".join(s)


_canoe_rgb: dict[str, tuple[int, int, int]] = {}
_gem_rgb: dict[str, tuple[int, int, int]] = {}


def _gem(colour: str, where: str) -> str:
    c = _gem_rgb[colour]
    lin = [(v / 255) ** 2.2 for v in c]
    filt = 0.55 if colour != "clear" else 0.85
    return (f"object {{ Gem {where} pigment {{ rgbf <{lin[0]:.3f},{lin[1]:.3f},{lin[2]:.3f},"
            f"{filt}> }} finish {{ ambient 0.05 diffuse 0.5 specular 1.0 roughness 0.001 "
            "reflection 0.08 } interior { ior 1.55 } }")


def _hand(world: World, hand: HandPose) -> str:
    """A forearm in a sleeve and a hand with fingers, as a blob, casting a shadow."""
    fx, fy = hand.from_mm
    rx, ry = hand.reach_mm
    ang = math.atan2(ry - fy, rx - fx)
    ux, uy = math.cos(ang), math.sin(ang)
    wrist = (rx - ux * 70, ry - uy * 70)
    elbow_h = 160.0
    wrist_h = hand.lift_mm + 28
    palm = (rx - ux * 35, ry - uy * 35)
    skin = _rgb(world.hand_skin)
    sleeve = _rgb(world.sleeve_rgb)
    px, py = -uy, ux   # across the hand
    fingers = []
    for k, off in enumerate((-11, -4, 3, 10)):
        base = (palm[0] + ux * 22 + px * off, palm[1] + uy * 22 + py * off)
        tip = (base[0] + ux * (18 + 3 * (k in (1, 2))), base[1] + uy * (18 + 3 * (k in (1, 2))))
        fingers.append(f"cylinder {{ {_v(pov(*base, hand.lift_mm + 18))}, "
                       f"{_v(pov(*tip, hand.lift_mm + 6))}, 5.5, 1 }}")
    thumb_base = (palm[0] + px * -16, palm[1] + py * -16)
    thumb_tip = (thumb_base[0] + ux * 24 - px * 4, thumb_base[1] + uy * 24 - py * 4)
    fingers.append(f"cylinder {{ {_v(pov(*thumb_base, hand.lift_mm + 18))}, "
                   f"{_v(pov(*thumb_tip, hand.lift_mm + 8))}, 6.5, 1 }}")
    arm = (f"cylinder {{ {_v(pov(fx, fy, elbow_h))}, {_v(pov(*wrist, wrist_h))}, 24, 1 }}")
    palm_s = f"sphere {{ {_v(pov(*palm, hand.lift_mm + 24))}, 30, 1 }}"
    parts = [f"blob {{ threshold 0.5 {arm} {palm_s} {' '.join(fingers)} "
             f"texture {{ pigment {{ {skin} }} "
             "finish { diffuse 0.8 specular 0.15 roughness 0.05 } } }"]
    cuff = (wrist[0] - ux * 40, wrist[1] - uy * 40)
    parts.append(f"cylinder {{ {_v(pov(fx - ux * 200, fy - uy * 200, elbow_h + 40))}, "
                 f"{_v(pov(*cuff, wrist_h + 12))}, 31 texture {{ pigment {{ {sleeve} }} "
                 "finish { diffuse 0.9 } normal { bumps 0.3 scale 3 } } }")
    if hand.holding:
        held = Piece("canoe", rx - ux * 5, ry - uy * 5, math.degrees(ang) + 90, hand.holding,
                     hand.gem)
        where = f"rotate y*{-held.angle:.1f} translate {_v(pov(held.x, held.y, hand.lift_mm))}"
        parts.append(f"union {{ object {{ Hull }} object {{ Seat }} texture {{ pigment {{ "
                     f"{_rgb(_canoe_rgb[held.colour])} }} finish {{ CanoeFinish }} }} {where} }}")
    return "\n".join(parts)


def set_colours(world: World) -> None:
    """The world's exact hues for the pieces written after it."""
    _canoe_rgb.clear()
    _canoe_rgb.update(world.canoe_rgb)
    _gem_rgb.clear()
    _gem_rgb.update(world.gem_rgb)


def render(sdl: str, workdir: Path, antialias: float = 0.3, quality: int = 9,
           threads: int = 2) -> np.ndarray:
    """Run POV-Ray (niced) on a scene; the rendered frame as BGR uint8."""
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        pov_file = Path(tmp) / "scene.pov"
        pov_file.write_text(sdl)
        png = Path(tmp) / "frame.png"
        cmd = ["nice", "-n", "10", "povray", f"+I{pov_file}", f"+O{png}", f"+W{SIZE[0]}",
               f"+H{SIZE[1]}", f"+Q{quality}", f"+WT{threads}", "-D", "-V", "-GA", "+FN",
               f"+L{workdir}"]
        if antialias:
            cmd += ["+A" + f"{antialias}", "+AM2", "+R2"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0 or not png.exists():
            raise RuntimeError(f"povray failed: {run.stderr.strip().splitlines()[-3:]}")
        return cv2.imread(str(png), cv2.IMREAD_COLOR)
