"""Scenarios: validated, immutable descriptions of one situation, with a registry of names.

A game declares a scenario as a frozen dataclass whose fields are made with ``param`` (or a game's
``option``), decorated with ``@register``. Construction validates every field and then the scenario's own
``check``; errors name the field, the value and what is allowed. The core knows no game: it only calls the
hooks a scenario class provides (``kernel``, ``kernel_args``, ``reference``, ``exact_solution``,
``narrator``).
"""
import csv
import re
import tomllib
from dataclasses import dataclass, field, fields, replace
from pathlib import Path
from typing import ClassVar

import pandas as pd

from .errors import ExactNotSupported, ScenarioError, did_you_mean
from .loop import searchable
from .policy import SIGNATURE_TEXT
from .search import search_builtins

_REGISTRY = {}


@dataclass(frozen=True)
class ParamSpec:
    kind: str  # "int", "bool", "choice", "ints", "records", "text"
    doc: str = ""
    rule: str = ""  # rule number or ambiguity id the parameter comes from
    lo: int = None
    hi: int = None
    choices: tuple = ()
    min_len: int = 0
    max_len: int = None
    fields: tuple = ()  # records: ((name, ParamSpec, default or REQUIRED), ...)

    def allowed(self):
        if self.kind == "bool":
            return "true or false"
        if self.kind == "text":
            return "a string"
        if self.kind == "choice":
            return "one of " + ", ".join(repr(c) for c in self.choices)
        bounds = _bounds(self.lo, self.hi)
        if self.kind == "int":
            return "an integer " + bounds
        size = f"{self.min_len} to {self.max_len}" if self.max_len is not None else f"at least {self.min_len}"
        if self.kind == "records":
            keys = ", ".join(name + ("" if default is REQUIRED else "?") for name, _, default in self.fields)
            return f"a list of {size} tables with keys {keys}"
        return f"a list of {size} integers, each {bounds}"

    def validate(self, name, value):
        """The value normalised (lists become tuples), or a ScenarioError naming field, value and domain."""
        hint = did_you_mean(value, self.choices) if self.kind == "choice" and isinstance(value, str) else ""
        bad = ScenarioError(f"{name}: {value!r} is not allowed{hint}; expected {self.allowed()}")
        if self.kind == "bool":
            if not isinstance(value, bool):
                raise bad
            return value
        if self.kind == "text":
            if not isinstance(value, str):
                raise bad
            return value
        if self.kind == "choice":
            numeric = isinstance(self.choices[0], int)
            if (not _is_int(value) if numeric else not isinstance(value, str)) or value not in self.choices:
                raise bad
            return int(value) if numeric else value
        if self.kind == "int":
            if not _is_int(value) or not _within(value, self.lo, self.hi):
                raise bad
            return int(value)
        if isinstance(value, (str, bytes, dict)) or not hasattr(value, "__iter__"):
            raise bad
        items = tuple(value)
        if len(items) < self.min_len or (self.max_len is not None and len(items) > self.max_len):
            raise bad
        if self.kind == "records":
            return tuple(self._record(f"{name}[{i}]", item) for i, item in enumerate(items))
        if not all(_is_int(v) and _within(v, self.lo, self.hi) for v in items):
            raise bad
        return tuple(int(v) for v in items)

    def _record(self, name, item):
        if not isinstance(item, dict):
            raise ScenarioError(f"{name}: {item!r} is not allowed; expected a table with keys "
                                + ", ".join(f for f, _, _ in self.fields))
        known = {f for f, _, _ in self.fields}
        for key in item:
            if key not in known:
                raise ScenarioError(f"{name}: unknown key {key!r}{did_you_mean(key, known)}; "
                                    f"allowed: {', '.join(sorted(known))}")
        record = {}
        for key, spec, default in self.fields:
            if key not in item and default is REQUIRED:
                raise ScenarioError(f"{name}: missing key {key!r} ({spec.allowed()})")
            record[key] = spec.validate(f"{name}.{key}", item.get(key, default))
        return Record(record)


