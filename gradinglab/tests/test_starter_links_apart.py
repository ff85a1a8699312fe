"""The problem page's starter downloads read as two links: "下载 Triton 起始代码 下载 CUDA 起始代码"
was two underlined links a space apart, one long link at a glance. A middle dot parts them, as
the page's other link rows are parted."""

from __future__ import annotations

import re

import pytest

from gradinglab.tests.labkit import make_assignment

pytestmark = pytest.mark.django_db


def test_the_starter_links_are_parted_by_a_dot(client_a) -> None:
    assignment = make_assignment()
    page = client_a.get(f"/lab/problems/vector-add/?assignment={assignment.pk}").content.decode()
    row = re.search(r"<p>(<a href=\"/lab/problems/vector-add/starter/.*?)</p>", page).group(1)
    links = re.findall(r"<a [^>]*>.*?</a>", row)
    assert len(links) == 2, row
    assert row == f"{links[0]} · {links[1]}", row
