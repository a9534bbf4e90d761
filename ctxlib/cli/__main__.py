"""``python -m ctxlib.cli``: the ``ctxlib`` command, as ``python -m ctxlib``."""
import sys

from .main import main

sys.exit(main())
