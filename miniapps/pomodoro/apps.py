from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class PomodoroConfig(AppConfig):
    name = "miniapps.pomodoro"
    label = "pomodoro"
    verbose_name = "Pomodoro"

    def ready(self) -> None:
        from miniapps.pomodoro import tools
        from runtime.api import register_miniapp

        register_miniapp(
            tools.APP_ID,
            tools={tools.START_TOOL: tools.start, tools.INTERRUPT_TOOL: tools.interrupt},
            result=tools.result,
            projection=tools.projection,
            detail_labels={"activity": _("activity")},
        )
