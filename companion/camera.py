"""The camera at the table: frames → stable observations → moves for the Table.

>>> from companion.camera_sources import open_camera
>>> camera = TableCamera(table, open_camera("auto", table))   # doctest: +SKIP
>>> camera.start()                                             # doctest: +SKIP

A thread reads frames, the vision turns them into observations, and each new stable
view goes to ``table.observe`` (which applies the move it shows, or has the referee flag
it). With no camera attached, ``camera_sources.open_camera("auto")`` gives a simulated
one that photographs the table's own game with the synthetic renderer, so the whole
pipeline runs (and shows "board matches") on any machine.
"""

from __future__ import annotations

import logging
import threading
import time
from pathlib import Path
from typing import TYPE_CHECKING, Any

from companion import paths
from companion.vision import resume
from companion.vision.memory import BoardMemory
from companion.vision.seen_canoes import agreeing
from companion.vision.sources import CameraLost, FrameSource

if TYPE_CHECKING:
    from companion.app import Table
    from companion.vision.detect import Reading
    from companion.vision.locate import Location
    from companion.vision.observer import Vision
    from companion.vision.seen_canoes import SeenCanoe

log = logging.getLogger(__name__)

# While the board stays as it is, the camera's resume point is saved again at most this
# often (seconds): at each new state it is saved at once.
RESAVE_S = 60.0


class _Calibration:
    """A calibration the table page asked for, done by the camera thread."""

    def __init__(self) -> None:
        self.done = threading.Event()
        self.kept: list[str] = []
        self.error: Exception | None = None


