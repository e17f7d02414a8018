"""Charts drawn on the server as inline SVG: no script, no library, nothing fetched by the browser.

Three shapes cover the operator's pages: columns over days (stacked series), lines over days, and horizontal
bars of labelled counts. Every text is escaped; every mark has a <title> the browser shows on hover.
"""

from __future__ import annotations

from collections.abc import Sequence

from django.utils.html import escape, format_html
from django.utils.safestring import SafeString, mark_safe

PALETTE = ("#417690", "#e0a030", "#79aec8", "#ba2121", "#5b8a3c", "#8e6bb0", "#999999", "#d17a5a", "#3c8a86")
_LEFT, _BOTTOM, _TOP, _RIGHT = 48, 22, 10, 8


def _nice_max(value: float) -> float:
    """A round axis maximum at or above `value` (1, 2, 2.5 or 5 times a power of ten)."""
    if value <= 0:
        return 1.0
    power = 10 ** len(str(int(value))) / 10 if value >= 1 else 1.0
    for step in (1, 2, 2.5, 5, 10):
        if value <= step * power:
            return float(step * power)
    return float(value)


def _fmt(value: float) -> str:
    if abs(value) >= 1_000_000:
        return f"{value / 1_000_000:.1f}M"
    if abs(value) >= 10_000:
        return f"{value / 1000:.0f}k"
    return f"{value:.0f}" if float(value).is_integer() or abs(value) >= 100 else f"{value:.1f}"


def _frame(width: int, height: int, top: float, label: str, unit: str) -> list[str]:
    inner_h = height - _TOP - _BOTTOM
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="chart" '
             f'width="100%" aria-label="{escape(label)}">', f"<title>{escape(label)}</title>"]  # fmt: skip
    for i in range(5):
        y = _TOP + inner_h * i / 4
        value = top * (4 - i) / 4
        parts.append(f'<line x1="{_LEFT}" x2="{width - _RIGHT}" y1="{y:.1f}" y2="{y:.1f}" stroke="#e4e4e4"/>')
        parts.append(
            f'<text x="{_LEFT - 4}" y="{y + 4:.1f}" font-size="10" text-anchor="end" fill="#666">'
            f"{escape(_fmt(value))}{escape(unit)}</text>"
        )
    return parts


