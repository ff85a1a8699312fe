from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _own_attempt(pk: int, student, item) -> bool:
    from quizzes.models import Attempt

    quiz_id = (
        Attempt.objects.owned_by(student).filter(pk=pk).values_list("quiz_id", flat=True).first()
    )
    return quiz_id is not None and item.key == f"quiz:{quiz_id}"


class QuizzesConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "quizzes"
    verbose_name = _("测验")

    def ready(self) -> None:
        from gradebook.refs import ref_kind_register

        ref_kind_register("quiz-attempt", _own_attempt)
