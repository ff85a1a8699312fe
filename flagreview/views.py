"""Flag review pages. Thin: reads through `selectors` (the lab's access check), writes through
`services`; who may answer or judge is `flagreview.access`."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from flagreview import selectors, services
from flagreview.access import may_judge, may_respond, reads_flag_record, staff_required
from flagreview.forms import ResponseForm, VerdictForm


def _case_page(
    request: HttpRequest,
    case: selectors.Case,
    *,
    response_form: ResponseForm | None = None,
    verdict_form: VerdictForm | None = None,
    status: int = 200,
) -> HttpResponse:
    staff = reads_flag_record(request.user)
    own = may_respond(request.user, case.submission)
    if response_form is None and own and case.can_respond:
        response_form = ResponseForm(by_staff=case.flagged_by_staff)
    if verdict_form is None and staff and case.is_open:
        verdict_form = VerdictForm(initial={"points": case.suggested_points})
    context = {
        "case": case,
        "sub": case.submission,
        "staff": staff,
        "response_form": response_form if own and case.can_respond else None,
        "verdict_form": verdict_form if staff and case.is_open else None,
    }
    return render(request, "flagreview/case.html", context, status=status)


@login_required
@require_GET
def case_detail(request: HttpRequest, pk: int) -> HttpResponse:
    return _case_page(request, selectors.case_get(request.user, pk))


@login_required
@require_POST
def respond(request: HttpRequest, pk: int) -> HttpResponse:
    case = selectors.case_get(request.user, pk)
    if not may_respond(request.user, case.submission):
        raise PermissionDenied("only the student who submitted may respond")
    if not case.can_respond:  # said above the answer already given, not in a new form
        messages.error(
            request,
            _("你已经回应过这次结果；每次结果只能回应一次。")
            if case.response
            else _("助教已经给出结论，不能再回应。"),
        )
        return _case_page(request, case, status=409)
    form = ResponseForm(request.POST, by_staff=case.flagged_by_staff)
    if form.is_valid():
        try:
            services.flag_response_create(
                submission=case.submission, student=request.user, text=form.cleaned_data["text"]
            )
        except services.FlagError as exc:
            form.add_error("text", str(exc))
        else:
            messages.success(request, _("回应已提交，助教会看到它。"))
            return redirect("flagreview:case", pk=pk)
    return _case_page(request, case, response_form=form, status=400)


@staff_required
@require_POST
def verdict(request: HttpRequest, pk: int) -> HttpResponse:
    case = selectors.case_get(request.user, pk)
    if not case.is_open:
        messages.error(request, _("这次结果已经有结论了。"))
        return _case_page(request, case, status=409)
    form = VerdictForm(request.POST)
    if form.is_valid():
        data = form.cleaned_data
        if not may_judge(request.user, data["decision"]):
            raise PermissionDenied(f"{data['decision']} needs its lab permission")
        try:
            services.flag_verdict_record(
                submission=case.submission,
                actor=request.user,
                decision=data["decision"],
                reason=data["reason"],
                points=data["points"],
            )
        except services.FlagError as exc:
            form.add_error(None, str(exc))
        else:
            messages.success(request, _("结论已记录，并写入成绩册审计记录。"))
            return redirect("flagreview:queue")
    return _case_page(request, selectors.case_get(request.user, pk), verdict_form=form, status=400)


@staff_required
@require_GET
def queue(request: HttpRequest) -> HttpResponse:
    return render(request, "flagreview/queue.html", {"cases": selectors.open_cases()})
