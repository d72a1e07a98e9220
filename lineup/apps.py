from django.apps import AppConfig


class LineUpConfig(AppConfig):
    """The composition root as an app: its management commands (run_embedded, run_desktop)."""

    name = "lineup"
    verbose_name = "LineUp"
