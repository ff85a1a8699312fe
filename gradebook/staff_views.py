"""Staff pages: grid, item summary, student detail with its actions, release, import/export, queue.

Every view here is wrapped in `staff_required`; release additionally needs `can_release`.
"""

from __future__ import annotations

from collections.abc import Callable

from django import forms
from django.contrib import messages
from django.contrib.auth import get_user_model
from django.core.exceptions import PermissionDenied
from django.db import transaction
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_POST

from accounts.access import staff_required
from gradebook import csvio, selectors, services
from gradebook import forms as gb_forms
from gradebook.access import can_add_items, can_curve, can_release, staff_write_check
from gradebook.charts import histogram_svg
from gradebook.models import Grade, GradeItem, RegradeRequest
from pdcsite.params import query_id

User = get_user_model()


def _csv(body: str, filename: str) -> HttpResponse:
    # The BOM makes Excel read the file as UTF-8 (Chinese names and item titles, not mojibake).
    response = HttpResponse(csvio.BOM + body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    return response


def _grid_filters(request: HttpRequest) -> dict:
    return {
        "category": request.GET.get("category", ""),
        "item_id": query_id(request.GET.get("item")),
        "section": request.GET.get("section", ""),
    }


@staff_required
@require_GET
def grid(request: HttpRequest) -> HttpResponse:
    filters = _grid_filters(request)
    context = selectors.grid(**filters) | {
        "filters": filters,
        "sections": selectors.sections(),
        "all_items": GradeItem.objects.order_by("due_at", "key"),
        "query": request.GET.urlencode(),
    }
    return render(request, "gradebook/staff/grid.html", context)


@staff_required
@require_GET
def grid_csv(request: HttpRequest) -> HttpResponse:
    return _csv(csvio.gradebook_export(selectors.grid(**_grid_filters(request))), "gradebook.csv")


def _item_page(
    request: HttpRequest,
    item: GradeItem,
    curve_form: gb_forms.CurveForm | None = None,
    preview: selectors.CurvePreview | None = None,
    status: int = 200,
) -> HttpResponse:
    summary, results = selectors.item_summary(item)
    chart = histogram_svg(selectors.histogram(summary.percents), title=_("得分分布（%）"))
    curve = item.curve
    current = {"kind": curve.kind, "value": curve.number} if curve else {}
    events = list(selectors.curve_events(item))  # listed, and the version the form is loaded over
    current["loaded"] = selectors.curve_version(item, events)
    context = {
        "item": item,
        "category_title": summary.category_title,
        "summary": summary,
        "results": results,
        "chart": chart,
        "can_release": can_release(request.user),
        "can_curve": can_curve(request.user),
        "curve_form": curve_form or gb_forms.CurveForm(prefix="curve", initial=current),
        "curve_preview": preview,
        "curve_events": events,
    }
    return render(request, "gradebook/staff/item.html", context, status=status)


@staff_required
@require_GET
def item_detail(request: HttpRequest, item_id: int) -> HttpResponse:
    return _item_page(request, get_object_or_404(GradeItem, pk=item_id))


@staff_required
@require_POST
def item_curve(request: HttpRequest, item_id: int) -> HttpResponse:
    """Preview, save or remove the item's curve ("do"); a refused one shows the form as typed
    (409 where someone else changed the curve since the page was loaded)."""
    staff_write_check(request.user, "curve")
    item = get_object_or_404(GradeItem, pk=item_id)
    form = gb_forms.CurveForm(request.POST, prefix="curve")
    do = request.POST.get("do", "preview")
    if not form.is_valid():
        return _item_page(request, item, curve_form=form, status=400)
    data = form.cleaned_data
    try:
        if do == "remove":
            if services.grade_item_curve_remove(
                item=item, actor=request.user, reason=data["reason"], loaded=data["loaded"]
            ):
                messages.success(request, _("已撤销曲线：{item}").format(item=str(item)))
            else:
                messages.info(request, _("本项没有曲线，无需撤销。"))
            return redirect("gradebook:staff_item", item_id=item.pk)
        curve = services.curve_parse(item=item, kind=data["kind"], value=data["value"])
        if do == "save":
            services.grade_item_curve_set(
                item=item,
                kind=data["kind"],
                value=data["value"],
                actor=request.user,
                reason=data["reason"],
                loaded=data["loaded"],
            )
            messages.success(request, _("已保存曲线：{item}").format(item=str(item)))
            return redirect("gradebook:staff_item", item_id=item.pk)
    except services.CurveConflict as exc:
        form = form.over(exc.version)
        form.add_error(None, str(exc))
        return _item_page(request, item, curve_form=form, status=409)
    except services.GradeError as exc:
        form.add_error(exc.field if exc.field in form.fields else None, str(exc))
        return _item_page(request, item, curve_form=form, status=400)
    preview = selectors.curve_preview(item, curve)
    return _item_page(request, item, curve_form=form, preview=preview)


@staff_required
@require_GET
def item_csv(request: HttpRequest, item_id: int) -> HttpResponse:
    item = get_object_or_404(GradeItem, pk=item_id)
    _summary, results = selectors.item_summary(item)
    grades = {g.student_id: g for g in Grade.objects.filter(item=item)}
    filename = f"{item.key.replace(':', '-')}.csv"
    return _csv(csvio.item_export(item, results, grades), filename)


@staff_required
@require_POST
def item_release(request: HttpRequest, item_id: int) -> HttpResponse:
    if not can_release(request.user):
        raise PermissionDenied("only instructors release scores")
    item = get_object_or_404(GradeItem, pk=item_id)
    item = services.item_release_set(
        item=item, released=request.POST.get("released") == "1", actor=request.user
    )
    context = {"item": item, "can_release": True}
    if request.htmx:
        return render(request, "gradebook/partials/release.html", context)
    return redirect("gradebook:staff_item", item_id=item.pk)


# --- Per-student detail and its actions ----------------------------------------------------------

_ACTION_FORMS: dict[str, type[forms.Form]] = {
    "override": gb_forms.OverrideForm,
    "override_clear": gb_forms.OverrideClearForm,
    "extension": gb_forms.ExtensionForm,
    "extension_revoke": gb_forms.ExtensionRevokeForm,
    "excuse": gb_forms.ExcuseForm,
}


def _student_page(
    request: HttpRequest, student, bound: tuple[str, forms.Form] | None = None, status: int = 200
) -> HttpResponse:
    focus_id = query_id(request.GET.get("item"))
    initial = {"item": focus_id} if focus_id is not None else {}
    action_forms = {name: cls(prefix=name, initial=initial) for name, cls in _ACTION_FORMS.items()}
    if bound is not None:
        action_forms[bound[0]] = bound[1]
        focus_id = query_id(str(bound[1].data.get(f"{bound[0]}-item", "")))
    context = selectors.student_detail(student) | {"forms": action_forms}
    # The override form shows the current score of the item it is about (and what counted).
    context["focus"] = next((row for row in context["rows"] if row["item"].pk == focus_id), None)
    return render(request, "gradebook/staff/student.html", context, status=status)


@staff_required
@require_GET
def student_detail(request: HttpRequest, user_id: int) -> HttpResponse:
    return _student_page(request, get_object_or_404(User, pk=user_id))


def _apply(action: str, student, actor, data: dict) -> str:
    """Run one staff action through the gradebook services; returns the message to show."""
    item = data["item"]
    runners: dict[str, Callable[[], object]] = {
        "override": lambda: services.grade_override(
            student=student, item=item, points=data["points"], actor=actor, reason=data["reason"]
        ),
        "override_clear": lambda: services.grade_override_clear(
            student=student, item=item, actor=actor, reason=data["reason"]
        ),
        "extension": lambda: services.extension_grant(
            student=student,
            item=item,
            actor=actor,
            due_at=data.get("due_at"),
            extra_days=data.get("extra_days"),
            reason=data.get("reason", ""),
        ),
        "extension_revoke": lambda: services.extension_revoke(
            student=student, item=item, actor=actor
        ),
        "excuse": lambda: services.excusal_set(
            student=student,
            item=item,
            actor=actor,
            excused=data["excused"],
            reason=data["reason"],
        ),
    }
    runners[action]()
    return _("已保存：{item}").format(item=str(item))


@staff_required
@require_POST
def student_action(request: HttpRequest, user_id: int, action: str) -> HttpResponse:
    student = get_object_or_404(User, pk=user_id)
    if action not in _ACTION_FORMS:
        raise Http404("unknown action")
    staff_write_check(request.user, action)
    form = _ACTION_FORMS[action](request.POST, prefix=action)
    if form.is_valid():
        try:
            messages.success(request, _apply(action, student, request.user, form.cleaned_data))
            return redirect("gradebook:staff_student", user_id=student.pk)
        except services.GradeError as exc:
            form.add_error(exc.field if exc.field in form.fields else None, str(exc))
    return _student_page(request, student, bound=(action, form), status=400)


# --- Import and the regrade queue ----------------------------------------------------------------


def _import_item(form: gb_forms.ImportForm, user) -> GradeItem:
    data = form.cleaned_data
    if data.get("item") is not None:
        return data["item"]
    staff_write_check(user, "import_new_item")
    return services.grade_item_ensure(
        key=data["new_key"],
        title=data["new_title"],
        kind=GradeItem.Kind.EXAM if data["new_category"] == "exam" else GradeItem.Kind.OTHER,
        max_points=data["new_max_points"],
        category=data["new_category"] or "exam",
        released=False,  # scores typed elsewhere reach students when an instructor says so
    )


@staff_required
def grades_import(request: HttpRequest) -> HttpResponse:
    can_create = can_add_items(request.user)
    form = gb_forms.ImportForm(request.POST or None, request.FILES or None, can_create=can_create)
    row_errors: list[tuple[int, str]] = []
    if request.method == "POST":
        staff_write_check(request.user, "import")
    if request.method == "POST" and form.is_valid():
        try:
            text = form.text()
            with transaction.atomic():  # a new item disappears with a failed import
                item = _import_item(form, request.user)
                result = services.grades_import(item=item, text=text, actor=request.user)
        except forms.ValidationError as exc:
            form.add_error("file", exc)
        except csvio.ImportRowsError as exc:
            row_errors = exc.errors
        except services.GradeError as exc:
            form.add_error(None, str(exc))
        else:
            changed, same = result.changed, result.unchanged
            said = _("已导入 %(item)s：%(changed)s，%(same)s。") % {
                "item": item,
                "changed": ngettext("%(n)d 行更新", "%(n)d 行更新", changed) % {"n": changed},
                "same": ngettext("%(n)d 行未变", "%(n)d 行未变", same) % {"n": same},
            }
            seen = (
                _("学生现在能看到这一项的成绩。")
                if item.released
                else _("这一项尚未发布，学生还看不到；教师可在本页发布。")
            )
            messages.success(request, f"{said}{seen}")
            return redirect("gradebook:staff_item", item_id=item.pk)
    status = 400 if request.method == "POST" else 200
    context = {"form": form, "row_errors": row_errors, "can_create": can_create}
    return render(request, "gradebook/staff/import.html", context, status=status)


@staff_required
@require_GET
def regrade_queue(request: HttpRequest) -> HttpResponse:
    status = request.GET.get("status", RegradeRequest.Status.OPEN)
    if status not in ("", *RegradeRequest.Status.values):
        status = RegradeRequest.Status.OPEN
    context = {
        "requests": selectors.regrade_queue(status=status),
        "status": status,
        "statuses": RegradeRequest.Status.choices,
    }
    return render(request, "gradebook/staff/regrade_queue.html", context)
