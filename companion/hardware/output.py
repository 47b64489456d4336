"""What happens to a frame on its way to the LEDs: a brightness limit, a power-supply
budget and gamma correction, as WLED users know them.

>>> out = Output(brightness=255, gamma=1.0, budget_ma=None)
>>> wire, current = out.apply(np.array([[255, 0, 0]], dtype=np.uint8))
>>> wire.tolist(), round(current, 1)
([[255, 0, 0]], 19.3)
"""

from __future__ import annotations

from dataclasses import dataclass

import numpy as np

RGB = tuple[int, int, int]


@dataclass(frozen=True)
class Output:
    """Settings that turn the colours the app asks for into the bytes on the data line.

    brightness: 0-255, the cap on every channel (WLED's master brightness).
    gamma: the exponent that makes equal steps look equal on an LED (WLED uses 2.8).
    ma_per_led: current of one LED at full white (WS2812B: about 55 mA at 5 V).
    idle_ma: current of one dark LED (about 1 mA; it adds up on long strips).
    budget_ma: what the power supply may give the strip; None means no limit. Over it,
        the whole frame is dimmed evenly, like WLED's automatic brightness limiter.
    """

    brightness: int = 128
    gamma: float = 2.8
    ma_per_led: float = 55.0
    idle_ma: float = 1.0
    budget_ma: float | None = 2000.0

    def __post_init__(self) -> None:
        if not 0 <= self.brightness <= 255:
            raise ValueError(f"brightness must be 0-255, not {self.brightness}")
        if not 0.1 <= self.gamma <= 5.0:
            raise ValueError(f"gamma must be between 0.1 and 5, not {self.gamma}")
        if self.ma_per_led <= 0 or self.idle_ma < 0:
            raise ValueError("ma_per_led must be positive and idle_ma not negative")
        if self.budget_ma is not None and self.budget_ma <= 0:
            raise ValueError(f"budget_ma must be positive (or null for no limit), "
                             f"not {self.budget_ma}")

    def current_ma(self, wire: np.ndarray) -> float:
        """The estimated current of the strip showing these wire values."""
        per_unit = self.ma_per_led / (3 * 255)
        return len(wire) * self.idle_ma + float(wire.sum(dtype=np.int64)) * per_unit

    def apply(self, frame: np.ndarray) -> tuple[np.ndarray, float]:
        """The wire values (uint8, shape (n, 3)) for `frame` and their current in mA."""
        scale = self.brightness / 255.0
        # Gamma on the scaled colour: the brightness cap keeps hues, gamma keeps steps even.
        wire_f = 255.0 * np.power(frame.astype(np.float32) * (scale / 255.0), self.gamma)
        wire = np.rint(wire_f).astype(np.uint8)
        current = self.current_ma(wire)
        if self.budget_ma is not None and current > self.budget_ma:
            idle = len(wire) * self.idle_ma
            lit = current - idle
            factor = max(self.budget_ma - idle, 0.0) / lit
            # Truncating (not rounding) keeps the result at or under the budget.
            wire = (wire_f * factor).astype(np.uint8)
            current = self.current_ma(wire)
        return wire, current
