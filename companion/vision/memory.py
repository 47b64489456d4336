"""What a camera remembers of one table: the last picture of the game as it stands, each
slot's empty look, and the pieces' learned look — and a picture after a move judged
against them. The table's camera (``companion.camera``) and ``companion vision infer``
use this one code.

>>> memory = BoardMemory(vision.detector)                          # doctest: +SKIP
>>> memory.confirm(before.corrected, before_location, game.state)  # doctest: +SKIP
>>> seen = memory.judge(after_obs, after.corrected, after_location, game)  # doctest: +SKIP
>>> infer(game, seen)                                              # doctest: +SKIP

``judge`` gives the observation after, with what the pictures tell: places whose pixels
did not change keep what the state has there; the cloud's move is read from which track
position changed; in phase III, when every slot's empty look is known, the river's
pushes are read from where the slots' contents went (``transport``). None when there is
no picture of the game as it stands from this camera position, or from one knocked a
little since (then the reading alone must do).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from companion.rules import GEMS

from .cargo_looks import cargo_compared
from .conditioned import DEPOSIT, changed_places, condition
from .fit_changes import one_taken, taken_gems
from .known import KnownBoard, pile_pixels, piles
from .learn_board import bare_cells, dock_cover
from .masks import deposit_pixels
from .piles_taken import LEAST_SHARE, gems_taken, puts_unseen, taken_only, two_apart
from .seen_canoes import SeenCanoe
from .transport import EmptySlots, river_board
from .views import knocked_only, print_agrees, same_view

if TYPE_CHECKING:
    from companion.rules import Game, State

    from .detect import Detector
    from .locate import Location


# A pile teaches how its gems look only while it holds about as many as at the setup
# (7): the share of a deposit's pixels least like its print (``pile_pixels``) is then
# its gems'; a smaller pile's takes in the print's edges and the lamp's glare (the
# tuned games' violet piles of five and fewer read grey).
PILE_FULL = 6


class BoardMemory:
    """The pictures of one table from one camera position, and what they taught."""

    def __init__(self, detector: Detector) -> None:
        self.detector = detector
        self.slots = EmptySlots(detector)
        self.picture: np.ndarray | None = None  # the last picture of the game as it stands
        self.location: Location | None = None   # where the board was in it
        self._deposits: dict[str, tuple[np.ndarray, np.ndarray]] | None = None
        # The dock's canoes as last found: what the state had there, the picture, and
        # the cells they hide.
        self._dock: tuple[tuple[tuple[str, str | None], ...], np.ndarray,
                          np.ndarray] | None = None
        # The deposits as the state had them when the last picture was judged, and the
        # piles that picture saw change: the move the game then confirms tells how
        # often this camera sees a gem leave its pile (``PieceLooks.learn_take``).
        # How much of each deposit's pile that picture saw change plainly (from
        # LEAST_SHARE of a gem), in gems' areas: the confirmed move's single takes teach
        # this camera's size of one (``PieceLooks.two_taken``).
        self._judged: tuple[dict[str, dict[str, int]], frozenset[str],
                            dict[str, float]] | None = None
        # The canoes the last picture showed (their middles' looks): a canoe that
        # stayed is compared with itself in the next (``cargo_looks``).
        self._canoes: tuple[SeenCanoe, ...] = ()
        # The picture (and where) that the last one kept was found to compare with
        # after a knock: judged, then confirmed, it is not compared twice.
        self._agreed: tuple[np.ndarray, Location] | None = None

    def forget(self) -> None:
        """The camera moved: its pictures are of another view (the learned look of the
        pieces stays: the lamp did not move)."""
        self.picture = self.location = None
        self._dock = self._judged = self._agreed = None
        self._canoes = ()
        self.slots.reset()

    def confirm(self, picture: np.ndarray, location: Location, state: State,
                canoes: Iterable[SeenCanoe] = (), learn: bool = True,
                moved_on: bool = True, discs: Mapping[str, float] | None = None,
                pieces: bool = True, unseen: np.ndarray | None = None) -> None:
        """This picture shows the game in `state`: compare the next with it, and learn
        from it the empty slots' looks and (from `canoes`, those read in it that may
        teach: see ``companion.camera``) the pieces' look, and compare the next
        picture's canoes with these (``cargo_looks``); with `learn` False, nothing
        (something may lie over the board in it). `moved_on`: the game reached `state`
        by the move (or moves) of the picture last judged, not by an undo: which gems
        left which piles teaches how often this camera sees a take. `discs`: the
        picture's ``Reading.disc_contrasts``: at rest every slot holds its disc
        (R-SETUP-2), so they teach each slot's look with one. With `pieces` False the
        pieces' look is not learned (the board as it lay before a restart, already
        learned from: ``vision.resume``). `unseen`: the picture's ``Reading.unseen``
        (the board's look cells its frame does not reach: not learned from)."""
        if not self._compares(picture, location):
            self.forget()
        self.picture, self.location = picture, location
        self._agreed = None
        self._canoes = canoes = tuple(canoes)
        judged, self._judged = self._judged, None
        if not learn:
            return
        if moved_on and judged is not None:
            self._learn_takes(*judged, state)
        self.slots.learn(picture, state)
        self._learn_board(picture, state, unseen)
        if not pieces:
            return
        self.detector.looks.learn(canoes, state.canoes)
        if discs and self.detector.disc_looks is not None:
            self.detector.disc_looks.learn(discs, with_disc=True)
        for gem, colour in self._piles(picture, state).items():
            self.detector.looks.learn_pile(gem, colour)

    def _compares(self, picture: np.ndarray, location: Location) -> bool:
        """Whether a picture compares with the one kept: from the same camera position,
        or from a camera knocked a little since (``knocked_only``), whose straightened
        board agrees with the kept one's where no move changes anything
        (``print_agrees``). (None kept: nothing to forget.)"""
        if self.picture is None or self.location is None:
            return True
        if same_view(self.location, location):
            return True
        if self._agreed is not None and self._agreed[0] is picture \
                and self._agreed[1] is location:
            return True
        if knocked_only(self.location, location) and \
                print_agrees(self.detector, self.picture, picture):
            self._agreed = (picture, location)
            return True
        return False

    def _learn_takes(self, held: dict[str, dict[str, int]], changed: frozenset[str],
                     sizes: dict[str, float], state: State) -> None:
        """Each gem the confirmed move took from a deposit, and whether the picture
        judged saw that pile change (a pile a gem was also put on changed anyway); and
        how much of it changed where one gem left it and nothing else joined or left."""
        for name, before in held.items():
            after = state.deposits.get(name, {})
            single = one_taken(before, after)
            for gem, n in taken_gems(before, after).items():
                for _ in range(n):
                    self.detector.looks.learn_take(gem, name in changed,
                                                   sizes.get(name) if single else None)

    def _learn_board(self, picture: np.ndarray, state: State,
                     unseen: np.ndarray | None = None) -> None:
        """The board's look where the calibration photos never showed it bare (the
        dock under a set-up game's canoes, the cloud's place in the layout), from the
        cells this picture shows bare: a canoe coming home is then told from the dock's
        print there, not taken for something unlike the board."""
        surface = self.detector.surface
        if surface is None:
            return
        unknown = surface.unknown()
        if not unknown.any():
            return
        d = self.detector
        known = KnownBoard.of_state(state)

        def dock() -> np.ndarray:
            # Finding the dock's canoes is the costliest part: where the dock's pixels
            # did not change since the picture they were last found in, and it holds
            # the same canoes, they lie where they lay.
            if self._dock is None or self._dock[0] != known.dock \
                    or "D" in changed_places(d, self._dock[1], picture, ["D"]):
                self._dock = (known.dock, picture,
                              dock_cover(picture, d.board, known, d.scale))
            return self._dock[2]

        bare = bare_cells(picture, d.board, known, d.scale, unknown, dock)
        if unseen is not None:
            rows, cols = unseen.shape
            bare[:rows, :cols] &= ~unseen
        surface.learn(picture, bare)

    def _piles(self, picture: np.ndarray, state: State) -> dict[str, tuple[float, float, float]]:
        """The colour of the gems in each deposit holding gems of one colour only, and
        at least PILE_FULL of them: its pixels least like the deposit's print (the
        print fills most of it: its median)."""
        out = {}
        for name, gem in piles(state.deposits).items():
            idx = self._deposit_pixels().get(name)
            if idx is None or len(idx[0]) < 50:
                continue
            if state.deposits[name][gem] < PILE_FULL:
                continue
            gems = pile_pixels(picture[idx])[0].astype(np.float32)
            b, g, r = np.median(gems, axis=0)
            out[gem] = (float(b), float(g), float(r))
        return out

    def _deposit_pixels(self) -> dict[str, tuple[np.ndarray, np.ndarray]]:
        if self._deposits is None:
            d = self.detector
            self._deposits = deposit_pixels(d.board, d.shape, d.scale)
        return self._deposits

    def judge(self, observation: dict[str, Any], picture: np.ndarray, location: Location,
              game: Game, canoes: Iterable[SeenCanoe] = (), moved: bool = True
              ) -> dict[str, Any] | None:
        """The observation after a move with what the picture before tells (see the
        module's doc); None when there is no picture before that compares with it (from
        this camera position, or one knocked a little: ``_compares``).
        `canoes`: the canoes this picture showed (``Reading.canoes``), compared with
        those of the picture before (``cargo_looks``). `moved`: something moved over
        the board before this view (not so for the first view after a restart)."""
        if self.picture is None or self.location is None:
            return None
        if not self._compares(picture, location):
            self.forget()
            return None
        changed = changed_places(self.detector, self.picture, picture)
        looks = self.detector.looks
        seen_on = (self.picture, picture, self._deposit_pixels(), changed.piles,
                   game.state.deposits, looks.pile_colour, self.detector.gem_px)
        taken = gems_taken(*seen_on)
        # A gem seen taken is a pile changed, if too little of it changed to count.
        seen = condition(observation, game, changed.also(DEPOSIT + name for name in taken))
        seen["deposits_taken"] = taken
        # (A pile seen to change by a faint patch only, ``pile_changes.FAINT``, says
        # nothing of how much one take changes: ``two_taken`` weighs plain changes.)
        sizes = {name: len(idx[0]) / self.detector.gem_px
                 for name, idx in changed.piles.items()
                 if len(idx[0]) >= LEAST_SHARE * self.detector.gem_px}
        # Two gems taken: seen leave from two places of the pile, or changing more of
        # it than this table's single takes of that colour do.
        apart = two_apart(*seen_on, taken)
        seen["deposits_taken_two"] = sorted(
            name for name, gem in taken.items()
            if name in apart or looks.two_taken(gem, sizes[name]))
        seen["deposits_taken_only"] = sorted(taken_only(*seen_on, taken, GEMS))
        seen["deposits_put_unseen"] = puts_unseen(*seen_on, GEMS,
                                                  seen.get("deposits_changed") or ())
        for key, shares in (("gems_shown", looks.shown()), ("gems_invented", looks.invented())):
            if shares:
                seen[key] = shares
        if misread := looks.misread():
            seen["gems_misread"] = misread
        seen["gems_swapped"] = looks.swapped()
        if game.phase == "turns":
            # (The river moves every canoe: a place then shows another canoe.)
            kept, altered = cargo_compared(game.state.canoes, self._canoes, canoes)
            for key, places in (("cargo_kept", kept), ("cargo_changed", altered)):
                if places:
                    seen[key] = places
        if takes := looks.takes_shown():
            seen["takes_shown"] = takes
        self._judged = ({name: dict(pile) for name, pile in game.state.deposits.items()},
                        frozenset(seen.get("deposits_changed") or ()), sizes)
        # (The river's pushes are read only from a view something moved over: the
        # first view after a restart shows the board as it lay, the river not yet
        # pushed, which the pushes' best fit would take for pushes nobody made.)
        if game.phase == "river" and game.speed and moved and self.slots.known():
            river = river_board(self.slots, self.picture, picture, game)
            if river is not None:
                seen.update(slots=river["slots"], dock=river["dock"], falls=river["falls"])
        return seen


__all__ = ["BoardMemory"]
