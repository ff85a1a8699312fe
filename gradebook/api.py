"""`GET /grades/api/mine`: the signed-in student's own grades, exactly what 我的成绩 shows."""

from __future__ import annotations

from rest_framework.request import Request
from rest_framework.response import Response
from rest_framework.views import APIView

from gradebook import selectors


class MyGradesView(APIView):
    def get(self, request: Request) -> Response:
        return Response(selectors.student_api_payload(request.user))
