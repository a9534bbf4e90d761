"""``python -m ctxlib.cli``: the library's commands alone (the console script adds the classroom's)."""
import sys

from .main import main

sys.exit(main())
