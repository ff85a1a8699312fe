from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _own_submission(pk: int, student, item) -> bool:
    from gradinglab.models import Submission

    owned = Submission.objects.owned_by(student).select_related("assignment")
    submission = owned.filter(pk=pk).first()
    return submission is not None and submission.assignment.grade_item_key == item.key


class GradinglabConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "gradinglab"
    verbose_name = _("实验")

    def ready(self) -> None:
        from gradebook.refs import ref_kind_register
        from gradinglab import api_schema  # noqa: F401  (registers the OpenAPI credential schemes)

        ref_kind_register("submission", _own_submission)
