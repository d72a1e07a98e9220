from django.apps import AppConfig


class ConformanceConfig(AppConfig):
    """The MCP conformance suite's fixture tools (tests only: settings install this app only when
    ``LINEUP_MCP_CONFORMANCE_FIXTURES=1``)."""

    name = "tests.lineup.gateways.mcp.conformance_app"
    label = "conformance"
    verbose_name = "MCP conformance fixtures"

    def ready(self) -> None:
        from runtime.api import register_miniapp
        from tests.lineup.gateways.mcp.conformance_app import tools

        register_miniapp(
            tools.APP_ID,
            tools={
                tools.SLOW_COMPUTE: tools.slow_compute,
                tools.FAILING_JOB: tools.failing_job,
                tools.GREET: tools.greet,
            },
            result=tools.result,
        )
