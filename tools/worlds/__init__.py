"""Test worlds that look like real tables: a POV-Ray scene of the physical game.

world.py (what one world draws: print, pieces, table, light, camera, lens),
truth.py (the observation a perfect camera reports, from the rules engine's state),
layout.py (where each piece lies in board millimetres, placed as people place them),
printart.py (the board's printed landscape, an image), scene.py (the POV-Ray scene),
photo.py (the camera: lens distortion, blur, exposure, noise, JPEG), generate.py
(the committed fixture sets, deterministic by seed). Fixture formats:
tests/fixtures/worlds/README.md.
"""
