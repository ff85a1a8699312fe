"""The clusters as a graph the server draws (SVG in the page: no script, no CDN, no inline style).

Each cluster gets its own cell of a grid, its members on a circle; an edge's width grows with the
pair's shared fraction and links to the pair's review page.
"""

from __future__ import annotations

import math
from dataclasses import dataclass

CELL = 240  # px: one cluster's square in the drawing (room for the labels above and below)
RADIUS = 70  # px: the circle its members sit on
COLUMNS = 3  # cells per row; the SVG scales down to a phone's width with its viewBox


@dataclass(frozen=True)
class Node:
    key: str
    label: str
    x: float
    y: float
    label_y: float  # above a node in the upper half of its circle, below one in the lower half


@dataclass(frozen=True)
class Edge:
    x1: float
    y1: float
    x2: float
    y2: float
    width: float  # px, 1..6
    href: str
    title: str


@dataclass(frozen=True)
class Graph:
    width: int
    height: int
    nodes: list[Node]
    edges: list[Edge]


def layout(
    groups: list[list[str]], labels: dict[str, str], edges: list[tuple[str, str, float, str]]
) -> Graph:
    """`groups`: clusters of node keys; `edges`: (a, b, fraction, href) between drawn nodes."""
    where: dict[str, tuple[float, float]] = {}
    nodes = []
    for n, group in enumerate(groups):
        cx = (n % COLUMNS) * CELL + CELL / 2
        cy = (n // COLUMNS) * CELL + CELL / 2
        for i, key in enumerate(group):
            angle = 2 * math.pi * i / len(group) - math.pi / 2
            x, y = round(cx + RADIUS * math.cos(angle), 1), round(cy + RADIUS * math.sin(angle), 1)
            where[key] = (x, y)
            label_y = round(y - 16 if y < cy else y + 24, 1)
            nodes.append(Node(key, labels.get(key, key), x, y, label_y))
    drawn = [
        Edge(*where[a], *where[b], round(1 + 5 * fraction, 1), href, f"{fraction:.0%}")
        for a, b, fraction, href in edges
        if a in where and b in where
    ]
    rows = max(1, math.ceil(len(groups) / COLUMNS))
    return Graph(min(len(groups), COLUMNS) * CELL or CELL, rows * CELL, nodes, drawn)
