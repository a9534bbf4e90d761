"""``python -m ctxlib``: the ``ctxlib`` command (``ctxlib.cli.main``), for where the script is not on PATH."""
import sys

from ctxlib.cli import main

sys.exit(main())
