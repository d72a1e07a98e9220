"""The bundled MiniApps: Django apps built on ``runtime.api`` only (docs/miniapps.md)."""
