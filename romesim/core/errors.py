"""The errors romesim raises on bad input: each names the field, the value and what is allowed."""


class RomesimError(Exception):
    """Base class of every error caused by what the user asked for."""


class ScenarioError(RomesimError, ValueError):
    """An unknown scenario, an unknown parameter, or a value outside its domain."""


class PolicyError(RomesimError, ValueError):
    """An unknown policy, a bad parameter vector, or an illegal action returned by a policy."""


class ExactNotSupported(RomesimError, NotImplementedError):
    """``romesim.exact`` was asked for a scenario or policy it cannot solve exactly."""


class Interrupted(KeyboardInterrupt):
    """Ctrl-C during a long run, with a line that says what was kept (e.g. how many sweep points are stored)."""

    def __init__(self, message):
        super().__init__(message)
        self.message = message


def did_you_mean(name, known):
    """`` (did you mean 'x'?)`` when ``name`` is close to one of ``known``, else an empty string."""
    import difflib

    close = difflib.get_close_matches(str(name), [str(k) for k in known], n=1, cutoff=0.6)
    return f" (did you mean {close[0]!r}?)" if close else ""