REQUIRED = object()


class Record(dict):
    """One validated entry of a ``records`` parameter: a read-only dict (hashable, so scenarios stay hashable)."""

    def __hash__(self):
        return hash(tuple(sorted(self.items())))

    def __reduce__(self):
        # rebuilt from a plain dict: the default pickling of a dict subclass would call the blocked __setitem__
        return Record, (dict(self),)

    def _readonly(self, *args, **kwargs):
        raise TypeError("scenario parameters are immutable; use Scenario.replace")

    __setitem__ = __delitem__ = update = pop = popitem = clear = setdefault = _readonly


def _is_int(value):
    return isinstance(value, int) and not isinstance(value, bool) or (
        hasattr(value, "dtype") and getattr(value.dtype, "kind", "") in "iu" and getattr(value, "ndim", 1) == 0)


def _within(value, lo, hi):
    return (lo is None or value >= lo) and (hi is None or value <= hi)


def _bounds(lo, hi):
    if lo is not None and hi is not None:
        return f"from {lo} to {hi}"
    if lo is not None:
        return f">= {lo}"
    return f"<= {hi}" if hi is not None else ""


def param(default, *, kind=None, doc="", rule="", lo=None, hi=None, choices=(), min_len=0, max_len=None,
          fields=()):
    """A scenario field with its domain. ``kind`` is inferred from the default when omitted.

    ``kind="records"`` is a list of tables whose keys are ``fields``: ``(name, ParamSpec, default)`` triples,
    ``REQUIRED`` as the default of a key that must be given (e.g. the leaders of an empire, each with a zone,
    a side and a rating).
    """
    if kind is None:
        kind = ("bool" if isinstance(default, bool) else "choice" if choices else
                "int" if isinstance(default, int) else "ints")
    spec = ParamSpec(kind, doc, rule, lo, hi, tuple(choices), min_len, max_len, tuple(fields))
    if kind in ("ints", "records"):
        default = spec.validate("default", default)
    return field(default=default, metadata={"param": spec})


def option_table(path):
    """Read a rule-option table (columns ``ambiguity_id, option, values, default, rules``; lines starting with
    ``#`` are comments) into ``field`` makers.

    Returns ``option(name)``, which makes the scenario field of that option with the table's values and default
    (``true|false`` options become booleans, all-integer values integer choices; an ``integer`` value admits any
    integer >= 0); ``option(name, played=...)``: only those of its readings (a scenario that cannot play one).
    """
    rows = {}
    with open(path, newline="", encoding="utf-8") as fh:
        for row in csv.DictReader(line for line in fh if not line.startswith("#")):
            rows[row["option"]] = row

    def option(name, doc="", played=None):
        row = rows[name]
        values = row["values"].split("|") if played is None else list(played)
        rule = f"{row['ambiguity_id']} ({row['rules']})"
        text = doc or f"rule option {row['ambiguity_id']}"
        if set(values) == {"true", "false"}:
            return param(row["default"] == "true", doc=text, rule=rule)
        if "integer" in values:
            return param(int(row["default"]), kind="int", lo=0, doc=text, rule=rule)
        if all(v.lstrip("-").isdigit() for v in values):
            return param(int(row["default"]), kind="choice", choices=[int(v) for v in values], doc=text, rule=rule)
        return param(row["default"], choices=values, doc=text, rule=rule)

    return option