class TableCamera:
    """Watches the board and tells the table about every new stable view.

    ``status`` says what the camera is doing, for the table page: the source's name,
    whether the board is found, how many markers, whether the view is stable, and
    what the table made of the last stable view."""

    def __init__(self, table: Table, source: FrameSource, vision: Vision | None = None,
                 fps: float = 10.0, settle_s: float = 1.5, resume_dir: Path | None = None
                 ) -> None:
        from companion.vision.observer import Vision

        self.table = table
        self.source = source
        self.vision = vision if vision is not None else Vision(settle=max(2, round(fps * settle_s)))
        self.period = 1.0 / fps
        self.status: dict[str, Any] = {"source": getattr(source, "name", "camera"),
                                       "state": "starting"}
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None
        self._last_key: str | None = None
        # The last picture of the game as it stands, the slots' and pieces' looks
        # (vision.memory), and what the game showed then (``_game_key``).
        self.memory = BoardMemory(self.vision.detector)
        self._memory_key: Any = None
        self._memory_events = 0  # the game's events when the picture was remembered
        self._judged_view = -1  # the still view last judged (Vision.view.version)
        # Where a calibration from the table page saves the table's colours.
        self.profile_path = paths.config_dir() / paths.PROFILE
        self._calibration: _Calibration | None = None
        # Where the camera keeps what it would lose in a restart (``vision.resume``):
        # beside the games it belongs to (games.sqlite3: games.camera/), none for games
        # kept in memory; read once, at the first frame with a game.
        if resume_dir is None:
            db = str(getattr(table.store, "path", ":memory:"))
            resume_dir = None if db == ":memory:" else Path(db).with_suffix(".camera")
        self.resume_dir: Path | None = resume_dir
        self._resumed = False
        self._resumed_key: Any = None  # the game as the resumed picture showed it
        self._saved: tuple[str, float] | None = None  # the point last saved, and when
        # No view judged yet, and the view unchanged, since the camera began watching
        # (or was calibrated anew): a view judged alone is then a first look.
        self._first_look = True
        # The game as the view a calibration learned from showed it (``calibrate``).
        self._calibrated_key: Any = None

    def calibrate(self, timeout: float = 30.0) -> list[str]:
        """Learn this table's colours from the next still view of the game as it stands
        (best a freshly set-up one: every canoe on the dock, the gems in their deposits),
        as ``companion calibrate profile PHOTO --state`` does; save them as the table's
        profile and see with them from now on. Returns the piece classes the view did
        not show (kept from the profile before). Raises ProfileError (one line, naming
        the place) when the view does not show the game, TimeoutError when no still
        view of the board comes."""
        # Asked twice (a second tap), both wait for the same calibration.
        request = self._calibration or _Calibration()
        self._calibration = request
        if not request.done.wait(timeout):
            self._calibration = None
            raise TimeoutError(f"no still view of the board in {timeout:.0f} s: is a hand "
                               "over it, or the board out of view?")
        if request.error is not None:
            raise request.error
        return request.kept

    def _calibrate_now(self, request: _Calibration) -> None:
        """The camera thread's side of ``calibrate``, on a still view."""
        from companion.vision.known import KnownBoard
        from companion.vision.learn import learn_profile, not_shown
        from companion.vision.observer import Vision
        from companion.vision.profile import ProfileError

        self._calibration = None
        try:
            game = self.table.game
            if game is None:
                raise ProfileError("no game: start one and set it up, then calibrate")
            image, _ = self.vision.view.picture()
            known = KnownBoard.of_snapshot(game.state.snapshot())
            old = self.vision
            profile = learn_profile(old.board, [image], px_per_mm=1.0, known=known,
                                    base=old.profile,
                                    source=f"the table page: a still view of game "
                                           f"{self.table.game_id} after {len(game.events)} "
                                           "events")
            self.profile_path.parent.mkdir(parents=True, exist_ok=True)
            profile.save(self.profile_path)
            self.vision = Vision(old.board, profile, old.detector.scale, old.settle)
            self.memory = BoardMemory(self.vision.detector)
            self._memory_key, self._judged_view, self._last_key = None, -1, None
            self._resumed_key = self._saved = None
            self._first_look, self._calibrated_key = True, self._game_key()
            request.kept = not_shown(known)
        except ProfileError as exc:
            request.error = exc
        except Exception as exc:  # the camera goes on watching with the colours it had
            log.exception("calibration failed")
            request.error = ProfileError(f"the calibration failed: {exc}")
        finally:
            request.done.set()

    def start(self) -> TableCamera:
        self._thread = threading.Thread(target=self._run, name="table-camera", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        self._stop.set()
        if self._thread:
            self._thread.join(timeout=5)
        self.source.close()

    def _run(self) -> None:
        while not self._stop.is_set():
            started = time.monotonic()
            try:
                self.step()
            except CameraLost as exc:
                self._set("lost", reason=str(exc))
                log.warning("camera lost: %s; watching stops (moves go on from the table page)",
                            exc)
                return
            except Exception:  # the game must go on without the camera
                log.exception("camera step failed")
                self._set("error")
            self._stop.wait(max(0.0, self.period - (time.monotonic() - started)))

    def step(self) -> str | None:
        """Read and judge one frame; returns what the table did with a new stable view
        ("same", "applied", "ambiguous", "flagged", "taken", "ignored"), else None."""
        version = self.table.version
        frame = self.source.read()
        if frame is None:
            self._set("no frame")
            return None
        if not self._resumed and self.table.game is not None:
            self._resume()
        obs = self.vision.observe(frame)
        if self.vision.view.version > 1:
            # The view changed since the camera began watching: something moved.
            self._first_look = False
        if obs is None:
            self._set("board not found", markers=0)
            return None
        if not obs["stable"] and self.vision.still:
            if obs.get("out_of_view"):
                # A camera knocked or aimed so that part of the board left the picture:
                # say which, so that the players turn it back (the places are not read
                # at all, nor is this picture kept: it does not show the whole game).
                self._set("out of view", markers=obs["markers"], stable=False,
                          over=list(obs["out_of_view"]))
                return None
            # A still view with something over the board: say where, so that the players
            # can clear it (a forgotten box, a hand resting on the dock; none of the
            # places when it lies between them).
            self._set("in the way", markers=obs["markers"], stable=False,
                      over=list(obs.get("occluded", [])))
            self._typed_over(version)
            return None
        self._set("watching" if obs["stable"] else "moving", markers=obs["markers"],
                  stable=obs["stable"])
        if not obs["stable"]:
            return None
        # A frame taken before the game changed under it is not judged against the game
        # after (issue 12 item 4).
        if self.table.version != version:
            return None
        request = self._calibration
        if request is not None:
            self._calibrate_now(request)
            return None
        reading, where = self.vision.last_reading, self.vision.last_location
        game, game_key = self.table.game, self._game_key()
        if reading is None or where is None or game is None:
            return None
        view = self.vision.view.version
        if view == self._judged_view:
            # A still view is judged once, so an undo or a move typed on the page does
            # not have the pieces still on the board judged again (they would replay the
            # undone move or flag the typed one). But when the players changed the game
            # while this view lay on the table (answered the camera's question, typed
            # the move it could not read), the picture shows the game as they left it:
            # the next move is compared with it. Its canoes teach the table's look only
            # where the camera saw the same players' canoes, and only when the game went
            # on (where the players overrode what it saw, or took a move back, it learns
            # nothing).
            if self._memory_key != game_key:
                forward = len(game.events) > self._memory_events
                self._remember(reading, where,
                               agreeing(reading.canoes, game.state.canoes) if forward else [],
                               moved_on=forward)
            return None
        self._judged_view = view
        first, self._first_look = self._first_look, False
        # (A first look came with no motion over the board: after resuming, the river
        # was not pushed in it.)
        moved = not first
        calibrated, self._calibrated_key = self._calibrated_key == game_key, None
        seen = (self.memory.judge(obs, reading.corrected, where, game, reading.canoes, moved)
                if self._memory_key == game_key else None)
        if seen is None and first and calibrated:
            # The view a calibration just learned from (nothing moved since: the first
            # look), which showed the game (else it raised): no question to ask.
            self.status["last"] = "same"
            self._remember(reading, where, agreeing(reading.canoes, game.state.canoes))
            return "same"
        if seen is None and first:
            # The first look at the game, with no picture of it kept: read otherwise, it
            # plays nothing (``Table.observe``'s `first`), and the next move is compared
            # with it. Taken as the game stands, it teaches where it agrees with the
            # game (its differences no move explains: slips); where a move fits it (the
            # players are asked), nothing: the move may have been made, and the empty
            # slots' and the board's looks would be learned from its pieces.
            outcome = self.table.observe(obs, first=True)
            self.status["last"] = outcome
            if self._game_key() == game_key and outcome in ("same", "taken", "ambiguous"):
                self._remember(reading, where, agreeing(reading.canoes, game.state.canoes),
                               learn=outcome != "ambiguous")
            return outcome
        if seen is None:
            # No picture of the game as it stands: the reading alone, judged only when
            # it differs from the last one judged (a misread is not flagged twice).
            key = repr((obs["weather"], obs["slots"], obs["dock"], obs["falls"]))
            if key == self._last_key:
                return None
            self._last_key = key
            seen = obs
        outcome = self.table.observe(seen)
        self.status["last"] = outcome
        game = self.table.game
        if game is not None and (outcome in ("same", "applied") or (
                outcome == "ambiguous" and self.table.camera_referee.showed_game)):
            # The picture of the game as it now stands, confirmed by the game itself:
            # all its canoes teach the table's look. (Also when the players are asked
            # whether a move that leaves every piece as it lay was made: either way the
            # picture shows the game.)
            self._remember(reading, where, reading.canoes)
        elif game is not None and self.memory.picture is None and not game.events:
            # The first view of a new game is its setup, even if read with slips (what
            # changes later is read again); it teaches where it agrees with the setup.
            self._remember(reading, where, agreeing(reading.canoes, game.state.canoes))
        return outcome

    def _typed_over(self, version: int) -> None:
        """When the players moved the game on while a still view with something over
        the board lay on the table (they typed the move the camera could not read),
        that picture shows the game as they left it: the next one is compared with it,
        and what was over the board in it, if it is still there unchanged, is the
        table's (a print or a light the board's learned look does not know), no hand.
        Nothing of its pieces' look is learned."""
        game, reading, where = self.table.game, self.vision.last_reading, self.vision.last_location
        if game is None or reading is None or where is None or self.table.version != version:
            return
        if self._memory_key != self._game_key() and len(game.events) > self._memory_events:
            self._remember(reading, where, [], learn=False)

    def _remember(self, reading: Reading, where: Location, canoes: list[SeenCanoe],
                  learn: bool = True, moved_on: bool = True) -> None:
        game = self.table.game
        assert game is not None
        key = self._state_key()  # (before the game may change under this thread)
        pieces = True
        if self._resumed_key is not None:
            if self._game_key() == self._resumed_key:
                pieces = False  # the board as the camera left it: learned before the restart
            else:
                self._resumed_key = None
        self.memory.confirm(reading.corrected, where, game.state, canoes, learn, moved_on,
                            reading.disc_contrasts, pieces, reading.unseen)
        self.vision.reference = (reading.corrected, where)
        self._memory_key = self._game_key()
        self._memory_events = len(game.events)
        # Saved at every new state, and at most every RESAVE_S while the board stays as
        # it is (the looks learned in between are worth less than an SD card's writes).
        now = time.monotonic()
        if self.resume_dir is not None and (
                self._saved is None or self._saved[0] != key or now - self._saved[1] >= RESAVE_S):
            resume.keep(self.resume_dir, key, self.vision, self.memory, reading.corrected,
                        where, canoes)
            self._saved = (key, now)

    def _resume(self) -> None:
        """Go on where the camera left off before a restart: in the same game, what it
        learned of the pieces' looks and, if it shows the game as it stands, the picture
        the next view is compared with (else that view is judged from itself alone:
        nobody may have moved, but one picture cannot tell)."""
        game = self.table.game
        assert game is not None
        self._resumed = True
        if self.resume_dir is not None and resume.resume(
                self.resume_dir, self._state_key(), self.vision, self.memory, game.state):
            self._memory_key, self._memory_events = self._game_key(), len(game.events)
            self._resumed_key = self._memory_key
            log.info("camera: resumed game %s after %d events", self.table.game_id,
                     len(game.events))

    def _state_key(self) -> str:
        game = self.table.game
        assert game is not None
        return resume.state_key(self.table.game_id, game.state)

    def _game_key(self) -> tuple[int, str, int] | None:
        """What a picture of the game shows: its canoes and the cloud (cards played or
        gems bought back change nothing a camera sees)."""
        game = self.table.game
        if game is None:
            return None
        return (id(game), repr(sorted(game.state.canoes.items())), game.state.weather)

    def _set(self, state: str, **extra: Any) -> None:
        self.status = {"source": self.status.get("source"), "state": state,
                       "last": self.status.get("last"), **extra}


__all__ = ["TableCamera"]
