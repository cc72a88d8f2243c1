"""``records`` parameters (lists of tables): validation, immutability, TOML, pickling to worker processes."""
import copy
import pickle

import pytest

import romesim

USURPATION = "semper_victor.usurpation"


def test_records_are_validated_key_by_key():
    with pytest.raises(romesim.ScenarioError, match=r"usurpations\[0\]: unknown key 'targte'"):
        romesim.scenario(USURPATION, usurpations=[{"stratagem": "leader", "targte": 4}])
    with pytest.raises(romesim.ScenarioError, match=r"usurpations\[0\]: 3 is not allowed; expected a table"):
        romesim.scenario(USURPATION, usurpations=[3])


def test_records_are_immutable_and_hashable():
    scenario = romesim.scenario(USURPATION)
    with pytest.raises(TypeError, match="immutable"):
        scenario.leaders[0]["pc"] = 6
    assert hash(scenario) == hash(romesim.scenario(USURPATION))


def test_records_round_trip_through_toml_pickle_and_copy():
    scenario = romesim.scenario(USURPATION, usurpations=[{"stratagem": "leader", "target": 4}])
    assert romesim.load_toml(scenario.to_toml())[0] == scenario
    assert pickle.loads(pickle.dumps(scenario)) == scenario
    assert copy.deepcopy(scenario) == scenario


def test_records_scenarios_run_in_worker_processes():
    scenario = romesim.scenario(USURPATION)
    local = romesim.simulate(scenario, 20_000, seed=3)
    pooled = romesim.simulate(scenario, 20_000, seed=3, workers=2, chunk=5_000)
    assert (local.sums == pooled.sums).all() and (local.sumsq == pooled.sumsq).all()
