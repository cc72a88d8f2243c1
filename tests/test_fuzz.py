"""Random parameter dicts thrown at every registered scenario: a clear ScenarioError or a finished run, never a
crash or a hang."""
from dataclasses import fields

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import romesim
from romesim.core.scenario import get

NAMES = sorted(romesim.list_scenarios()["scenario"])


def values_for(spec):
    """Mostly values near the field's domain (so many dicts are valid), sometimes any junk."""
    if spec.kind == "records":
        record = st.fixed_dictionaries({}, optional={name: values_for(s) for name, s, _ in spec.fields})
        near = st.lists(record, max_size=(spec.max_len or 6) + 1)
    else:
        near = {
            "int": st.integers(-2, 8),
            "bool": st.booleans(),
            "choice": st.sampled_from(list(spec.choices)),
            "ints": st.lists(st.integers(-1, 7), max_size=8),
            "text": st.sampled_from(["", "no/such/file.csv"]),
        }[spec.kind]
    junk = st.one_of(st.none(), st.floats(allow_nan=True), st.text(max_size=5), st.integers(-10**20, 10**20),
                     st.lists(st.text(max_size=2), max_size=3), st.dictionaries(st.text(max_size=2), st.integers()))
    return st.one_of(near, near, near, junk)


@st.composite
def parameter_dicts(draw, name):
    specs = get(name).parameters()
    chosen = draw(st.lists(st.sampled_from(sorted(specs)), unique=True, max_size=len(specs)))
    params = {key: draw(values_for(specs[key])) for key in chosen}
    if draw(st.integers(0, 9)) == 0:
        params[draw(st.text(min_size=1, max_size=8))] = draw(st.integers())
    return params


@pytest.mark.parametrize("name", NAMES)
@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(data=st.data())
def test_random_parameters_give_an_answer_or_a_clear_error(name, data):
    params = data.draw(parameter_dicts(name))
    try:
        scenario = romesim.scenario(name, **params)
    except romesim.ScenarioError as exc:
        message = str(exc)
        assert message and "\n" not in message
        return
    # a valid scenario is accepted as it was given and plays to the end
    given_back = scenario.to_dict()
    for key, value in params.items():
        if get(name).parameters()[key].kind != "records":  # records fill in their optional keys
            assert given_back[key] == (list(value) if isinstance(value, (list, tuple)) else value)
    result = romesim.simulate(scenario, 64, seed=data.draw(st.integers(0, 2**64 - 1)))
    assert result.n == 64
    if get(name).exact_solution is not romesim.Scenario.exact_solution:
        try:
            exact = romesim.exact(scenario)
        except romesim.ExactNotSupported as exc:  # e.g. battles beyond the exact solver's size: said in one line
            assert str(exc) and "\n" not in str(exc)
            return
        for metric in result.metrics:
            if metric.startswith("p_"):
                assert 0 <= exact[metric] <= 1


@pytest.mark.parametrize("name", NAMES)
def test_every_parameter_has_a_documented_domain(name):
    for f in fields(get(name)):
        spec = f.metadata["param"]
        assert spec.doc and spec.allowed()
