"""Roster in the browser: upload a CSV, see every line's fate (or its errors), confirm; nothing is
written until a clean file is confirmed. Instructors import (``accounts.change_profile``); TAs may
look at the roster (``accounts.view_profile``). Whoever imports may also send the invitation
e-mail later, to one person or to everyone not invited yet."""

from __future__ import annotations

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core import signing
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import redirect, render
from django.utils.translation import gettext as _
from django.views.decorators.http import require_GET, require_POST

from accounts import selectors, services
from accounts.access import can_import_roster, can_view_roster
from accounts.forms import RosterConfirmForm, RosterUploadForm
from pdcsite.params import query_id

_SALT = "accounts.roster.confirm"
_MAX_AGE_S = 3600  # seconds a preview stays confirmable; re-upload after that


def _roster_page(request: HttpRequest, status: int = 200, **extra) -> HttpResponse:
    section = request.GET.get("section", "")
    context = {
        "people": selectors.roster_people(section=section),
        "sections": selectors.roster_sections(),
        "section": section,
        "can_import": can_import_roster(request.user),
        "not_invited": len(selectors.roster_not_invited_ids()),
        "upload_form": extra.pop("upload_form", None) or RosterUploadForm(),
        **extra,
    }
    return render(request, "accounts/staff/roster.html", context, status=status)


@login_required
@require_GET
def roster(request: HttpRequest) -> HttpResponse:
    if not can_view_roster(request.user):
        raise PermissionDenied("the roster is for staff")
    return _roster_page(request)


@login_required
@require_POST
def roster_upload(request: HttpRequest) -> HttpResponse:
    if not can_import_roster(request.user):
        raise PermissionDenied("only instructors import the roster")
    form = RosterUploadForm(request.POST, request.FILES)
    if not form.is_valid():
        return _roster_page(request, 400, upload_form=form)
    try:
        rows = services.roster_parse(form.text)
    except services.RosterError as exc:
        # Nothing is stored: the page names each bad line; fix the file and upload it again.
        return _roster_page(request, 400, upload_form=form, line_errors=exc.errors)
    refusals = selectors.roster_demotion_refusals(
        rows, selectors.roster_demotions(rows), by=request.user
    )
    if refusals:  # no confirmation allows these: the page names the rows, as for a bad file
        return _roster_page(request, 400, upload_form=form, line_errors=refusals)
    confirm = RosterConfirmForm(
        initial={"payload": signing.dumps(form.text, salt=_SALT, compress=True)}
    )
    return _preview_page(request, rows, confirm)


def _preview_page(
    request: HttpRequest,
    rows: list,
    confirm: RosterConfirmForm,
    status: int = 200,
    refusal: str = "",
) -> HttpResponse:
    preview = selectors.roster_preview(rows)
    context = {
        "preview": preview,
        "confirm_form": confirm,
        "demotions": any(p.status == "demoted" for p in preview),
        "refusal": refusal,
    }
    return render(request, "accounts/staff/roster_preview.html", context, status=status)


@login_required
@require_POST
def roster_invite(request: HttpRequest) -> HttpResponse:
    """Send (or send again) the set-your-password e-mail: to one person (`user`), or to everyone on
    the roster not invited yet (`all`). Whoever may import the roster may invite."""
    if not can_import_roster(request.user):
        raise PermissionDenied("only instructors invite")
    # query_id, not str.isdigit(): "²" is a digit to isdigit() and a ValueError to int().
    if (user_id := query_id(request.POST.get("user"))) is not None:
        ids = selectors.roster_invitable_ids(user_id=user_id)
    elif request.POST.get("all"):
        ids = selectors.roster_not_invited_ids()
    else:
        ids = []
    if not ids:
        messages.info(request, _("没有需要邀请的人。"))
        return redirect("accounts:staff_roster")
    _invite(request, ids)
    return redirect("accounts:staff_roster")


def _invite(request: HttpRequest, user_ids: list[int] | tuple[int, ...]) -> None:
    """Send the invitations and say how many went, to whom the mail failed, and who was past the
    resend limit."""
    invites = services.roster_invite_many(user_ids=user_ids)
    # "0 sent, 0 without an address" above a line that says why is noise, not news.
    if invites.sent or invites.skipped or not (invites.failed or invites.throttled):
        messages.info(
            request,
            _("邀请邮件：已发送 %(sent)d，缺少地址 %(skipped)d。")
            % {"sent": invites.sent, "skipped": invites.skipped},
        )
    if invites.failed:
        messages.error(
            request,
            _("发给 %(names)s 的邮件失败；稍后可在名单页再次发送。")
            % {"names": ", ".join(invites.failed)},
        )
    if invites.throttled:
        messages.warning(
            request,
            _("未重新发送给 %(names)s：每人每 %(hours)d 小时最多 %(max)d 封邀请邮件，请稍后再试。")
            % {
                "names": ", ".join(invites.throttled),
                "hours": services.INVITE_WINDOW_S // 3600,
                "max": services.INVITES_PER_USER_PER_WINDOW,
            },
        )


@login_required
@require_POST
def roster_confirm(request: HttpRequest) -> HttpResponse:
    if not can_import_roster(request.user):
        raise PermissionDenied("only instructors import the roster")
    form = RosterConfirmForm(request.POST)
    try:
        text = signing.loads(form.data.get("payload", ""), salt=_SALT, max_age=_MAX_AGE_S)
    except signing.BadSignature:
        messages.error(request, _("预览已过期或无效，请重新上传文件。"))
        return redirect("accounts:staff_roster")
    try:
        # Validates every row and every role change again, all or nothing.
        result = services.roster_import(
            text=text, by=request.user, demotions_confirmed=bool(form.data.get("confirm_demotions"))
        )
    except services.RosterDemotionUnconfirmed:
        # The preview again, its demotions named: tick the box to go on, or cancel.
        confirm = RosterConfirmForm(
            initial={"payload": form.data["payload"], "invite": bool(form.data.get("invite"))}
        )
        refusal = _("这个文件会降低员工的角色；请勾选确认后再导入，或取消。")
        return _preview_page(request, services.roster_parse(text), confirm, 400, refusal=refusal)
    except services.RosterError as exc:
        return _roster_page(request, 400, line_errors=exc.errors)
    messages.success(
        request,
        _("名单已导入：新增 %(c)d，更新 %(u)d，不变 %(s)d。")
        % {"c": result.created, "u": result.updated, "s": result.unchanged},
    )
    if form.data.get("invite"):
        _invite(request, result.pending_ids)
    return redirect("accounts:staff_roster")
