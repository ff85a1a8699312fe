"""Worker credentials for the worker API (`Authorization: Worker wrk_…`). Only SHA-256 is stored."""

from __future__ import annotations

from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from rest_framework import authentication, exceptions, permissions

from gradinglab.models import WorkerNode, token_hash
from pdcsite.security import token_failed


class WorkerPrincipal:
    """request.user for a worker: authenticated, but no person and no permissions."""

    is_authenticated = True
    is_active = True
    is_staff = is_superuser = False
    is_anonymous = False

    def __init__(self, node: WorkerNode) -> None:
        self.node = node
        self.pk = None

    def __str__(self) -> str:
        return f"worker {self.node.name}"


class WorkerTokenAuthentication(authentication.BaseAuthentication):
    keyword = "Worker"

    def authenticate(self, request):  # type: ignore[override]
        header = authentication.get_authorization_header(request).decode("latin-1").split()
        if not header or header[0] != self.keyword:
            return None
        if len(header) != 2:
            token_failed(request._request)
            raise exceptions.AuthenticationFailed(_("评测机凭据格式不对。"))
        node = WorkerNode.objects.filter(token_hash=token_hash(header[1]), active=True).first()
        if node is None:
            token_failed(request._request)
            raise exceptions.AuthenticationFailed(_("评测机凭据无效或已被撤销。"))
        return (WorkerPrincipal(node), node)

    def authenticate_header(self, request) -> str:
        return self.keyword


class IsWorker(permissions.BasePermission):
    message = gettext_lazy("需要评测机凭据。")

    def has_permission(self, request, view) -> bool:
        return isinstance(request.auth, WorkerNode)
