from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _own_attempt(pk: int, student, item) -> bool:
    from quizzes.models import Attempt

    attempt = Attempt.objects.owned_by(student).select_related("quiz").filter(pk=pk).first()
    return attempt is not None and attempt.quiz.gradebook_key == item.key


class QuizzesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "quizzes"
    verbose_name = _("测验")

    def ready(self) -> None:
        from gradebook.refs import ref_kind_register

        ref_kind_register("quiz-attempt", _own_attempt)
