"""romesim's version, part of every stored result's key."""
from importlib.metadata import PackageNotFoundError, version

try:
    VERSION = version("romesim")
except PackageNotFoundError:  # running from a source tree
    VERSION = "0.1.0.dev0"
