"""The procedures as a game designer would write them: plain Python and ``random.randint``.

Each ``play_*`` plays one game under the scenario's default rule options and built-in policies and returns the
outcomes in the order of the scenario's metrics; ``run_loop`` plays ``n`` games and totals every metric. They are
the denominator of the "kernel vs Python" ratio, so they are written from the rules (kings_of_rome.md 2.2, 2.7,
2.14) the plain way, without the tricks a speed-minded programmer would reach for.
"""
import random

from romesim.core.rng import Dice


def d6():
    return random.randint(1, 6)


def play_siege(garrison=2, leader=0, nr_units=0, commander="king", astutia=0):
    """KoR 5.5: roll a, then roll b, with one Astutia reroll (5.7.9) of a failed roll that a reroll could still
    win; roll a keeps the last point when roll b wins on more faces (the `greedy` policy).

    Returns (win, submit, city_taken, abandon, ip, vp, hostile_reactions, tokens_r_to_nr, tokens_nr_to_r,
    nr_units_lost, leader_captured).
    """
    king_led = commander in ("king", "interrex")  # an Interrex counts as the King (KOR-A34)
    rerolls_left = astutia
    dice = 0

    def roll_b_ok(die):  # roll b: the garrison counts one Virtus more; either criterion succeeds
        return (garrison > 0 and die >= 2 * (garrison + 1)) or (leader > 0 and die > leader)

    def siege_roll(succeeds, keep_for_b):
        nonlocal rerolls_left, dice
        die = d6()
        dice += 1
        if not succeeds(die) and rerolls_left > 0:
            faces = sum(succeeds(face) for face in range(1, 7))
            if faces and not (keep_for_b(faces) and rerolls_left == 1):
                rerolls_left -= 1
                die = d6()
                dice += 1
        return succeeds(die)

    win = submit = city_taken = ip = vp = units_lost = leader_captured = 0
    # roll a: exceed twice the leader's Virtus, or the garrison's when no leader is in the city
    target = leader if leader else garrison
    b_faces = sum(roll_b_ok(face) for face in range(1, 7))
    if siege_roll(lambda die: die > 2 * target, lambda faces: faces < b_faces):
        win = submit = city_taken = 1
        units_lost = nr_units  # the whole city submits; its leader goes to the R container, not captured
        ip += 2
    else:
        if siege_roll(roll_b_ok, lambda faces: False):
            win = 1
            has_garrison, has_leader, units = garrison > 0, leader > 0, nr_units
            for loss in range(2 if king_led else 1):
                if king_led and loss == 1 and has_leader:
                    has_leader, leader_captured = False, 1  # one of the King's two losses must be the leader
                elif has_garrison:
                    has_garrison = False  # flipped to Rome
                elif units:
                    units -= 1
                    units_lost += 1
                elif has_leader:
                    has_leader, leader_captured = False, 1
            if has_leader and not has_garrison and not units:
                leader_captured = 1  # an NR leader left alone in the city is captured
            city_taken = int(not has_garrison and not units)
            if king_led:
                ip += 3
            else:
                vp += 1
    if not win:
        if king_led:
            ip -= 2
        else:
            vp -= 1
        if commander == "tribune":
            if d6() + d6() - 1 <= 8:  # ignominy trial after a lost siege: convicted
                ip -= 3
    if commander == "tribune":
        ip += 1 if win else -1  # 9.2.7.1: the Tribune's own +1 / -1 IP after the siege
    # one hostile reaction per die rolled, rerolls included (5.5.1)
    return win, submit, city_taken, 1 - win, ip, vp, dice, 2 * (1 - win), win, units_lost, leader_captured


def play_treason(garrison=2, ip_spent=0, ip_available=10):
    """KoR 6.3: the garrison turns if d6 - k exceeds its Virtus. Returns (treason_failed, ip, vp)."""
    k = min(ip_spent, ip_available - 1)  # never spend down to 0 IP, which loses the game (C7)
    failed = d6() - k <= garrison
    return int(failed), -k, int(failed)


def play_ignominy(lost="battle"):
    """KoR 5.7.11: acquitted if 2d6 - 2 (lost battle) or - 1 (lost siege) exceeds 8. Returns (acquitted, ip)."""
    result = d6() + d6() - (2 if lost == "battle" else 1)
    acquitted = result > 8
    return int(acquitted), 0 if acquitted else -3


class RandomDice(Dice):
    """Dice from ``random.randint``, for the procedures that have no hand-written loop here: the scenario's own
    plain-Python reference (written from the rules, readable, not tuned) driven by Python's ``random``."""

    def dn(self, n):
        return random.randint(1, n)


def reference_player(scenario):
    """``play()`` for ``run_loop``: one game of ``scenario``'s reference procedure on ``RandomDice``."""
    from romesim.core.policy import resolve

    policies, dice = resolve(scenario.decision_points), RandomDice()
    return lambda: scenario.reference(dice, policies)


def run_loop(play, n, seed=0, **params):
    """Totals of every outcome of ``n`` games of ``play(**params)``."""
    random.seed(seed)
    totals = list(play(**params))
    for _ in range(n - 1):
        for i, value in enumerate(play(**params)):
            totals[i] += value
    return totals
