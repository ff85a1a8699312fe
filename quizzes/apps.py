from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuizzesConfig(AppConfig):
    name = "quizzes"
    verbose_name = _("测验")

    def ready(self) -> None:
        from gradebook.refs import ref_kind_register_owned
        from quizzes.models import Attempt

        attempts = Attempt.objects.select_related("quiz")
        ref_kind_register_owned(
            "quiz-attempt", attempts, lambda attempt: attempt.quiz.gradebook_key
        )
