"""The API's JSON renderer: DRF's, that never fails on a lone UTF-16 surrogate.

JSON's "\\ud800" escape decodes to a str UTF-8 cannot encode; a refusal that repeats the client's
input ('"triton\\ud800" is not a valid choice.') then raised UnicodeEncodeError while its 400 was
rendered: a 500. Such a document is written with every non-ASCII character escaped, which JSON
allows and which reads back as what was sent.
"""

from __future__ import annotations

from typing import Any

from rest_framework.renderers import JSONRenderer


class _AsciiJSONRenderer(JSONRenderer):
    ensure_ascii = True


class SafeJSONRenderer(JSONRenderer):
    def render(
        self,
        data: Any,
        accepted_media_type: str | None = None,
        renderer_context: dict[str, Any] | None = None,
    ) -> bytes:
        try:
            return super().render(data, accepted_media_type, renderer_context)
        except UnicodeEncodeError:
            return _AsciiJSONRenderer().render(data, accepted_media_type, renderer_context)
