"""The API's JSON parser: DRF's, plus a refusal of documents nested too deep to parse.

Python's json module raises RecursionError (not ValueError) on ~50 000 nested arrays, which DRF does
not catch: a 500 for any client. Here it is a 400 like every other malformed body.
"""

from __future__ import annotations

from rest_framework.exceptions import ParseError
from rest_framework.parsers import JSONParser


class SafeJSONParser(JSONParser):
    def parse(self, stream, media_type=None, parser_context=None):  # type: ignore[override]
        try:
            return super().parse(stream, media_type, parser_context)
        except RecursionError:
            raise ParseError("JSON parse error - nested too deeply") from None
