"""The balance loop: sweeps with common random numbers, a resumable store, comparisons, sensitivity, ratings,
equilibria, plots and reports. It knows no game: it only builds scenarios and policies and calls the engine."""
from . import store
from .compare import SPRTResult, compare, sprt, sprt_paired
from .equilibria import BimatrixEquilibrium, Equilibrium, bimatrix, payoff_table, zero_sum
from .ladder import default_bots, ladder
from .plots import heatmap, sweep_plot, tornado
from .ratings import bradley_terry, bt_standard_errors, elo, openskill_ratings, rate_matchups, rate_round_robin
from .report import write_report
from .robustness import HEADLINES, Finding, robustness
from .round_robin import Seat, round_robin
from .sensitivity import finite_differences, sobol
from .skill import SkillLuck, skill_luck
from .sweep import Sweep, load_sweep, sweep
from .tune import Tuned, tune

__all__ = ["store", "sweep", "Sweep", "load_sweep", "compare", "sprt", "sprt_paired", "SPRTResult",
           "finite_differences", "sobol", "bradley_terry", "bt_standard_errors", "elo", "openskill_ratings",
           "rate_round_robin", "rate_matchups", "round_robin", "Seat", "zero_sum", "bimatrix", "payoff_table",
           "Equilibrium", "BimatrixEquilibrium",
           "skill_luck", "SkillLuck", "heatmap", "sweep_plot", "tornado", "write_report", "ladder", "default_bots",
           "robustness", "Finding", "HEADLINES", "tune", "Tuned"]