@dataclass(frozen=True)
class Seat:
    """One player of a game: ``name`` (e.g. ``"A"``), the decision points it decides and the metric ``win`` that
    is 1 in the games this seat wins.

    Its points are those named ``prefix`` + the point's own name (``"a_"`` for ``a_attack``, ``"seat2"`` for Vox
    Populi's one point per seat), or the names in ``points`` when they share no prefix (Rome's points of a Kings
    of Rome battle). Points that several seats share are told apart by the decision's state: ``side = (entry,
    value)`` gives the decision to this seat when the state entry ``entry`` holds ``value`` (Semper Victor's
    battle: ``("side", 0)`` the attacker, ``("side", 1)`` the defender)."""

    name: str
    prefix: str
    win: str
    points: tuple = ()
    side: tuple = ()

    def point_names(self, decision_points):
        """The names of the decision points among ``decision_points`` where this seat may decide (procedure hooks,
        which decide nothing, left out)."""
        return [dp.name for dp in decision_points if not dp.hook
                and (dp.name in self.points if self.points else dp.name.startswith(self.prefix))]

    def decides(self, point, state):
        """Whether this seat takes the decision pending at ``point`` (a ``DecisionPoint``) with ``state`` vector."""
        if point.hook or not (point.name in self.points if self.points else point.name.startswith(self.prefix)):
            return False
        if not self.side:
            return True
        entry, value = self.side
        return int(state[list(point.state).index(entry)]) == value


@dataclass(frozen=True)
class Scenario:
    """Base of every scenario. Subclasses are frozen dataclasses decorated with ``@register``."""

    name: ClassVar[str] = ""
    rule: ClassVar[str] = ""
    title: ClassVar[str] = ""
    p_win: ClassVar[str] = ""  # what the headline probability means
    metrics: ClassVar[tuple] = ()
    decision_points: ClassVar[tuple] = ()
    kernel: ClassVar[object] = None

    @classmethod
    def loss_metric(cls):
        """``"p_loss"`` when the scenario reports the other side's win beside ``p_win``, else None.

        The two are exclusive outcomes of one game; when they need not add up to 1 (a game may end with no winner),
        an even game is one where ``p_win - p_loss`` is 0, not one where ``p_win`` is 0.5.
        """
        return "p_loss" if "p_win" in cls.metrics and "p_loss" in cls.metrics else None

    def __post_init__(self):
        for f in fields(self):
            object.__setattr__(self, f.name, f.metadata["param"].validate(f.name, getattr(self, f.name)))
        self.check()

    # --- hooks a game provides
    def check(self):
        """Cross-field validation; raise ScenarioError."""

    @property
    def data_source(self):
        """Where the data files a scenario plays on came from (a dict), for scenarios read from files; else None."""
        return None

    def kernel_args(self):
        """The scenario as a tuple of numbers and arrays, the kernel's arguments after ``(seed, first, count)``."""
        raise NotImplementedError

    def kernel_scenarios(self):
        """This scenario and, where its settings pick the kernel, one scenario for each other kernel they may pick:
        what ``romesim.warm`` compiles."""
        return (self,)

    def reference(self, stream, policies):
        """Play one game in plain Python from ``stream``; returns the outcome tuple in ``metrics`` order."""
        raise NotImplementedError

    def exact_solution(self, policies):
        """``{metric: Fraction}`` for this scenario under built-in ``policies``."""
        raise ExactNotSupported(f"{self.name}: no exact solution is implemented for this scenario")

    def seats(self):
        """The players of a game, one ``Seat`` each (round robins of bots, ``romesim.adapters``); none for a solo
        procedure."""
        return ()

    def all_actions(self, point):
        """Every action decision point ``point`` (a name) may allow in this scenario, in a fixed order: a
        fixed-size action space for learning agents, which ``romesim.adapters`` index. A point whose
        ``candidates`` is ``n`` has ``0 .. n-1``; a game whose points compute their candidates from the state
        says which."""
        dp = next((dp for dp in self.decision_points if dp.name == point), None)
        if dp is None:
            names = [dp.name for dp in self.decision_points]
            raise ScenarioError(f"{self.name}: no decision point {point!r}{did_you_mean(point, names)}; "
                                f"decision points: {', '.join(names) or 'none'}")
        if callable(dp.candidates):
            raise ScenarioError(f"{self.name}: decision point {point!r} computes its candidates from the state; "
                                "the scenario does not list all its actions")
        return tuple(range(dp.candidates))

    def narrator(self):
        """How a trace of this scenario reads as sentences (a ``core.narrative.Narrator``), or None: then
        ``Trace.narrative()`` tells every event with its generic line."""
        return None

    @classmethod
    def reference_tables(cls):
        """``{title: DataFrame}``: the rule tables a user needs to choose parameters (e.g. gladiator types)."""
        return {}

    # --- construction and serialisation
    @classmethod
    def parameters(cls):
        return {f.name: f.metadata["param"] for f in fields(cls)}

    @classmethod
    def from_dict(cls, params):
        if not isinstance(params, dict):
            raise ScenarioError(f"{cls.name}: parameters must be a table of name = value, got {params!r}")
        known = cls.parameters()
        for key in params:
            if key not in known:
                raise ScenarioError(f"{cls.name}: unknown parameter {key!r}{did_you_mean(key, known)}; "
                                    f"allowed: {', '.join(known)}")
        return cls(**params)

    def to_dict(self):
        return {f.name: _plain(getattr(self, f.name)) for f in fields(self)}

    def replace(self, **changes):
        return self.from_dict({**self.to_dict(), **changes})

    def to_toml(self):
        lines = [f'scenario = "{self.name}"', "", "[params]"]
        lines += [f"{k} = {_toml_literal(v)}" for k, v in self.to_dict().items()]
        return "\n".join(lines) + "\n"


