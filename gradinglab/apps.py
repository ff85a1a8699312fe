from django.apps import AppConfig
from django.utils.translation import gettext_lazy as _


def _own_submission(pk: int, student, item) -> bool:
    from gradinglab.models import Submission

    assignment_id = (
        Submission.objects.owned_by(student)
        .filter(pk=pk)
        .values_list("assignment_id", flat=True)
        .first()
    )
    return assignment_id is not None and item.key == f"lab:{assignment_id}"


class GradinglabConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "gradinglab"
    verbose_name = _("实验")

    def ready(self) -> None:
        from gradebook.refs import ref_kind_register
        from gradinglab import api_schema  # noqa: F401  (registers the OpenAPI credential schemes)

        ref_kind_register("submission", _own_submission)
