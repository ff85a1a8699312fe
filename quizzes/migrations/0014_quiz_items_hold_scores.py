"""Quiz items made before GradeItem.scores_from showed their scores at once: hold those of quizzes
that show points only once closed until the close, as quizzes.services.quiz_scores_from now
writes on the next sync. Frozen here (a migration must not import the services). A quiz that
never shows points keeps its item as staff left it: hiding it here would take back, unaudited,
scores students may long have seen; staff hide it in the gradebook, or change the quiz's options
(quiz_settings_apply hides it, audited)."""

from django.db import migrations


def hold_scores(apps, schema_editor) -> None:
    Quiz = apps.get_model("quizzes", "Quiz")
    GradeItem = apps.get_model("gradebook", "GradeItem")
    held = Quiz.objects.filter(kind="graded", review_points_after=False, review_points_closed=True)
    for quiz in held.only("pk", "closes_at", "late_until"):
        close = quiz.late_until or quiz.closes_at
        if close is not None:
            GradeItem.objects.filter(key=f"quiz:{quiz.pk}").update(scores_from=close)


class Migration(migrations.Migration):
    dependencies = [
        ("quizzes", "0013_unique_taken_messages"),
        ("gradebook", "0016_item_scores_from"),
    ]

    operations = [migrations.RunPython(hold_scores, migrations.RunPython.noop)]
