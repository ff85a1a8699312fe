"""Student-facing gradebook pages: 我的成绩, own CSV, regrade requests. Staff pages: staff_views."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET

from gradebook import csvio, selectors, services
from gradebook.access import can_answer, regrade_request_get, staff_page, staff_write_check
from gradebook.forms import RegradeRequestForm, RegradeResolveForm
from gradebook.models import GradeItem, RegradeRequest, item_key_well_formed


@login_required
def mine(request: HttpRequest) -> HttpResponse:
    if staff_page(request.user):
        return redirect("gradebook:staff_grid")
    return render(request, "gradebook/mine.html", selectors.student_view(request.user))


@login_required
@require_GET
def mine_csv(request: HttpRequest) -> HttpResponse:
    body = csvio.mine_export(selectors.student_view(request.user))
    response = HttpResponse(csvio.BOM + body, content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = 'attachment; filename="my-grades.csv"'
    return response


@login_required
def regrade_list(request: HttpRequest) -> HttpResponse:
    if staff_page(request.user):
        return redirect("gradebook:staff_regrades")
    requests_ = RegradeRequest.objects.visible_to(request.user).select_related("item")
    return render(request, "gradebook/regrade_list.html", {"requests": requests_})


@login_required
def regrade_request_create(request: HttpRequest) -> HttpResponse:
    """`?item=<key>&ref=<ref>`: the lab and quiz pages link here with what the request is about."""
    source = request.POST if request.method == "POST" else request.GET
    key = source.get("item", "")
    if not item_key_well_formed(key):
        raise Http404("no such grade item")
    item = get_object_or_404(GradeItem.objects.visible_to(request.user), key=key)
    ref = source.get("ref", "")
    form = RegradeRequestForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            created = services.regrade_request_create(
                student=request.user, item=item, ref=ref, message=form.cleaned_data["message"]
            )
        except services.GradeError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("复核申请已提交。"))
            return redirect("gradebook:regrade_detail", pk=created.pk)
    status = 400 if request.method == "POST" else 200
    # One open request per work: say so before the student writes a message that is refused.
    open_request = selectors.open_regrade(request.user, item, ref)
    context = {"form": form, "item": item, "ref": ref, "open_request": open_request}
    return render(request, "gradebook/regrade_form.html", context, status=status)


@login_required
def regrade_detail(request: HttpRequest, pk: int) -> HttpResponse:
    regrade = regrade_request_get(request.user, pk)
    form = None
    if request.method == "POST":
        staff_write_check(request.user, "regrade_resolve")
    if can_answer(request.user, regrade):
        form = RegradeResolveForm(request.POST or None)
        if request.method == "POST" and form.is_valid():
            data = form.cleaned_data
            try:
                services.regrade_request_resolve(
                    request_id=regrade.pk,
                    actor=request.user,
                    accept=data["decision"] == "accept",
                    response=data["response"],
                    points=data.get("points"),
                )
            except services.GradeError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("已答复复核申请。"))
                return redirect(reverse("gradebook:staff_regrades"))
    status = 200
    if request.method == "POST":  # invalid answer (400), or the request was already answered (409)
        status = 400 if form is not None else 409
    context = {"regrade": regrade, "form": form}
    if staff_page(request.user):  # what staff decide from: the score now and the work it counts
        student, item = regrade.student, regrade.item
        context["staff"] = {
            "grade": selectors.current_grade(student, item),
            "result": selectors.item_result(student, item),
        }
    return render(request, "gradebook/regrade_detail.html", context, status=status)
