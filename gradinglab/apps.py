from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


class GradinglabConfig(AppConfig):
    name = "gradinglab"
    verbose_name = _("实验")

    def ready(self) -> None:
        from gradebook.refs import ref_kind_register_owned
        from gradebook.services import due_follower_register
        from gradinglab import api_schema  # noqa: F401  (registers the OpenAPI credential schemes)
        from gradinglab.models import Submission

        submissions = Submission.objects.select_related("assignment")
        ref_kind_register_owned(
            "submission", submissions, lambda sub: sub.assignment.grade_item_key
        )
        from gradinglab.services.results import assignment_grade_follow_due

        due_follower_register("lab:", assignment_grade_follow_due)
