"""``python -m lineup.desktop``: the Desktop Host (see ``lineup/desktop/__init__.py``)."""

from lineup.desktop.app import main

raise SystemExit(main())
