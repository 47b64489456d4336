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
            "fade_power 2 }")
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
        # Grain along the planks (the wood pattern's axis lies in the table), rings
        # stretched by turbulence, fine pores, and the planks' joints.
        light = tuple(min(255, int(c * 1.12)) for c in tc)
        # The grain is the table's, not the frame's: drawn from the world's seed (from
        # the frame's it turned between two pictures of a still table).
        grain = random.Random(f"{world.seed}:table").uniform(0, 180)
        pig = (f"pigment {{ wood turbulence <0.06, 0.06, 0.6> octaves 5 color_map {{ "
               f"[0 {_rgb(tc)}] [0.35 {_rgb(light)}] [0.6 {_rgb(dark)}] [1 {_rgb(tc)}] }} "
               f"scale <3, 3, 400> rotate y*{grain:.0f} }}")
        fin = ("finish { specular 0.25 roughness 0.03 reflection 0.03 } "
               "normal { average normal_map { [1 bumps 0.12 scale <0.3, 0.3, 6>] "
               "[0.5 gradient x 0.3 slope_map { [0 <0,1>] [0.02 <1,0>] [0.98 <1,0>] [1 <0,-1>] } "
               "scale 120] } }")
    elif world.table == "tablecloth":
        dark = tuple(int(c * 0.85) for c in tc)
        # A woven cloth: warp and weft threads (~1 mm) and a few soft creases.
        pig = (f"pigment {{ gradient x color_map {{ [0 {_rgb(tc)}] [0.5 {_rgb(dark)}] "
               f"[1 {_rgb(tc)}] }} scale 1.1 turbulence 0.02 }} "
               "normal { average normal_map { [1 gradient x 0.6 scale 1.1] "
               "[1 gradient z 0.6 scale 1.1] [1 wrinkles 0.5 scale 40] } }")
        fin = "finish { specular 0.02 }"
    else:
        pig = (f"pigment {{ granite color_map {{ [0 {_rgb(tc)}] [1 "
               f"{_rgb(tuple(int(c * 0.92) for c in tc))}] }} scale 30 }} "
               "normal { granite 0.05 scale 1.5 }")
        fin = "finish { specular 0.4 roughness 0.02 reflection 0.05 }"
    add(f"plane {{ y, {-BOARD_THICK:.2f} texture {{ {pig} {fin} }} }}")
    # The board: cardboard with the print on top, slightly glossy.
    gloss = world.print_style["gloss"]
    # The cardboard core shows on the 2 mm edge (grey-brown, fibrous) under the print.
    add(f"box {{ <0,{-BOARD_THICK:.2f},0>, <{w:.2f},{-0.05:.2f},{-h:.2f}> texture {{ pigment {{ "
        "granite color_map { [0 rgb <0.32,0.28,0.22>] [1 rgb <0.22,0.19,0.15>] } scale 0.8 } "
        "finish { diffuse 0.8 } } }")
    add(f"box {{ <0,-0.05,0>, <{w:.2f},0,{-h:.2f}> texture {{ "
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
    # POV-Ray turns +x towards -z (its left-hand rule) and board y is POV -z, so the
    # board angle turns the hull as it is: negated, a canoe lay mirrored about the board's
    # x axis (across the flow, heaped on its neighbours, wherever the river runs aslant).
    where = f"rotate y*{piece.angle:.1f} translate {_v(p + [0, lift, 0])}"
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


# The hand in its own frame, mm: x forward along the forearm, y up, z across (thumb at
# -z for a right hand), the origin where a held canoe sits (its bottom, at the hand's
# lift). A pinch from above: the palm over the canoe, thumb on its near side, index and
# middle finger on its far side, ring and little finger curled under. Joints are
# (x, y, z, radius) from knuckle to tip; adult sizes (palm ~85 mm wide).
_FINGERS = {
    "thumb": [(-62, 38, -30, 11.5), (-40, 26, -30, 10.0), (-22, 15, -18, 9.0),
              (-11, 8, -6, 8.0)],
    "index": [(-22, 50, -24, 9.5), (4, 44, -20, 8.8), (18, 29, -13, 8.2), (12, 10, -6, 7.5)],
    "middle": [(-20, 52, -4, 9.8), (9, 46, -2, 9.0), (24, 28, 2, 8.4), (17, 9, 6, 7.6)],
    "ring": [(-24, 50, 15, 9.2), (1, 42, 17, 8.5), (14, 27, 19, 8.0), (6, 15, 19, 7.2)],
    "little": [(-30, 46, 32, 8.2), (-11, 37, 34, 7.5), (-1, 26, 34, 7.0), (-7, 18, 32, 6.4)],
}
_WRIST = (-100, 66, 4)
_ELBOW = (-360, 170, 14)


def hand_axis_mm(hand: HandPose) -> list[tuple[float, float, float]]:
    """Board points (x, y, height mm) along the hand and forearm out to where the sleeve
    leaves the picture: what a marker can be hidden behind."""
    fx, fy = hand.from_mm
    rx, ry = hand.reach_mm
    ang = math.atan2(ry - fy, rx - fx)
    ux, uy = math.cos(ang), math.sin(ang)
    out = []
    for x, y, _ in ((0, 30, 0), (-50, 55, 0), _WRIST, _ELBOW, (-700, 330, 0)):
        out.append((rx + ux * x, ry + uy * x, hand.lift_mm + y))
    return out


def _hand(world: World, hand: HandPose) -> str:
    """A forearm in a sleeve and a hand (palm, jointed fingers and thumb as sphere
    sweeps) pinching a canoe from above, in skin of the world's tone with a mottle;
    the lamps give it its shadow."""
    fx, fy = hand.from_mm
    rx, ry = hand.reach_mm
    ang = math.degrees(math.atan2(ry - fy, rx - fx))
    rnd = random.Random(f"hand:{rx:.1f}:{ry:.1f}:{fx:.1f}")
    mirror = -1.0 if rnd.random() < 0.15 else 1.0          # a few left hands
    spread = rnd.uniform(-4, 4)
    skin = world.hand_skin
    flush = tuple(min(255, int(c * f)) for c, f in zip(skin, (1.02, 0.9, 0.88), strict=True))
    shade = tuple(int(c * 0.86) for c in skin)

    def p(x: float, y: float, z: float) -> str:
        return f"<{x:.2f},{y:.2f},{z:.2f}>"

    parts = []
    for k, (name, joints) in enumerate(_FINGERS.items()):
        pts = [(x, y, z + spread * (k - 2) * 0.5, r) for x, y, z, r in joints]
        sweep = ", ".join(f"{p(x, y, z)}, {r:.2f}" for x, y, z, r in pts)
        parts.append(f"sphere_sweep {{ linear_spline {len(pts)}, {sweep} }}")
        # Knuckle pads and a nail on the tip's back.
        x, y, z, r = pts[-1]
        bx, by, bz, _ = pts[-2]
        d = np.array([x - bx, y - by, z - bz])
        d /= np.linalg.norm(d)
        nail = np.array([x, y, z]) - d * r * 0.35 + np.array([0, r * 0.55, 0]) * (name != "thumb")
        parts.append(f"sphere {{ {p(*nail)}, {r * 0.62:.2f} scale <1,1,1> "
                     f"texture {{ pigment {{ {_rgb(flush)} }} finish {{ specular 0.5 "
                     "roughness 0.01 diffuse 0.7 } } }")
    # Palm and back of the hand: a blob over the knuckles and the wrist, thenar pad.
    knuckles = [j[0] for j in _FINGERS.values()][1:]
    blob = [f"cylinder {{ {p(*_WRIST)}, {p(x, y, z)}, 19, 1 }}" for x, y, z, _ in knuckles]
    blob.append(f"sphere {{ {p(-55, 52, 4)}, 34, 0.9 }}")
    blob.append(f"sphere {{ {p(-66, 36, -22)}, 22, 0.8 }}")       # ball of the thumb
    blob.append(f"cylinder {{ {p(*_WRIST)}, {p(*_ELBOW)}, 33, 1 }}")   # forearm
    blob.append(f"sphere {{ {p(-250, 128, 10)}, 40, 0.7 }}")          # forearm muscle
    parts.append(f"blob {{ threshold 0.45 {' '.join(blob)} }}")
    skin_tex = (f"texture {{ pigment {{ bozo turbulence 0.4 color_map {{ [0 {_rgb(skin)}] "
                f"[0.6 {_rgb(skin)}] [0.85 {_rgb(flush)}] [1 {_rgb(shade)}] }} scale 9 }} "
                "normal { granite 0.06 scale 2 } "
                "finish { diffuse 0.78 specular 0.12 roughness 0.035 } }")
    body = f"union {{ {' '.join(parts)} {skin_tex} }}"
    # The sleeve: a loose cone from past the wrist out of the picture, with folds (a
    # few lumpy rings and wrinkles) and a cuff.
    sleeve = world.sleeve_rgb
    folds = []
    for t in np.linspace(0.0, 1.0, 14):
        x = -170 + t * (-650 + 170)
        y = 112 + t * (330 - 112)
        folds.append(f"sphere {{ {p(x, y, 6 + rnd.uniform(-4, 4))}, "
                     f"{50 + 10 * t + rnd.uniform(-4, 4):.1f}, 0.35 }}")
    folds.append(f"cylinder {{ {p(-160, 108, 6)}, {p(-720, 345, 6)}, 46, 1.2 }}")
    cloth = (f"texture {{ pigment {{ {_rgb(sleeve)} }} "
             "normal { average normal_map { [1 wrinkles 0.6 scale <30, 8, 8>] "
             "[1 bumps 0.15 scale 0.7] } } finish { diffuse 0.85 specular 0.03 } }")
    sleeve_sdl = f"blob {{ threshold 0.5 {' '.join(folds)} {cloth} }}"
    where = (f"scale <1,1,{mirror:.0f}> rotate z*{rnd.uniform(-8, 8):.1f} "
             f"rotate y*{ang:.2f} translate {_v(pov(rx, ry, hand.lift_mm))}")
    out = [f"union {{ {body} {sleeve_sdl} {where} }}"]
    if hand.holding:
        out.append(f"union {{ object {{ Hull }} object {{ Seat }} texture {{ pigment {{ "
                   f"{_rgb(_canoe_rgb[hand.holding])} }} finish {{ CanoeFinish }} }} "
                   f"translate y*-0.5 rotate y*64 translate <15,2,-3> {where} }}")
        if hand.gem:
            out.append(_gem(hand.gem, f"translate y*0.7 rotate y*64 translate <15,2,-3> {where}"))
    return "\n".join(out)


def set_colours(world: World) -> None:
    """The world's exact hues for the pieces written after it."""
    _canoe_rgb.clear()
    _canoe_rgb.update(world.canoe_rgb)
    _gem_rgb.clear()
    _gem_rgb.update(world.gem_rgb)


def render(sdl: str, workdir: Path, antialias: float = 0.3, quality: int = 9,
           threads: int = 1, size: tuple[int, int] = SIZE) -> np.ndarray:
    """Run POV-Ray (niced) on a scene; the rendered frame as BGR uint8. A smaller `size`
    of the same shape shows the same picture, scaled (the smoke test renders 640x360).
    One thread by default: the area lights' jitter is then the same in every render (with
    two, 0.3% of the pixels differed between two renders of one scene), and two threads
    were barely faster than one; the generator's shards use the cores instead."""
    with tempfile.TemporaryDirectory(dir=workdir) as tmp:
        pov_file = Path(tmp) / "scene.pov"
        pov_file.write_text(sdl)
        png = Path(tmp) / "frame.png"
        cmd = ["nice", "-n", "10", "povray", f"+I{pov_file}", f"+O{png}", f"+W{size[0]}",
               f"+H{size[1]}", f"+Q{quality}", f"+WT{threads}", "-D", "-V", "-GA", "+FN",
               f"+L{workdir}"]
        if antialias:
            cmd += ["+A" + f"{antialias}", "+AM2", "+R2"]
        run = subprocess.run(cmd, capture_output=True, text=True)
        if run.returncode != 0 or not png.exists():
            raise RuntimeError(f"povray failed: {run.stderr.strip().splitlines()[-3:]}")
        return cv2.imread(str(png), cv2.IMREAD_COLOR)
