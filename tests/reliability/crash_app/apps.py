from django.apps import AppConfig


class CrashAppConfig(AppConfig):
    """The crash rig's MiniApp (installed only with ``LINEUP_CRASH_APP=1``: tests)."""

    name = "tests.reliability.crash_app"
    label = "crashpad"
    verbose_name = "Crash-point instance calls"

    def ready(self) -> None:
        from runtime.api import register_miniapp
        from tests.reliability.crash_app import tools

        register_miniapp(tools.APP_ID, tools={tools.OPEN: tools.open_pad, tools.CLOSE: tools.close_pad})
