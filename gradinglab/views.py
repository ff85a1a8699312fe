"""Lab pages. Thin: access through `visible_to`, reads from selectors, writes through services."""

from __future__ import annotations

from urllib.parse import urlencode

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import NoReverseMatch, reverse
from django.utils.translation import get_language
from django.views.decorators.http import require_GET, require_POST

from gradinglab import conf, selectors, services
from gradinglab.models import Problem, Submission
from gradinglab.scoring import point_split
from lectures.rendering import highlight_code

LANG_OF_BACKEND = {"triton": "python", "cuda": "cuda"}


def _lang() -> str:
    return "en" if (get_language() or "").startswith("en") else "zh"


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


def _section_links(sections: list[str]) -> list[tuple[str, str]]:
    links = []
    for anchor in sections:
        parts = anchor.split("-")  # sec-<lecture>-<section>
        if len(parts) == 3 and parts[1].isdigit():
            links.append((anchor, f"/lectures/{parts[1]}/#{anchor}"))
    return links


def _starters(problem: Problem) -> dict[str, str]:
    from gradinglab.runner import ProblemNotFound, load_problem

    try:
        package = load_problem(problem.slug)
    except ProblemNotFound:
        return {}
    return {b: package.starter(b) for b in problem.backends if package.starter_path(b).exists()}


@login_required
@require_GET
def problem_detail(request: HttpRequest, slug: str) -> HttpResponse:
    problem = _problem_or_404(request, slug)
    assignment = selectors.assignment_for_problem(request.user, problem)
    submissions = selectors.submissions_of(request.user, assignment) if assignment else []
    context = {
        "problem": problem,
        "title": problem.title_for(_lang()),
        "statement": problem.statement_for(_lang()),
        "assignment": assignment,
        "section_links": _section_links(problem.sections),
        "starters": _starters(problem),
        "submissions": submissions,
        "chart": selectors.chart_series(submissions),
        "has_timing": any(s.median_ms is not None for s in submissions),
        "source_cap_kib": conf.MAX_SOURCE_BYTES // 1024,
        "kinds": selectors.leaderboard_kinds(problem),
        # One scale: the rule in the assignment's points, never the package's 60 / 100.
        "split": point_split(
            problem.scoring, points=assignment.points, cpu_only=not assignment.gpu_kind
        )
        if assignment
        else None,
    }
    return render(request, "gradinglab/problem.html", context)


@login_required
@require_GET
def starter_download(request: HttpRequest, slug: str, backend: str) -> HttpResponse:
    problem = _problem_or_404(request, slug)
    source = _starters(problem).get(backend)
    if source is None:
        raise Http404("no starter for this backend")
    ext = "py" if backend == "triton" else "cu"
    response = HttpResponse(source, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="{slug}_starter.{ext}"'
    return response


@login_required
@require_POST
def submit(request: HttpRequest, slug: str) -> HttpResponse:
    problem = _problem_or_404(request, slug)
    assignment = selectors.assignment_for_problem(request.user, problem)
    if assignment is None:
        raise Http404("no assignment for this problem")
    upload = request.FILES.get("file")
    try:
        source = upload.read().decode("utf-8") if upload else request.POST.get("source", "")
    except UnicodeDecodeError:
        messages.error(request, "上传的文件不是 UTF-8 文本")
        return redirect("gradinglab:problem", slug=slug)
    try:
        sub = services.submission_create(
            student=request.user,
            assignment=assignment,
            backend=request.POST.get("backend", ""),
            source=source,
        )
    except services.SubmissionError as exc:
        messages.error(request, str(exc))
        return redirect("gradinglab:problem", slug=slug)
    return redirect("gradinglab:submission", pk=sub.pk)


def _submission_or_404(request: HttpRequest, pk: int) -> Submission:
    return get_object_or_404(
        Submission.objects.visible_to(request.user).select_related(
            "assignment__problem", "student"
        ),
        pk=pk,
    )


def _regrade_url(sub: Submission) -> str | None:
    """Link to the gradebook's regrade request form (absent until that page exists)."""
    try:
        base = reverse("gradebook:regrade_request_create")
    except NoReverseMatch:
        return None
    query = urlencode({"item": sub.assignment.grade_item_key, "ref": f"submission:{sub.pk}"})
    return f"{base}?{query}"


def _status_context(sub: Submission) -> dict:
    doc = None if sub.is_pending else sub.result
    compile_info = (doc or {}).get("compile") or {}
    return {
        "sub": sub,
        "doc": doc,
        "compile": compile_info,
        "ptxas": compile_info.get("ptxas"),
        "queue_position": selectors.queue_position(sub),
        "phases": services.PHASES,
        "regrade_url": _regrade_url(sub),
        "roofline_pct": None
        if sub.roofline_fraction is None
        else round(100 * sub.roofline_fraction, 1),
    }


@login_required
@require_GET
def submission_detail(request: HttpRequest, pk: int) -> HttpResponse:
    sub = _submission_or_404(request, pk)
    context = _status_context(sub)
    context["source_html"] = highlight_code(sub.source, LANG_OF_BACKEND.get(sub.backend, "text"))
    context["others"] = Submission.objects.filter(
        assignment=sub.assignment, student=sub.student
    ).exclude(pk=sub.pk)[:50]
    return render(request, "gradinglab/submission.html", context)


@login_required
@require_GET
def submission_status(request: HttpRequest, pk: int) -> HttpResponse:
    """The htmx-polled fragment; it stops polling itself once the submission is done."""
    sub = _submission_or_404(request, pk)
    return render(request, "gradinglab/partials/status.html", _status_context(sub))


@login_required
@require_GET
def submission_source(request: HttpRequest, pk: int) -> HttpResponse:
    sub = _submission_or_404(request, pk)
    ext = "py" if sub.backend == "triton" else "cu"
    response = HttpResponse(sub.source, content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="submission_{sub.pk}.{ext}"'
    return response


@login_required
@require_GET
def submission_diff(request: HttpRequest) -> HttpResponse:
    try:
        a_id, b_id = int(request.GET.get("a", "")), int(request.GET.get("b", ""))
    except ValueError as exc:
        raise Http404("choose two submissions") from exc
    a, b = _submission_or_404(request, a_id), _submission_or_404(request, b_id)
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
            "title": problem.title_for(_lang()),
        },
    )


@login_required
@require_GET
def workers_panel(request: HttpRequest) -> HttpResponse:
    return render(
        request, "gradinglab/partials/workers.html", {"workers": selectors.workers_status()}
    )