def _plain(value):
    """Tuples and records as the lists and dicts a user would write."""
    if isinstance(value, tuple):
        return [_plain(v) for v in value]
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    return value


def _toml_literal(value):
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return '"' + value.replace("\\", "\\\\").replace('"', '\\"') + '"'
    if isinstance(value, list):
        return "[" + ", ".join(_toml_literal(v) for v in value) + "]"
    if isinstance(value, dict):
        return "{" + ", ".join(f"{k} = {_toml_literal(v)}" for k, v in value.items()) + "}"
    return repr(value)


def register(cls):
    """Class decorator: make ``cls`` a frozen dataclass and register it under ``cls.name``."""
    cls = dataclass(frozen=True)(cls)
    if searchable(getattr(cls, "machine", None)):  # a state machine's decisions may be searched (core.search)
        cls.decision_points = tuple(
            dp if dp.hook else replace(dp, builtins={**dp.builtins, **search_builtins(dp)})
            for dp in cls.decision_points)
    if not cls.name or cls.name in _REGISTRY:
        raise ValueError(f"scenario name {cls.name!r} is empty or taken")
    _REGISTRY[cls.name] = cls
    return cls


def get(name):
    if name not in _REGISTRY:
        raise ScenarioError(f"unknown scenario {name!r}{did_you_mean(name, _REGISTRY)}; "
                            f"known: {', '.join(sorted(_REGISTRY))}")
    return _REGISTRY[name]


def registered():
    """The registered scenario classes."""
    return tuple(_REGISTRY.values())


def scenario(name, **params):
    """Build the registered scenario ``name`` with ``params`` (unknown names and bad values raise ScenarioError)."""
    return get(name).from_dict(params)


def load_toml(source, **overrides):
    """Read a scenario table: ``scenario = NAME``, a ``[params]`` table, optional ``n``, ``seed``, ``workers``,
    ``target_ci`` and a ``[policies]`` table.

    ``source`` is a path or TOML text; ``overrides`` replace entries of ``[params]`` before validation.
    Returns ``(scenario, settings)`` where settings holds the keys other than scenario and params.
    """
    if _is_path(source):
        try:
            text = Path(source).read_text(encoding="utf-8")
        except (OSError, UnicodeDecodeError) as exc:
            raise ScenarioError(f"{source}: cannot read the file: {getattr(exc, 'strerror', None) or exc}") from None
    else:
        text = source
    try:
        doc = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        raise ScenarioError(f"{source}: not valid TOML: {exc}") from None
    if "scenario" not in doc:
        raise ScenarioError(f"{source}: missing the key 'scenario' (a registered name such as 'kings_of_rome.siege')")
    settings = {k: v for k, v in doc.items() if k not in ("scenario", "params")}
    unknown = set(settings) - {"n", "seed", "policies", "workers", "target_ci"}
    if unknown:
        raise ScenarioError(f"{source}: unknown key(s) {sorted(unknown)}; allowed: scenario, params, n, seed, "
                            "policies, workers, target_ci")
    for table in ("params", "policies"):
        if not isinstance(doc.get(table, {}), dict):
            raise ScenarioError(f"{source}: {table} must be a table of name = value, got {doc[table]!r}")
    if "policies" in settings:
        settings["policies"] = _dotted(settings["policies"])
    return get(doc["scenario"]).from_dict({**doc.get("params", {}), **overrides}), settings


