"""Plain-Python reference procedures of Semper Victor, written from the rules independently of the kernels.

Each draws from a dice object (``PyStream`` or the exact enumerator) in the kernel's order, so per-game outcomes
are equal.
"""

# @procedures
# @usurpation
# @battle
