"""Vox Populi scenarios: ``vox_populi.game``, the whole game for 3-6 seats (2 with ``allow_two_players``).

Names, parameters, metrics and decision points follow ``docs/contracts/vox_populi.md``; rule options take their
values and defaults from ``data/vox_options.csv`` (spec section 13).
"""
import csv
from pathlib import Path

import numpy as np

from ..core.errors import ScenarioError
from ..core.scenario import REQUIRED, ParamSpec, Scenario, Seat, option_table, param, register
from .board import custom_graph, grid
from .game import MACHINE, game_kernel
from .policies import seat_points
from .state import (
    MAX_ACTIONS,
    MAX_DEGREE,
    MAX_PIECES,
    MAX_SEATS,
    N_CARDS,
    N_CELLS,
    OPTION_NAMES,
    P_ADJ,
    P_DECK_COPIES,
    P_INERT,
    P_DEGREE,
    P_MAX_TURNS,
    P_N,
    P_N_PIECES,
    P_OPT,
    P_PIECES,
    P_QUARTER,
    P_SIZE,
    POLITICIANS,
)

OPTIONS_CSV = Path(__file__).with_name("data") / "vox_options.csv"
option = option_table(OPTIONS_CSV)


def _option_values():
    with open(OPTIONS_CSV, newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(line for line in fh if not line.startswith("#")))
    names = tuple(row["option"] for row in rows)
    if names != OPTION_NAMES:
        raise RuntimeError("vox_options.csv and state.OPTION_NAMES list different options")
    return {row["option"]: row["values"].split("|") for row in rows}


OPTION_VALUES = _option_values()
DEFAULT_PIECES = (1, 1, 1, 1, 2, 2, 2, 3, 3, 3, 4, 4, 5, 5)
_POL_KEYS = ("pompee", "crassus", "cesar", "antoine", "octave", "brutus")
METRICS = (
    ("p_win",) + tuple(f"p_win_seat{s}" for s in range(MAX_SEATS))
    + ("p_shared_win", "turns", "p_end_popularity", "p_end_clubs", "p_turn_guard")
    + tuple(f"p_emperor_{k}" for k in _POL_KEYS)
    + ("p_no_emperor", "assassinations", "matches", "matches_cup", "matches_championship", "matches_international",
       "matches_star", "applause_wins", "applause_cup", "applause_championship", "applause_international",
       "applause_star", "cards_played")
    + tuple(f"money_seat{s}" for s in range(MAX_SEATS)) + tuple(f"hand_seat{s}" for s in range(MAX_SEATS))
    + ("winning_score", "emperor_popularity")
)
EDGE_FIELDS = (
    ("a", ParamSpec("int", "a cell", lo=0, hi=N_CELLS - 1), REQUIRED),
    ("b", ParamSpec("int", "another cell", lo=0, hi=N_CELLS - 1), REQUIRED),
)
UNSUPPORTED = {"allow_gifts": (True, "gifts and exchanges need a negotiation model (DP17), which is not built")}


def encode_option(name, value):
    """The integer a rule option has in the kernel's parameter vector: booleans 0/1, integer options their value,
    other choices the index of the value in ``vox_options.csv``."""
    if isinstance(value, bool):
        return int(value)
    if isinstance(value, int):
        return value
    return OPTION_VALUES[name].index(value)


