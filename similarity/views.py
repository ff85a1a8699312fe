"""Staff-only similarity pages. Access: accounts.access.staff_required on every view (students
and anonymous users never reach them: 403 / the login page). Reads in selectors, writes in
services."""

from __future__ import annotations

import json

from django.contrib import messages
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.utils.translation import gettext as _
from django.utils.translation import ngettext
from django.views.decorators.http import require_GET, require_http_methods, require_POST

from accounts.access import staff_required
from gradinglab.models import Assignment
from similarity import conf, engine, graph, selectors, services
from similarity.archive import ArchiveError
from similarity.forms import ArchiveExportForm, ArchiveImportForm, DecisionForm
from similarity.models import ArchivedFingerprint, SimilarityPair


def _name(user) -> str:
    profile = getattr(user, "profile", None)
    return (getattr(profile, "display_name", "") or "") or user.username


def _index(request: HttpRequest, **forms) -> HttpResponse:
    assignments = Assignment.objects.select_related("problem").order_by("-due_at", "pk")
    rows = []
    for assignment in assignments:
        run = selectors.latest_run(assignment)
        flagged = run.pairs.filter(fraction__gte=conf.REVIEW_THRESHOLD).count() if run else 0
        rows.append({"assignment": assignment, "run": run, "flagged": flagged})
    context = {
        "rows": rows,
        "archive_count": ArchivedFingerprint.objects.count(),
        "import_form": forms.get("import_form") or ArchiveImportForm(),
        "export_form": forms.get("export_form") or ArchiveExportForm(),
    }
    status = 400 if forms else 200
    return render(request, "similarity/index.html", context, status=status)


@staff_required
@require_GET
def index(request: HttpRequest) -> HttpResponse:
    return _index(request)


@staff_required
@require_GET
def results(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = get_object_or_404(Assignment.objects.select_related("problem"), pk=assignment_id)
    run = selectors.latest_run(assignment)
    pairs = selectors.pairs_of(run) if run else []
    return render(
        request,
        "similarity/results.html",
        {
            "assignment": assignment,
            "run": run,
            "pairs": pairs,
            "graph": _graph(pairs),
            "threshold": conf.REVIEW_THRESHOLD,
        },
    )


def _graph(pairs: list[SimilarityPair]) -> graph.Graph | None:
    flagged = [p for p in pairs if p.needs_review]
    if not flagged:
        return None
    labels: dict[str, str] = {}
    edges = []
    for p in flagged:
        a = f"s{p.submission_a_id}"
        b = f"s{p.submission_b_id}" if p.submission_b_id else f"a{p.archived_id}"
        labels[a] = _name(p.submission_a.student)
        labels[b] = (
            _name(p.submission_b.student) if p.submission_b else _("往届") + f" {p.archived.term}"
        )
        edges.append((a, b, p.fraction, f"{p.pk}"))
    scores = [engine.PairScore(a, b, 0, f, f) for a, b, f, _href in edges]
    return graph.layout(engine.clusters(scores, conf.REVIEW_THRESHOLD), labels, edges)


@staff_required
@require_POST
def run_start(request: HttpRequest, assignment_id: int) -> HttpResponse:
    assignment = get_object_or_404(Assignment, pk=assignment_id)
    services.similarity_run_request(assignment=assignment, actor=request.user)
    messages.success(request, _("相似度检查已排队，完成后刷新本页查看结果。"))
    return redirect("similarity:results", assignment_id=assignment.pk)


@staff_required
@require_http_methods(["GET", "POST"])
def review(request: HttpRequest, pair_id: int) -> HttpResponse:
    pair = get_object_or_404(selectors.pair_queryset(), pk=pair_id)
    form = DecisionForm(request.POST if request.method == "POST" else None)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            try:
                services.similarity_decide(
                    pair=pair,
                    decision=form.cleaned_data["decision"],
                    note=form.cleaned_data["note"],
                    actor=request.user,
                )
            except services.DecisionError as exc:
                form.add_error(None, str(exc))
            else:
                messages.success(request, _("结论已记录，并写入成绩册的变更记录。"))
                return redirect("similarity:review", pair_id=pair.pk)
        status = 400
    context = {
        "pair": pair,
        "assignment": pair.run.assignment,
        "form": form,
        "decisions": selectors.decisions_of(pair),
        "threshold": conf.REVIEW_THRESHOLD,
        **selectors.review(pair),
    }
    return render(request, "similarity/review.html", context, status=status)


@staff_required
@require_POST
def archive_import(request: HttpRequest) -> HttpResponse:
    form = ArchiveImportForm(request.POST, request.FILES)
    if form.is_valid():
        try:
            term, added = services.archive_import(raw=form.cleaned_data["file"].read())
        except ArchiveError as exc:
            form.add_error("file", str(exc))
        else:
            messages.success(
                request,
                ngettext(
                    "已导入 %(term)s 的 %(n)d 条指纹。", "已导入 %(term)s 的 %(n)d 条指纹。", added
                )
                % {"term": term, "n": added},
            )
            return redirect("similarity:index")
    return _index(request, import_form=form)


@staff_required
@require_POST
def archive_export(request: HttpRequest) -> HttpResponse:
    form = ArchiveExportForm(request.POST)
    if form.is_valid():
        assignments = list(Assignment.objects.select_related("problem").order_by("pk"))
        try:
            document = services.archive_export(
                assignments=assignments, term=form.cleaned_data["term"]
            )
        except ArchiveError as exc:
            form.add_error("term", str(exc))
        else:
            response = HttpResponse(
                json.dumps(document), content_type="application/json; charset=utf-8"
            )
            filename = f"similarity-archive-{document['term']}.json".replace(" ", "_")
            response["Content-Disposition"] = f'attachment; filename="{filename}"'
            return response
    return _index(request, export_form=form)
