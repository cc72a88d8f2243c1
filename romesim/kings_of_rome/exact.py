"""Exact solvers of the Kings of Rome procedures, by counting faces.

The siege's exact answer enumerates its reference procedure over every dice sequence
(``romesim.core.exact.enumerate_dice``); the procedures below are closed forms.
"""
from fractions import Fraction
from itertools import product


def treason(garrison, k):
    """KoR 6.3: P(treason fails) = P(d6 - k <= Virtus) = min(6, Virtus + k) / 6 (WE-5 table)."""
    p_fail = Fraction(min(6, garrison + k), 6)
    return {"p_win": p_fail, "ip": Fraction(-k), "vp": p_fail}


def ignominy(drm, equal_8_acquitted, ip_loss_always):
    """KoR 5.7.11: P(2d6 - drm > 8) over the 36 equally likely pairs (WE-5: 1/12 battle, 1/6 siege)."""
    needed = 8 if equal_8_acquitted else 9
    p = Fraction(sum(a + b - drm >= needed for a, b in product(range(1, 7), repeat=2)), 36)
    return {"p_win": p, "ip": Fraction(-3) if ip_loss_always else -3 * (1 - p)}
