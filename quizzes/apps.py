from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class QuizzesConfig(AppConfig):
    name = "quizzes"
    verbose_name = _("测验")

    def ready(self) -> None:
        from gradebook.refs import ref_kind_register_owned
        from gradebook.services import due_follower_register
        from quizzes.models import Attempt
        from quizzes.services import quiz_grade_follow_due

        attempts = Attempt.objects.select_related("quiz")
        ref_kind_register_owned(
            "quiz-attempt", attempts, lambda attempt: attempt.quiz.gradebook_key
        )
        due_follower_register("quiz:", quiz_grade_follow_due)
