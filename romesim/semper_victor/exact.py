"""Exact solvers of the Semper Victor procedures."""

# @procedures
# @usurpation
# @battle