def _x_labels(labels: Sequence[str], x_of: list[float], height: int) -> list[str]:
    keep = {0, len(labels) - 1, len(labels) // 2} if len(labels) > 8 else set(range(len(labels)))
    return [
        f'<text x="{x_of[i]:.1f}" y="{height - 6}" font-size="10" text-anchor="middle" fill="#666">{escape(labels[i])}</text>'
        for i in sorted(keep)
        if 0 <= i < len(labels)
    ]


def legend(series: Sequence[str]) -> SafeString:
    """The colour key of a chart's series, as HTML."""
    items = [
        format_html('<span class="legend-item"><i style="background:{}"></i>{}</span>', PALETTE[i % len(PALETTE)], name)
        for i, name in enumerate(series)
    ]
    return mark_safe('<div class="chart-legend">' + "".join(items) + "</div>")  # noqa: S308 (parts escaped above)


def columns(
    labels: Sequence[str], series: dict[str, Sequence[float]], *, label: str, unit: str = "", width: int = 640,
    height: int = 200,
) -> SafeString:  # fmt: skip
    """Stacked columns, one per label (day), one colour per series."""
    totals = [sum(s[i] for s in series.values()) for i in range(len(labels))]
    top = _nice_max(max([*totals, 4]))  # counts: at least 0..4, so small days get whole-number ticks
    inner_w, inner_h = width - _LEFT - _RIGHT, height - _TOP - _BOTTOM
    step = inner_w / max(len(labels), 1)
    bar = max(step * 0.7, 1.0)
    parts = _frame(width, height, top, label, unit)
    x_of = [_LEFT + step * i + step / 2 for i in range(len(labels))]
    for i, day in enumerate(labels):
        base = 0.0
        for k, (name, values) in enumerate(series.items()):
            value = float(values[i])
            if value <= 0:
                continue
            h = inner_h * value / top
            y = _TOP + inner_h - inner_h * base / top - h
            parts.append(
                f'<rect x="{x_of[i] - bar / 2:.1f}" y="{y:.1f}" width="{bar:.1f}" height="{h:.1f}" '
                f'fill="{PALETTE[k % len(PALETTE)]}"><title>{escape(day)} {escape(name)}: {escape(_fmt(value))}'
                f"{escape(unit)}</title></rect>"
            )
            base += value
    parts += _x_labels(labels, x_of, height)
    return mark_safe("".join(parts) + "</svg>")  # noqa: S308 (every text escaped above)


def lines(
    labels: Sequence[str], series: dict[str, Sequence[float | None]], *, label: str, unit: str = "",
    width: int = 640, height: int = 200,
) -> SafeString:  # fmt: skip
    """One line per series over the labels (days); a None is a gap (no data that day)."""
    values = [v for s in series.values() for v in s if v is not None]
    top = _nice_max(max(values, default=0))
    inner_w, inner_h = width - _LEFT - _RIGHT, height - _TOP - _BOTTOM
    step = inner_w / max(len(labels), 1)
    x_of = [_LEFT + step * i + step / 2 for i in range(len(labels))]
    parts = _frame(width, height, top, label, unit)
    for k, (name, points) in enumerate(series.items()):
        colour = PALETTE[k % len(PALETTE)]
        path: list[str] = []
        for i, value in enumerate(points):
            if value is None:
                path.append("")
                continue
            y = _TOP + inner_h - inner_h * float(value) / top
            path.append(f"{x_of[i]:.1f},{y:.1f}")
            parts.append(
                f'<circle cx="{x_of[i]:.1f}" cy="{y:.1f}" r="2.5" fill="{colour}"><title>{escape(labels[i])} '
                f"{escape(name)}: {escape(_fmt(float(value)))}{escape(unit)}</title></circle>"
            )
        for run in " ".join(path).split("  "):
            if run.strip().count(",") > 1:
                parts.append(f'<polyline points="{run.strip()}" fill="none" stroke="{colour}" stroke-width="2"/>')
    parts += _x_labels(labels, x_of, height)
    return mark_safe("".join(parts) + "</svg>")  # noqa: S308 (every text escaped above)


def bars(items: Sequence[tuple[str, float]], *, label: str, unit: str = "", width: int = 640) -> SafeString:
    """Horizontal bars of labelled values (largest first as given), the value written at each bar's end."""
    row, name_w = 20, 170
    height = max(row * len(items) + 8, 28)
    top = max((v for _, v in items), default=0) or 1
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" role="img" class="chart" '
             f'width="100%" aria-label="{escape(label)}"><title>{escape(label)}</title>']  # fmt: skip
    if not items:
        parts.append('<text x="4" y="18" font-size="12" fill="#666">no data</text>')
    for i, (name, value) in enumerate(items):
        y = 4 + row * i
        w = (width - name_w - 60) * float(value) / top
        parts.append(
            f'<text x="{name_w - 6}" y="{y + 13}" font-size="11" text-anchor="end" fill="#333">{escape(name[:28])}</text>'
            f'<rect x="{name_w}" y="{y + 2}" width="{max(w, 1):.1f}" height="{row - 6}" fill="{PALETTE[i % len(PALETTE)]}">'
            f"<title>{escape(name)}: {escape(_fmt(float(value)))}{escape(unit)}</title></rect>"
            f'<text x="{name_w + w + 4:.1f}" y="{y + 13}" font-size="11" fill="#333">{escape(_fmt(float(value)))}'
            f"{escape(unit)}</text>"
        )
    return mark_safe("".join(parts) + "</svg>")  # noqa: S308 (every text escaped above)
