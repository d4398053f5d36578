"""``python -m tokens_edu.cli``: the same as the ``tokens-edu`` command."""

import sys

from . import main

sys.exit(main())
