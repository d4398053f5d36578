"""``python -m tokens_edu.server SETTINGS [VOILA-ARGS...]``: the Voila side of ``tokens-edu serve``.

``SETTINGS`` is one JSON object (the settings of :class:`tokens_edu.server.settings.ServeSettings`,
by name); the rest is Voila's command line. ``tokens-edu serve`` (:mod:`tokens_edu.server.launcher`) builds both.
"""

import sys

from .voila import main

if __name__ == "__main__":
    if len(sys.argv) < 2 or not sys.argv[1].startswith("{"):
        print("usage: python -m tokens_edu.server SETTINGS-JSON [VOILA-ARGS...] "
              "(tokens-edu serve runs this for you)", file=sys.stderr)
        sys.exit(2)
    sys.exit(main(sys.argv[1], sys.argv[2:]))
