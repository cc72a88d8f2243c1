"""Decision points of the Semper Victor procedures (spec section 4) and their built-in policies."""

# @procedures
# @usurpation
# @battle