def _dotted(table, prefix=""):
    """A ``[policies]`` table with its sub-tables back as dotted names: TOML reads ``battle.tactic = "defence"``
    (a procedure's point inside a campaign) as ``{"battle": {"tactic": "defence"}}``; no policy is a table."""
    flat = {}
    for key, value in table.items():
        if isinstance(value, dict):
            flat.update(_dotted(value, f"{prefix}{key}."))
        else:
            flat[prefix + key] = value
    return flat


def _is_path(source):
    return isinstance(source, Path) or (isinstance(source, str) and "\n" not in source and "=" not in source)


def list_scenarios():
    """A DataFrame of the registered scenarios: name, rule, title, parameters with defaults, metrics, exact."""
    rows = []
    for name in sorted(_REGISTRY):
        cls = _REGISTRY[name]
        defaults = {f.name: _plain(f.default) for f in fields(cls)}
        rows.append({"scenario": name, "rule": cls.rule, "title": cls.title, "p_win": cls.p_win,
                     "parameters": defaults, "metrics": list(cls.metrics),
                     "decision_points": {dp.name: sorted(dp.builtins, key=lambda b: b != dp.default)
                                         for dp in cls.decision_points},
                     "exact": cls.exact_solution is not Scenario.exact_solution})
    return pd.DataFrame(rows)


def _entries(names):
    """``[0] a, [1] b, [2..7] cell[0..5]``: a run of one block's indexed entries on one line."""
    parts, i = [], 0
    while i < len(names):
        block = re.fullmatch(r"(.*)\[(\d+)\]", names[i])
        j = i
        while block and j + 1 < len(names):
            nxt = re.fullmatch(r"(.*)\[(\d+)\]", names[j + 1])
            if not nxt or nxt.group(1) != block.group(1) or int(nxt.group(2)) != int(block.group(2)) + j + 1 - i:
                break
            j += 1
        if j > i:
            parts.append(f"[{i}..{j}] {block.group(1)}[{block.group(2)}..{int(block.group(2)) + j - i}]")
        else:
            parts.append(f"[{i}] {names[i]}")
        i = j + 1
    return ", ".join(parts)


