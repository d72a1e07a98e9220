from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuizConfig(AppConfig):
    name = "miniapps.quiz"
    label = "quiz"
    verbose_name = "Practice quiz"

    def ready(self) -> None:
        # Register the tool handlers before the Runtime validates the manifests (docs/miniapps.md).
        from miniapps.quiz import tools
        from runtime.api import register_miniapp

        register_miniapp(
            tools.APP_ID,
            tools={tools.START_TOOL: tools.start, tools.STOP_TOOL: tools.stop},
            result=tools.result,
            projection=tools.projection,
            # The answer key (details) and each question's answer (quiz.start's arguments): no
            # admin page or log line shows them.
            private_details=[tools.ANSWER_KEY, tools.QUESTION_ANSWER],
            detail_labels={tools.ANSWER_KEY: _("answer key"), "title": _("title")},
        )
