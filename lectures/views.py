from __future__ import annotations

from django.contrib.auth.decorators import login_required
from django.core.cache import cache
from django.http import Http404, HttpRequest, HttpResponse
from django.middleware.csrf import get_token
from django.shortcuts import redirect, render
from django.template.loader import render_to_string
from django.utils.safestring import mark_safe
from django.views.decorators.http import require_GET, require_POST

from lectures import fastpath, fragments, selectors, services
from lectures.anchors import section_url
from lectures.search import normalize_query, search_sections


@login_required
@require_GET
def lecture_list(request: HttpRequest) -> HttpResponse:
    rows = selectors.lecture_list_with_progress(user=request.user)
    return render(request, "lectures/lecture_list.html", {"rows": rows})


def _read_button(request: HttpRequest, section, is_read: bool) -> str:
    # No request passed: the button needs only the CSRF token, not the site context processors.
    context = {"section": section, "is_read": is_read, "csrf_token": get_token(request)}
    return render_to_string("lectures/partials/read_toggle.html", context)


@login_required
@require_GET
def lecture_detail(request: HttpRequest, number: int) -> HttpResponse:
    index = selectors.lecture_index(user=request.user)
    at = next((i for i, stub in enumerate(index) if stub.number == number), None)
    if at is None:
        raise Http404("no such lecture")
    stub = index[at]
    ticket = fastpath.ticket(request, number)  # stamps read before the page: lectures/fastpath.py
    neighbours = (index[at - 1] if at > 0 else None, index[at + 1] if at + 1 < len(index) else None)
    get_token(request)  # the cached page embeds the token: make sure the cookie goes out too
    key = fragments.page_cache_key(request, stub, neighbours)
    cached = cache.get(key) if key else None
    if cached is not None:
        response = HttpResponse(cached)
    else:
        read_ids = selectors.read_section_ids_for(user=request.user, lecture_id=stub.pk)
        response = _render_lecture(request, stub.pk, read_ids, neighbours)
        if key:
            cache.set(key, response.content, fragments.PAGE_CACHE_SECONDS)
    if key:  # no key: the page showed flash messages, which must not be replayed
        response.lecture_fast_ticket = ticket
    return response


def _render_lecture(request, lecture_id: int, read_ids: set[int], neighbours) -> HttpResponse:
    lecture = selectors.lecture_for_render(lecture_id=lecture_id)
    sections = list(selectors.lecture_sections(lecture=lecture, outline=True))
    # Two pre-rendered variants; each slot gets one with its section id filled in.
    variants = {flag: _read_button(request, _Placeholder(), flag) for flag in (False, True)}
    buttons = {
        s.pk: variants[s.pk in read_ids]
        .replace(_Placeholder.MARK, str(s.pk))
        .replace(_Placeholder.number, s.number)
        .replace(_Placeholder.slug, s.slug)
        for s in sections
        if s.level == 2
    }
    body = fragments.splice_read_buttons(fragments.lecture_body_html(lecture), buttons)
    progress = selectors.progress_from(lecture=lecture, sections=sections, read_ids=read_ids)
    context = {"lecture": lecture, "body": mark_safe(body), "progress": progress}
    context["prev"], context["next"] = neighbours
    return render(request, "lectures/lecture_detail.html", context)


class _Placeholder:
    """Stands in for a Section while rendering the shared button template once per variant."""

    MARK = "987654321"
    pk = MARK
    number = "PDCSECNUM"
    slug = "PDCSECSLUG"  # the heading the button is described by: "<slug>-h"


@login_required
@require_POST
def section_read_toggle(request: HttpRequest, pk: int) -> HttpResponse:
    section = selectors.section_get_readable(user=request.user, pk=pk)
    if section is None:
        raise Http404("no such section")
    want = request.POST.get("read") == "1"
    is_read = services.section_read_set(user=request.user, section=section, read=want)
    if not request.htmx:  # plain form post (no JavaScript): back to the section
        return redirect(section_url(section.number))
    progress = selectors.lecture_progress(user=request.user, lecture=section.lecture)
    context = {"section": section, "is_read": is_read, "progress": progress, "oob": True}
    return render(request, "lectures/partials/read_toggle_response.html", context)


@login_required
@require_GET
def search(request: HttpRequest) -> HttpResponse:
    query = normalize_query(request.GET.get("q", ""))
    hits = search_sections(query) if query else []
    template = "lectures/partials/search_results.html" if request.htmx else "lectures/search.html"
    return render(request, template, {"query": query, "hits": hits})


@login_required
@require_GET
def course_map(request: HttpRequest) -> HttpResponse:
    page = selectors.course_page_get(slug="course-map")
    rows = selectors.lecture_list_with_progress(user=request.user)
    return render(request, "lectures/course_map.html", {"page": page, "rows": rows})


@login_required
@require_GET
def cheatsheet(request: HttpRequest) -> HttpResponse:
    page = selectors.course_page_get(slug="cheatsheet")
    return render(request, "lectures/cheatsheet.html", {"page": page})
