"""`companion calibrate board PHOTO`: fit the board file to a real board on a web page.

The photo is straightened with the four markers (their place is the one thing the
board file must already know: print the sheet, stick them where it says), so the page
shows the board in millimetres. Drag the slot centres, the corners of the dock, falls
and deposits, and the weather positions onto the printed board, then press Save: the
board file is checked and written. Runs on 127.0.0.1 with the standard library only.
"""

from __future__ import annotations

import json
import threading
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from pathlib import Path
from typing import Any

import cv2
import numpy as np

from .board import Board, BoardError, parse_board
from .locate import BoardLocator

PX_PER_MM = 2.0

PAGE = """<!doctype html><html><head><meta charset="utf-8">
<title>Niagara Companion - board calibration</title>
<style>body{font-family:sans-serif;margin:1em}svg{border:1px solid #888;max-width:96vw;
height:auto;touch-action:none}circle.h{fill:#ff0;stroke:#000;cursor:move}
text{font-size:12px;fill:#fff;stroke:#000;stroke-width:.4;pointer-events:none}
polygon{fill:rgba(255,255,0,.15);stroke:#ff0}#msg{font-weight:bold}</style></head><body>
<h1>Board calibration</h1><p>Drag each yellow handle onto the board: slot centres (the
middle of a disc at rest), the corners of the dock, the falls and each deposit, and the
weather positions. Then <button id="save">Save</button> <span id="msg"></span></p>
<svg id="s" viewBox="0 0 W H" width="W" height="H"><image href="/photo.png" width="W"
height="H"/><g id="g"></g></svg>
<script>
const K = SCALE; let board = BOARD;
const svg = document.getElementById('s'), g = document.getElementById('g');
function handles() {
  const out = [];
  for (const [k, p] of Object.entries(board.slots)) out.push([k, p, 'slot ' + k]);
  for (const [k, p] of Object.entries(board.weather_mm)) out.push([k, p, 'weather ' + k]);
  for (const key of ['dock', 'falls']) board[key].forEach((p, i) => out.push([i, p, key]));
  for (const [k, poly] of Object.entries(board.deposits))
    poly.forEach((p, i) => out.push([i, p, k]));
  return out;
}
function draw() {
  g.innerHTML = '';
  const polys = [board.dock, board.falls, ...Object.values(board.deposits)];
  for (const poly of polys) {
    const e = document.createElementNS('http://www.w3.org/2000/svg', 'polygon');
    e.setAttribute('points', poly.map(p => p[0] * K + ',' + p[1] * K).join(' '));
    g.appendChild(e);
  }
  for (const [, p, label] of handles()) {
    const c = document.createElementNS('http://www.w3.org/2000/svg', 'circle');
    c.setAttribute('cx', p[0] * K); c.setAttribute('cy', p[1] * K); c.setAttribute('r', 6);
    c.setAttribute('class', 'h'); c.point = p; g.appendChild(c);
    const t = document.createElementNS('http://www.w3.org/2000/svg', 'text');
    t.setAttribute('x', p[0] * K + 8); t.setAttribute('y', p[1] * K - 8);
    t.textContent = label; g.appendChild(t);
  }
}
let drag = null;
svg.addEventListener('pointerdown', e => { if (e.target.point) drag = e.target.point; });
svg.addEventListener('pointermove', e => {
  if (!drag) return;
  const pt = svg.createSVGPoint(); pt.x = e.clientX; pt.y = e.clientY;
  const q = pt.matrixTransform(svg.getScreenCTM().inverse());
  drag[0] = Math.round(q.x / K * 2) / 2; drag[1] = Math.round(q.y / K * 2) / 2; draw();
});
addEventListener('pointerup', () => { drag = null; });
document.getElementById('save').onclick = async () => {
  const r = await fetch('/save', {method: 'POST', body: JSON.stringify(board)});
  document.getElementById('msg').textContent = await r.text();
};
draw();
</script></body></html>"""


def straightened(board: Board, image: np.ndarray) -> np.ndarray:
    """The photo warped into board millimetres (PX_PER_MM); BoardError if the four
    markers are not all found."""
    where = BoardLocator(board).locate(image)
    if where is None or where.markers < 4:
        raise BoardError("the four markers are not all visible in the photo")
    w = int(round(board.size_mm[0] * PX_PER_MM))
    h = int(round(board.size_mm[1] * PX_PER_MM))
    to_px = np.diag([PX_PER_MM, PX_PER_MM, 1.0]) @ where.homography
    return cv2.warpPerspective(image, to_px, (w, h), flags=cv2.INTER_LINEAR)


def make_server(board: Board, image: np.ndarray, out: Path,
                port: int = 0) -> ThreadingHTTPServer:
    """The calibration page's server on 127.0.0.1 (port 0: any free port)."""
    photo = cv2.imencode(".png", straightened(board, image))[1].tobytes()
    w, h = board.size_mm[0] * PX_PER_MM, board.size_mm[1] * PX_PER_MM
    page = (PAGE.replace("SCALE", repr(PX_PER_MM)).replace("BOARD", json.dumps(board.to_json()))
            .replace('"0 0 W H"', f'"0 0 {w:g} {h:g}"').replace('width="W"', f'width="{w:g}"')
            .replace('height="H"', f'height="{h:g}"')).encode()

    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *args: Any) -> None:
            pass

        def _send(self, code: int, body: bytes, kind: str) -> None:
            self.send_response(code)
            self.send_header("Content-Type", kind)
            self.send_header("Content-Length", str(len(body)))
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self) -> None:  # noqa: N802 (the http.server API)
            if self.path == "/":
                self._send(200, page, "text/html; charset=utf-8")
            elif self.path == "/photo.png":
                self._send(200, photo, "image/png")
            elif self.path == "/board.json":
                self._send(200, json.dumps(board.to_json()).encode(), "application/json")
            else:
                self._send(404, b"not found", "text/plain")

        def do_POST(self) -> None:  # noqa: N802
            if self.path != "/save":
                self._send(404, b"not found", "text/plain")
                return
            length = int(self.headers.get("Content-Length") or 0)
            try:
                data = json.loads(self.rfile.read(length) or b"null")
                new = parse_board(data, str(out))
                new.save(out)
            except (ValueError, OSError) as exc:
                self._send(400, f"not saved: {exc}".encode(), "text/plain; charset=utf-8")
                return
            server.saved = new  # type: ignore[attr-defined]
            self._send(200, f"saved to {out}".encode(), "text/plain; charset=utf-8")

    server = ThreadingHTTPServer(("127.0.0.1", port), Handler)
    server.saved = None  # type: ignore[attr-defined]
    return server


def serve_in_background(server: ThreadingHTTPServer) -> threading.Thread:
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    return thread


__all__ = ["make_server", "serve_in_background", "straightened", "PX_PER_MM"]