@register
class Game(Scenario):
    name = "vox_populi.game"
    rule = "Vox Populi §1-§5 (spec 3-8)"
    title = "A whole game of Vox Populi: supporters, gladiators, matches, the Emperor and the Lanista of Rome"
    p_win = "seat 0 is among the winners (a shared win counts; p_shared_win says how often it is shared)"
    metrics = METRICS
    decision_points = seat_points()
    kernel = staticmethod(game_kernel)
    machine = MACHINE

    players: int = param(4, lo=2, hi=MAX_SEATS, doc="number of seats (2 only with allow_two_players)",
                         rule="VOX-A2")
    piece_values: tuple = param(DEFAULT_PIECES, kind="ints", lo=1, hi=5, min_len=2, max_len=MAX_PIECES,
                                doc="values of each club's pieces (an even number of them, every club the same)",
                                rule="§1.0, VOX-A3")
    deck_copies: tuple = param((1,) * N_CARDS, kind="ints", lo=0, hi=1, min_len=N_CARDS, max_len=N_CARDS,
                               doc="copies of each card VP01..VP55 in the deck (0 removes a card)", rule="VOX-A15")
    inert_cards: tuple = param((0,) * N_CARDS, kind="ints", lo=0, hi=1, min_len=N_CARDS, max_len=N_CARDS,
                               doc="1 makes a card of the deck inert: shuffled and drawn as usual but never playable "
                                   "(the baseline of reports.card_impact)", rule="VOX-A15")
    board_quarters: tuple = param((), kind="ints", lo=0, hi=5, max_len=N_CELLS,
                                  doc="with board_graph = custom: the quarter of each of the 48 cells (8 per quarter)",
                                  rule="VOX-A4")
    board_edges: tuple = param((), kind="records", max_len=N_CELLS * MAX_DEGREE, fields=EDGE_FIELDS,
                               doc="with board_graph = custom: adjacent cell pairs {a, b} (at most 8 per cell)",
                               rule="VOX-A4")
    turn_guard: int = param(400, lo=1, hi=10_000,
                            doc="safety stop after this many turns (flagged by p_turn_guard; never reached by the "
                                "rules, which end a game within 7 turns per seat)", rule="spec 8.1")
    turn_direction: str = option("turn_direction")
    allow_two_players: bool = option("allow_two_players")
    arena_setup_start: str = option("arena_setup_start")
    board_graph: str = option("board_graph")
    vote_only_if_attending: bool = option("vote_only_if_attending")
    end_scope: str = option("end_scope")
    empty_club_turn: str = option("empty_club_turn")
    count_waiting_gladiators: bool = option("count_waiting_gladiators")
    decoy_limit: str = option("decoy_limit")
    decoy_supply: str = option("decoy_supply")
    decoy_buy: str = option("decoy_buy")
    bank_limit: int = option("bank_limit")
    card_colour_map: str = option("card_colour_map")
    die_override_any_phase: bool = option("die_override_any_phase")
    max_overrides_per_die: int = option("max_overrides_per_die")
    card_window_protocol: str = option("card_window_protocol")
    arena_cards_after_commit: bool = option("arena_cards_after_commit")
    vox_dei_scope: str = option("vox_dei_scope")
    guest_scope: str = option("guest_scope")
    dead_can_be_targeted: bool = option("dead_can_be_targeted")
    assassination_cap: int = option("assassination_cap")
    expulsion_own_only: bool = option("expulsion_own_only")
    expulsion_target: str = option("expulsion_target")
    depense_fail: str = option("depense_fail")
    bookmaker_payout: str = option("bookmaker_payout")
    pool_protocol: str = option("pool_protocol")
    vote_reaction_timing: str = option("vote_reaction_timing")
    emeute_needs_cleopatra: bool = option("emeute_needs_cleopatra")
    affaire_moves_lover: bool = option("affaire_moves_lover")
    dream_team_colour: str = option("dream_team_colour")
    forced_match_window: str = option("forced_match_window")
    amicales_by_active: bool = option("amicales_by_active")
    epique_eval: str = option("epique_eval")
    absent_scope: str = option("absent_scope")
    popularity_floor: int = option("popularity_floor")
    allow_gifts: bool = option("allow_gifts")
    slip_order: str = option("slip_order")
    forced_payment: str = option("forced_payment")
    hooligans_scope: str = option("hooligans_scope")
    public_money: bool = option("public_money")
    decoy_distinguishable: bool = option("decoy_distinguishable")
    open_stars: bool = option("open_stars")


    def check(self):
        if self.players == 2 and not self.allow_two_players:
            raise ScenarioError("players: 2 is not allowed unless allow_two_players = true (VOX-A2); "
                                "expected 3 to 6")
        if len(self.piece_values) % 2:
            raise ScenarioError(f"piece_values: {list(self.piece_values)!r} has {len(self.piece_values)} pieces; "
                                "expected an even number (each turn uses two pieces, spec 6.1)")
        if self.board_graph == "custom":
            custom_graph(self.board_quarters, [(e["a"], e["b"]) for e in self.board_edges])
        elif self.board_quarters or self.board_edges:
            raise ScenarioError("board_quarters/board_edges: only used with board_graph = custom; got board_graph = "
                                f"{self.board_graph!r}")
        for name, (value, why) in UNSUPPORTED.items():
            if getattr(self, name) == value:
                raise ScenarioError(f"{name}: {value!r} is not supported: {why}; use the default")

    def compiled(self):
        """The kernel's int64 parameter vector (``state.P_*``)."""
        p = np.zeros(P_SIZE, np.int64)
        p[P_N] = self.players
        p[P_N_PIECES] = len(self.piece_values)
        p[P_PIECES:P_PIECES + len(self.piece_values)] = self.piece_values
        if self.board_graph == "custom":
            quarter, degree, adjacency = custom_graph(self.board_quarters,
                                                      [(e["a"], e["b"]) for e in self.board_edges])
        else:
            quarter, degree, adjacency = grid(self.board_graph)
        p[P_QUARTER:P_QUARTER + N_CELLS] = quarter
        p[P_DEGREE:P_DEGREE + N_CELLS] = degree
        p[P_ADJ:P_ADJ + N_CELLS * MAX_DEGREE] = adjacency.ravel()
        p[P_MAX_TURNS] = self.turn_guard
        p[P_DECK_COPIES:P_DECK_COPIES + N_CARDS] = self.deck_copies
        p[P_INERT:P_INERT + N_CARDS] = self.inert_cards
        for i, name in enumerate(OPTION_NAMES):
            p[P_OPT + i] = encode_option(name, getattr(self, name))
        return p

    def seats(self):
        return tuple(Seat(f"seat{s}", f"seat{s}", f"p_win_seat{s}") for s in range(self.players))

    def all_actions(self, point):
        """A seat's decisions take actions ``0 .. MAX_ACTIONS - 1`` (DP01: 6 politicians x 48 cells, the most)."""
        if point in [dp.name for dp in self.decision_points]:
            return tuple(range(MAX_ACTIONS))
        return super().all_actions(point)

    def kernel_args(self):
        return (self.compiled(),)

    def narrator(self):
        from .narrative import GameNarrator
        return GameNarrator()


__all__ = ["Game", "METRICS", "POLITICIANS", "encode_option"]
