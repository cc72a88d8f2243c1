"""The README's way of running a notebook headless with more games: ``jupyter nbconvert --execute``."""
import json
import os
import subprocess
import sys
from pathlib import Path

NOTEBOOK = Path(__file__).parent.parent / "notebooks" / "01_kings_of_rome_odds.ipynb"


def test_nbconvert_executes_a_notebook(tmp_path):
    env = {**os.environ, "ROMESIM_NOTEBOOK_N": "2000"}
    done = subprocess.run([sys.executable, "-m", "nbconvert", "--to", "notebook", "--execute", "--output-dir",
                           str(tmp_path), str(NOTEBOOK)], capture_output=True, text=True, env=env, timeout=600)
    assert done.returncode == 0, done.stderr[-2000:]
    cells = json.loads((tmp_path / NOTEBOOK.name).read_text())["cells"]
    code = [c for c in cells if c["cell_type"] == "code"]
    assert code and all(c["execution_count"] for c in code)
    assert not [o for c in code for o in c.get("outputs", []) if o["output_type"] == "error"]
