import pytest
from django.urls import reverse

from accounts.access import is_staff_member
from accounts.roles import ROLE_PERMISSIONS, role_of


@pytest.mark.django_db
def test_student_has_no_model_permissions(student_a) -> None:
    assert role_of(student_a) == "student"
    assert not student_a.is_staff and not is_staff_member(student_a)
    assert student_a.get_all_permissions() == set()


@pytest.mark.django_db
def test_ta_may_view_regrade_and_override_but_not_delete(ta) -> None:
    assert ta.is_staff and is_staff_member(ta)
    assert ta.has_perm("gradebook.override_grade")
    assert ta.has_perm("gradebook.view_grade")
    assert ta.has_perm("gradebook.view_gradeevent")
    assert not ta.has_perm("gradebook.delete_grade")
    assert not ta.has_perm("gradebook.delete_gradeitem")
    assert not ta.has_perm("gradebook.release_grades")
    assert not any(perm.split(".")[1].startswith("delete_") for perm in ta.get_all_permissions())


@pytest.mark.django_db
def test_instructor_manages_items_and_releases_but_never_deletes(instructor) -> None:
    assert instructor.has_perm("gradebook.override_grade")
    assert instructor.has_perm("gradebook.release_grades")
    assert instructor.has_perm("gradebook.change_gradeitem")
    assert not any(
        perm.split(".")[1].startswith("delete_") for perm in instructor.get_all_permissions()
    )


@pytest.mark.django_db
def test_every_existing_role_permission_is_granted(ta, instructor) -> None:
    from django.contrib.auth.models import Permission

    for user, role in ((ta, "ta"), (instructor, "instructor")):
        for label in ROLE_PERMISSIONS[role]:
            app_label, codename = label.split(".")
            if Permission.objects.filter(
                content_type__app_label=app_label, codename=codename
            ).exists():
                assert user.has_perm(label), f"{role} lacks {label}"


@pytest.mark.django_db
def test_admin_is_open_to_staff_roles_only(client_a, client_ta, client_instructor) -> None:
    url = reverse("admin:index")
    assert client_a.get(url).status_code == 302  # students are sent to the admin login
    assert client_ta.get(url).status_code == 200
    assert client_instructor.get(url).status_code == 200
    grade_list = reverse("admin:gradebook_grade_changelist")
    assert client_ta.get(grade_list).status_code == 200
    assert client_a.get(grade_list).status_code == 302


@pytest.mark.django_db
def test_ta_may_view_comment_regrade_and_flag_submissions_but_not_delete(ta, instructor) -> None:
    assert ta.has_perm("gradinglab.view_submission")
    assert ta.has_perm("gradinglab.rerun_submission")
    assert ta.has_perm("gradebook.resolve_regraderequest")
    assert not ta.has_perm("gradinglab.rescore_assignment")  # three words, three permissions
    assert instructor.has_perm("gradinglab.rescore_assignment")
    assert instructor.has_perm("gradebook.change_extension")
    assert instructor.has_perm("gradebook.change_excusal")
    assert ta.has_perm("gradinglab.flag_submission")
    assert ta.has_perm("gradinglab.change_submission")  # the comment a student sees
    assert not ta.has_perm("gradinglab.delete_submission")
    assert not ta.has_perm("gradinglab.add_assignment")
    assert instructor.has_perm("gradinglab.add_assignment")
    assert not instructor.has_perm("gradinglab.delete_submission")


@pytest.mark.django_db
def test_a_ta_who_may_change_a_question_sees_and_edits_its_choices(client_ta) -> None:
    """Choices are edited inline on the question's admin page; without the choice permissions
    Django hides the inline, and a TA saw a multiple-choice question with no choices."""
    from quizzes.tests.factories import question_single

    question = question_single("rp-s1")
    url = reverse("admin:quizzes_question_change", args=[question.pk])
    page = client_ta.get(url).content.decode()
    assert 'name="choices-TOTAL_FORMS"' in page
    texts = list(question.choices.values_list("text", flat=True))
    assert texts and all(f"{text}</textarea>" in page for text in texts)


@pytest.mark.django_db
def test_migrate_alone_leaves_every_role_with_its_whole_table() -> None:
    # No user fixture here: those call roles_sync themselves. This is what migrate's post_migrate
    # hook left, which runs the sync once, on the last app's signal, when every permission exists.
    from django.contrib.auth.models import Group

    for role, labels in ROLE_PERMISSIONS.items():
        group = Group.objects.get(name=role)
        granted = {
            f"{app_label}.{codename}"
            for app_label, codename in group.permissions.values_list(
                "content_type__app_label", "codename"
            )
        }
        assert granted == set(labels), role
