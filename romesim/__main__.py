"""``python -m romesim``: the same command line as the ``romesim`` script."""
import sys

from .cli import main

sys.exit(main())
