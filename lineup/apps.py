from django.apps import AppConfig


class LineUpConfig(AppConfig):
    """The composition root as an app: its management commands (run_embedded, run_desktop), and
    the MCP gateway's part of the periodic sweep."""

    name = "lineup"
    verbose_name = "LineUp"

    def ready(self) -> None:
        from lineup.gateways.mcp.bridge import TASK_TTL_SWEEPER, ack_lapsed_tasks
        from runtime.extensions import register_sweeper

        register_sweeper(TASK_TTL_SWEEPER, ack_lapsed_tasks)
