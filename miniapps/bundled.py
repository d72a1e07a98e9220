"""The bundled MiniApps this project runs, in start-up order (``manage.py startminiapp`` adds to it).

Each is a Django app; settings put them in ``INSTALLED_APPS`` before ``runtime``, so each
registers its tool handlers before the Runtime validates the manifests (docs/miniapps.md).
"""

BUNDLED_MINIAPPS = [
    "miniapps.pomodoro",
    "miniapps.notes",
    "miniapps.quiz",
]
