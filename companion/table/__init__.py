"""The live table: one game, its seats and phones, the secret card choices, the referee
feed, and everyone who follows along (web pages, LED strip, camera).

>>> from companion.store import Store
>>> table = Table(Store(":memory:"))
>>> table.new_game(["blue", "green", "yellow"])
>>> for player, card in [("blue", 6), ("green", "cloud"), ("yellow", 5)]:
...     table.choose(player, card)
>>> table.reveal()
>>> table.play_turn("D-4+clear").ok
True
>>> table.view()["cards"]
{'blue': 6, 'green': 'cloud'}

Phones pick cards one by one; the choices stay inside the table (and its store) until
the reveal turns them into one `cards` event. Every change bumps `version` and calls
the subscribers, so a page, an LED controller or a logger can follow the game with
``table.subscribe(callback)``.

One job per module:

- `session`: the current game, its version, the referee feed, publish/subscribe;
- `seats`: join tokens, seat tokens, each seat's language;
- `face_down`: phase I, the buy-backs, the cards laid face down and the reveal;
- `camera_referee`: what a stable camera view means for the game;
- `views`: what each screen may see;
- `table`: the `Table` itself, the game's actions put together from those parts;
- `errors`: what the table refuses, by kind (the web layer maps kinds to HTTP statuses).
"""

from .errors import Conflict, Forbidden, Illegal, Invalid, NotFound, NotSeated, TableError
from .session import Change, Session, Subscriber
from .table import Table
from .views import MAX_LEGAL_LISTED

__all__ = ["Table", "TableError", "Change", "Session", "Subscriber", "Conflict", "Forbidden",
           "Illegal", "Invalid", "NotFound", "NotSeated", "MAX_LEGAL_LISTED"]
