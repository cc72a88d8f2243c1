"""The errors romesim raises on bad input: each names the field, the value and what is allowed."""


class RomesimError(Exception):
    """Base class of every error caused by what the user asked for."""


class ScenarioError(RomesimError, ValueError):
    """An unknown scenario, an unknown parameter, or a value outside its domain."""


class PolicyError(RomesimError, ValueError):
    """An unknown policy, a bad parameter vector, or an illegal action returned by a policy."""


class ExactNotSupported(RomesimError, NotImplementedError):
    """``romesim.exact`` was asked for a scenario or policy it cannot solve exactly."""
