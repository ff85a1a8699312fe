"""Lab pages. Thin: access through `visible_to`, reads from selectors, writes through services."""

from __future__ import annotations

from urllib.parse import urlencode

from django.conf import settings
from django.contrib import messages
from django.contrib.auth.base_user import AbstractBaseUser
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.utils import timezone
from django.utils.translation import gettext
from django.views.decorators.http import require_GET, require_POST

from accounts.language import page_lang
from gradebook.refs import regrade_request_url
from gradinglab import conf, selectors
from gradinglab.access import may_request_regrade, may_review_in_admin
from gradinglab.drafts import DraftError, draft_save, drafts_of
from gradinglab.models import Assignment, Problem, Submission
from gradinglab.roofline import roofline_chart
from gradinglab.runner.source import FILE_SUFFIXES, MAX_SOURCE_BYTES, file_fits
from gradinglab.scoring import point_split
from gradinglab.services import results, submissions
from gradinglab.templatetags.lab_tags import backend_label
from lectures.rendering import highlight_code
from lectures.selectors import section_links
from pdcsite.params import query_id

LANG_OF_BACKEND = {"triton": "python", "cuda": "cuda"}


@login_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return render(
        request,
        "gradinglab/index.html",
        {"rows": selectors.lab_index(request.user), "workers": selectors.workers_status()},
    )


def _problem_or_404(request: HttpRequest, slug: str) -> Problem:
    return get_object_or_404(Problem.objects.visible_to(request.user), slug=slug)


def _starters(problem: Problem) -> dict[str, str]:
    from gradinglab.runner import ProblemNotFound, load_problem

    try:
        package = load_problem(problem.slug)
    except ProblemNotFound:
        return {}
    return {b: package.starter(b) for b in problem.backends if package.starter_path(b).exists()}


def _assignment_or_404(request: HttpRequest, siblings: list[Assignment]) -> Assignment | None:
    """The assignment the page shows and submits to, out of the problem's assignments this user may
    see (latest due first): `assignment` (the query on GET, the form's field on POST) when given,
    else the first. One asked for that is not among them is a 404, never a quiet switch."""
    raw = (request.POST if request.method == "POST" else request.GET).get("assignment", "")
    if not raw:
        return siblings[0] if siblings else None
    if (pk := query_id(raw)) is None:
        raise Http404("assignment must be a number")
    found = next((a for a in siblings if a.pk == pk), None)
    if found is None:
        raise Http404("no such assignment of this problem")
    return found


def _problem_context(
    request: HttpRequest,
    problem: Problem,
    siblings: list[Assignment],
    assignment: Assignment | None,
    *,
    source: str | None = None,
    backend: str | None = None,
    error: str = "",
) -> dict:
    """The problem page. `source`/`backend` put the student's posted code back into the editor."""
    submissions = selectors.submissions_of(request.user, assignment) if assignment else []
    extended = selectors.personal_dues(request.user, [assignment]) if assignment else {}
    starters = _starters(problem)
    drafts = drafts_of(request.user, problem)
    first = problem.backends[0] if problem.backends else ""
    if backend not in problem.backends:
        latest = max(drafts.values(), key=lambda d: d.updated_at, default=None)
        backend = latest.backend if latest else first
    shown = drafts.get(backend)
    if source is None:
        source = shown.source if shown else starters.get(backend, "")
    return {
        "problem": problem,
        "title": problem.title_for(page_lang()),
        "statement": problem.statement_for(page_lang()),
        "statement_lang": "en" if page_lang() == "en" and problem.statement_en_html else "zh",
        "assignment": assignment,
        "due_at": (due := extended.get(assignment.pk, assignment.due_at) if assignment else None),
        "late_until": assignment.late_until_for(due) if assignment else None,
        "extended": bool(extended),
        "siblings": siblings,
        "section_links": section_links(anchors=problem.sections),
        "tolerances": [
            (dt, problem.tolerances[dt]) for dt in problem.dtypes if dt in problem.tolerances
        ],
        "starters": starters,
        "drafts": {b: d.source for b, d in drafts.items()},
        "draft_saved_at": shown.updated_at if shown else None,
        "editor_source": source,
        "backend_selected": backend,
        "submit_error": error,
        "submissions": submissions,
        "chart": {
            **selectors.chart_series(submissions),
            "names": {
                "median_ms": gettext("中位时间 (ms)"),
                "speedup": gettext("加速比"),
                "roofline_pct": gettext("屋顶线比例 %"),
            },
        },
        "has_timing": any(s.median_ms is not None for s in submissions),
        "source_cap_kib": MAX_SOURCE_BYTES // 1024,
        "upload_accept": ",".join(FILE_SUFFIXES[b] for b in problem.backends if b in FILE_SUFFIXES),
        # The whole form's cap (pdcsite.security.BodyLimitMiddleware): site.js checks a chosen
        # file against it, since an over-size body is answered with a page of its own.
        "request_cap_bytes": settings.PDC_MAX_REQUEST_BYTES,
        "request_cap_kib": settings.PDC_MAX_REQUEST_BYTES // 1024,
        "practice_rate_count": conf.PRACTICE_RATE_COUNT,
        "practice_rate_minutes": conf.PRACTICE_RATE_MINUTES,
        "kinds": selectors.leaderboard_kinds(problem),
        # One scale: the rule in the assignment's points, never the package's 60 / 100.
        "split": point_split(
            problem.scoring, points=assignment.points, cpu_only=not assignment.gpu_kind
        )
        if assignment
        else None,
    }