class Description:
    """What ``romesim.describe`` returns: a scenario's parameters, metrics and decision points, as text and data.

    ``str()`` (and the notebook view) is the text ``romesim list NAME`` prints; ``to_dict()`` the JSON it prints.
    """

    def __init__(self, data, tables):
        self.data, self.tables = data, tables

    def to_dict(self):
        return {**self.data, "tables": {k: t.to_dict("records") for k, t in self.tables.items()}}

    def __str__(self):
        d, lines = self.data, []
        if "parameters" in d:
            lines += [f"{d['scenario']}  [{d['rule']}]  {d['title']}", f"p_win = {d['p_win']}", "",
                      "parameters (name = default: allowed values; meaning [rule]):"]
            for p in d["parameters"]:
                rule = f" [{p['rule']}]" if p["rule"] else ""
                lines.append(f"  {p['name']} = {_toml_literal(p['default'])}: {p['allowed']}"
                             + (f"; {p['doc']}" if p["doc"] else "") + rule)
            lines += ["", "metrics: " + ", ".join(d["metrics"]), f"exact: {'yes' if d['exact'] else 'no'}", ""]
        lines.append("decision points:" if d["decision_points"] else "decision points: none")
        for dp in d["decision_points"]:
            lines += [f"  {dp['name']} [{dp['rule']}]: {dp['doc']}",
                      "    state: " + _entries(dp["state"]),
                      f"    actions: {dp['actions']}",
                      f"    your own: @numba.njit {SIGNATURE_TEXT}; entries by name: S = romesim.state_index("
                      f"\"{d['scenario']}\", \"{dp['name']}\"), then state[S.{(dp['state'] or ('NAME',))[0]}]",
                      "    built-ins:"]
            for b in dp["builtins"]:
                vector = ", ".join(f"{k}={v:g}" for k, v in zip(b["params"], b["defaults"]))
                mark = " (default)" if b["name"] == dp["default"] else ""
                lines.append(f"      {b['name']}{mark}" + (f" [{vector}]" if vector else "") + f": {b['doc']}")
        for title, table in self.tables.items():
            lines += ["", f"{title}:", table.to_string(index=False)]
        return "\n".join(lines)

    __repr__ = __str__


def state_index(scenario, point):
    """The state entries of decision point ``point`` of ``scenario`` (a name, class or instance) as a named tuple
    of indices, for user functions: ``S = romesim.state_index("kings_of_rome.siege", "reroll")``, then
    ``state[S.die]`` inside the ``@numba.njit`` function (numba reads a global named tuple as constants)."""
    from .policy import state_index as index
    cls = get(scenario) if isinstance(scenario, str) else scenario if isinstance(scenario, type) else type(scenario)
    known = {dp.name: dp for dp in cls.decision_points}
    if point not in known:
        raise ScenarioError(f"{cls.name}: no decision point {point!r}{did_you_mean(point, known)}; "
                            f"decision points: {', '.join(known) or 'none'}")
    return index(known[point])


def describe(scenario, point=None):
    """Everything a user needs to set up ``scenario`` (a name, class or instance): every parameter with its
    default, allowed values, meaning and rule; the metrics; each decision point with its state entries, actions
    and built-in policies (what each does, its parameter vector); the game's reference tables. ``point`` keeps
    one decision point only."""
    cls = get(scenario) if isinstance(scenario, str) else scenario if isinstance(scenario, type) else type(scenario)
    points = cls.decision_points
    if point is not None:
        names = [dp.name for dp in points]
        if point not in names:
            raise ScenarioError(f"{cls.name}: no decision point {point!r}{did_you_mean(point, names)}; "
                                f"decision points: {', '.join(names) or 'none'}")
        points = [dp for dp in points if dp.name == point]
    data = {"scenario": cls.name}
    if point is None:
        data.update(rule=cls.rule, title=cls.title, p_win=cls.p_win, metrics=list(cls.metrics),
                    exact=cls.exact_solution is not Scenario.exact_solution,
                    parameters=[{"name": f.name, "default": _plain(f.default), "allowed": spec.allowed(),
                                 "doc": spec.doc, "rule": spec.rule}
                                for f in fields(cls) for spec in [f.metadata["param"]]])
    data["decision_points"] = [
        {"name": dp.name, "rule": dp.rule, "doc": dp.doc, "state": list(dp.state), "actions": dp.actions,
         "default": dp.default,
         "builtins": [{"name": name, "doc": b.doc, "params": list(b.params), "defaults": list(b.defaults)}
                      for name, b in sorted(dp.builtins.items(), key=lambda item: item[0] != dp.default)]}
        for dp in points]
    return Description(data, cls.reference_tables() if point is None else {})


__all__ = ["Scenario", "Seat", "Description", "describe", "state_index", "ParamSpec", "REQUIRED", "param",
           "option_table", "register", "get", "scenario", "load_toml", "list_scenarios"]
