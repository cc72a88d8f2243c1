"""``python -m benchmarks.search``: what a search bot costs, per whole game.

For each case (a scenario, a decision point, a search and its budget): games/s with the search at that point and
with the point's default built-in, in one process and on all numba threads; the ratio of the two (how many times a
game costs more with the search); the decisions the point asks per game (``romesim.new_game`` stepped with the first
legal action at the point, over ``--sample`` games: an estimate, the search's own choices may lead elsewhere); and
from them search decisions/s and playouts/s (decisions/s times the budget).
"""
import argparse
import json

import numba

import romesim

from .runner import best_rate

CASES = (
    ("kings_of_rome.battle", "tactic", "ismcts", 64),
    ("kings_of_rome.battle", "tactic", "flat_mc", 64),
    ("jugule.duel", "a_allocate", "ismcts", 64),
    ("vox_populi.game", "seat0", "ismcts", 16),
    ("semper_victor.battle", "losses", "ismcts", 64),
    ("semper_victor.usurpation", "target", "ismcts", 64),
)


def decisions_per_game(scenario, point, sample):
    """Mean decisions at ``point`` per game, stepping ``sample`` games with the first legal action there."""
    total = 0
    for game in range(sample):
        state = romesim.new_game(scenario, seed=0, game=game, control=[point])
        while not state.is_terminal:
            total += 1
            state = state.apply(state.legal_actions()[0])
    return total / sample


def measure(name, point, search, budget, min_time, sample):
    scenario = romesim.scenario(name)
    searched = {point: (search, {"budget": budget})}
    rate = lambda policies: best_rate(  # noqa: E731
        lambda k: romesim.simulate(scenario, k, policies=policies, progress=False), 4, min_time)[0]
    romesim.simulate(scenario, 2, policies=searched, progress=False)  # compiles or loads the search variant
    with_search, without = rate(searched), rate(None)
    per_game = decisions_per_game(scenario, point, sample)
    return dict(scenario=name, point=point, search=search, budget=budget, threads=numba.get_num_threads(),
                games_per_s=with_search, default_games_per_s=without, cost=without / with_search,
                decisions_per_game=per_game, decisions_per_s=with_search * per_game,
                playouts_per_s=with_search * per_game * budget)


def main(argv=None):
    parser = argparse.ArgumentParser(prog="python -m benchmarks.search", description=__doc__.split("\n")[0])
    parser.add_argument("--min-time", type=float, default=1.0, help="seconds a timed run must last at least")
    parser.add_argument("--sample", type=int, default=20, help="games stepped to count the decisions per game")
    parser.add_argument("--scenario", nargs="+", help="only these scenarios")
    parser.add_argument("--json", help="also write the rows as JSON")
    args = parser.parse_args(argv)
    rows = [measure(*case, args.min_time, args.sample) for case in CASES
            if not args.scenario or case[0] in args.scenario]
    header = f"{'scenario':26s} {'point':11s} {'search':10s} {'games/s':>10s} {'cost':>7s} {'dec/game':>9s} " \
             f"{'decisions/s':>12s} {'playouts/s':>12s}"
    print(header)
    print("-" * len(header))
    for r in rows:
        print(f"{r['scenario']:26s} {r['point']:11s} {r['search'] + ' ' + str(r['budget']):10s} "
              f"{r['games_per_s']:10,.0f} {r['cost']:6.0f}x {r['decisions_per_game']:9.2f} "
              f"{r['decisions_per_s']:12,.0f} {r['playouts_per_s']:12,.0f}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