@login_required
@require_GET
def problem_detail(request: HttpRequest, slug: str) -> HttpResponse:
    problem = _problem_or_404(request, slug)
    siblings = selectors.assignments_of_problem(request.user, problem)
    context = _problem_context(request, problem, siblings, _assignment_or_404(request, siblings))
    return render(request, "gradinglab/problem.html", context)


@login_required
@require_GET
def starter_download(request: HttpRequest, slug: str, backend: str) -> HttpResponse:
    problem = _problem_or_404(request, slug)
    source = _starters(problem).get(backend)
    if source is None:
        raise Http404("no starter for this backend")
    response = HttpResponse(source, content_type="text/plain; charset=utf-8")
    name = f"{slug}_starter{FILE_SUFFIXES[backend]}"
    response["Content-Disposition"] = f'attachment; filename="{name}"'
    return response


def _uploaded_source(request: HttpRequest, backend: str) -> str | None:
    """The uploaded file as text (None: no upload). Refusals are SubmissionError, before reading."""
    upload = request.FILES.get("file")
    if upload is None:
        return None
    if not file_fits(upload.name or "", backend):
        raise submissions.SubmissionError(
            gettext(
                "没有提交 %(name)s：%(backend)s 后端只接受 %(suffix)s 文件；编辑器中的代码已保留。"
            )
            % {
                "name": upload.name,
                "backend": backend_label(backend),
                "suffix": FILE_SUFFIXES[backend],
            }
        )
    if upload.size > MAX_SOURCE_BYTES:
        raise submissions.SubmissionError(
            gettext("上传的文件超过 %(n)d KiB，没有提交；编辑器中的代码已保留。")
            % {"n": MAX_SOURCE_BYTES // 1024}
        )
    try:
        # utf-8-sig: Windows editors (Notepad) save UTF-8 with a byte-order mark; kept, it reached
        # the pre-check as a U+FEFF before the first line, which Python refuses as a syntax error.
        return upload.read().decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise submissions.SubmissionError(
            gettext("上传的文件不是 UTF-8 文本，没有提交；编辑器中的代码已保留。")
        ) from exc


@login_required
@require_POST
def submit(request: HttpRequest, slug: str) -> HttpResponse:
    """Submit for grading, or (action=test) run the public tests without using an attempt.

    A refusal re-renders the page with the editor's code and the error beside the button."""
    problem = _problem_or_404(request, slug)
    siblings = selectors.assignments_of_problem(request.user, problem)
    assignment = _assignment_or_404(request, siblings)
    if assignment is None:
        raise Http404("no assignment for this problem")
    backend = request.POST.get("backend", "")
    typed = request.POST.get("source", "")
    try:
        draft_save(student=request.user, problem=problem, backend=backend, source=typed)
    except DraftError:
        pass  # the editor keeps the code either way; the submission check reports the reason
    try:
        uploaded = _uploaded_source(request, backend)
        sub = submissions.submission_create(
            student=request.user,
            assignment=assignment,
            backend=backend,
            source=typed if uploaded is None else uploaded,
            practice=request.POST.get("action") == "test",
        )
    except submissions.SubmissionError as exc:
        status = 429 if isinstance(exc, submissions.RateLimited) else 400
        context = _problem_context(
            request, problem, siblings, assignment, source=typed, backend=backend, error=str(exc)
        )
        # This address answers POST only: the language switch returns to the form's own page.
        context["page_url"] = assignment.get_absolute_url()
        return render(request, "gradinglab/problem.html", context, status=status)
    return redirect("gradinglab:submission", pk=sub.pk)


@login_required
@require_POST
def draft_autosave(request: HttpRequest, slug: str) -> JsonResponse:
    problem = _problem_or_404(request, slug)
    try:
        draft = draft_save(
            student=request.user,
            problem=problem,
            backend=request.POST.get("backend", ""),
            source=request.POST.get("source", ""),
        )
    except DraftError as exc:
        return JsonResponse({"saved": False, "error": str(exc)}, status=400)
    saved_at = timezone.localtime(draft.updated_at)
    return JsonResponse(
        {
            "saved": True,
            "message": gettext("草稿已保存 %(t)s") % {"t": f"{saved_at:%H:%M:%S}"},
        }
    )


def _submission_or_404(request: HttpRequest, pk: int) -> Submission:
    return get_object_or_404(
        Submission.objects.visible_to(request.user).select_related(
            "assignment__problem", "student"
        ),
        pk=pk,
    )


def _regrade_url(sub: Submission) -> str:
    """Link to the gradebook's regrade request form, about this submission."""
    return regrade_request_url(sub.assignment.grade_item_key, f"submission:{sub.pk}")


def _status_context(sub: Submission, user: AbstractBaseUser) -> dict:
    doc = None if sub.is_pending else sub.result
    compile_info = (doc or {}).get("compile") or {}
    return {
        "sub": sub,
        "doc": doc,
        "compile": compile_info,
        "ptxas": compile_info.get("ptxas"),
        "queue_position": selectors.queue_position(sub),
        "phases": results.PHASES,
        "regrade_url": _regrade_url(sub) if may_request_regrade(user, sub) else "",
        "roofline_pct": None
        if sub.roofline_fraction is None
        else round(100 * sub.roofline_fraction, 1),
    }


@login_required
@require_GET
def submission_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sub = _submission_or_404(request, pk)
    context = _status_context(sub, request.user)
    if may_review_in_admin(request.user):
        context["review_url"] = reverse("admin:gradinglab_submission_change", args=[sub.pk])
    context["source_html"] = highlight_code(sub.source, LANG_OF_BACKEND.get(sub.backend, "text"))
    context["others"] = Submission.objects.filter(
        assignment=sub.assignment, student=sub.student
    ).exclude(pk=sub.pk)[:50]
    timed = [s for s in context["others"] if s.median_ms is not None][:20]
    context["roofline"] = roofline_chart(sub, timed) if not sub.is_pending else None
    context["roofline_labels"] = {
        "roof": gettext("设备屋顶线（显存带宽 / 峰值算力）"),
        "point": gettext("本次提交"),
        "history": gettext("你之前的提交"),
        "x": gettext("算术强度 (FLOP/字节)"),
        "y": gettext("性能 (GFLOP/s)"),
    }
    return render(request, "gradinglab/submission.html", context)


@login_required
@require_GET
def submission_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The htmx-polled fragment; it stops polling itself once the submission is done."""
    sub = _submission_or_404(request, pk)
    return render(request, "gradinglab/partials/status.html", _status_context(sub, request.user))


@login_required
@require_GET
def submission_source(request: HttpRequest, pk: int) -> HttpResponse:
    sub = _submission_or_404(request, pk)
    ext = "py" if sub.backend == "triton" else "cu"
    response = HttpResponse(sub.source, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="submission_{sub.pk}.{ext}"'
    return response


def _picked_submission(request: HttpRequest, name: str) -> Submission | None:
    raw = request.GET.get(name, "").strip()
    if not raw:
        return None
    if (pk := query_id(raw)) is None:
        raise Http404("submission id must be a number")
    return _submission_or_404(request, pk)


def _diff_back_url(request: HttpRequest, picked: Submission | None) -> str:
    """The problem page the compare form was on (its hidden fields), else the picked submission's."""
    slug, assignment = request.GET.get("problem", ""), request.GET.get("assignment", "")
    if not slug and picked is not None:
        slug = picked.assignment.problem.slug
        assignment = str(picked.assignment_id)
    if not slug:
        return reverse("gradinglab:index")
    url = reverse("gradinglab:problem", args=[_problem_or_404(request, slug).slug])
    if query_id(assignment) is not None:
        url += "?" + urlencode({"assignment": assignment})
    return url


@login_required
@require_GET
def submission_diff(request: HttpRequest) -> HttpResponse:
    """Both ids pass the access check before anything else, so another student's id is a 404 even
    when the other pick is missing; a missing or repeated pick is the student's slip, answered on
    the page they came from, not with a 404."""
    a, b = _picked_submission(request, "a"), _picked_submission(request, "b")
    if a is None or b is None:
        messages.error(request, gettext("请在 A 列和 B 列各选一次提交，再比较。"))
        return redirect(_diff_back_url(request, a or b))
    if a.pk == b.pk:
        messages.error(request, gettext("A 和 B 选的是同一次提交，请选两次不同的提交。"))
        return redirect(_diff_back_url(request, a))
    diff = selectors.source_diff(a, b)
    return render(
        request,
        "gradinglab/diff.html",
        {"a": a, "b": b, "diff_html": highlight_code(diff, "diff") if diff else ""},
    )


@login_required
@require_GET
def leaderboard(request: HttpRequest, slug: str) -> HttpResponse:
    problem = _problem_or_404(request, slug)
    kinds = selectors.leaderboard_kinds(problem)
    kind = request.GET.get("kind") or (kinds[0] if kinds else "")
    rows = selectors.leaderboard(problem, kind) if kind in kinds else []
    return render(
        request,
        "gradinglab/leaderboard.html",
        {
            "problem": problem,
            "kinds": kinds,
            "kind": kind,
            "rows": rows,
            "title": problem.title_for(page_lang()),
        },
    )


@login_required
@require_GET
def workers_panel(request: HttpRequest) -> HttpResponse:
    """The htmx-polled panel of the lab index; opened directly it is a full page."""
    template = "gradinglab/partials/workers.html" if request.htmx else "gradinglab/workers.html"
    return render(request, template, {"workers": selectors.workers_status()})
