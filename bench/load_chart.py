"""The load-with-faults chart: p50 and p95 latency per 10 s, the fault window shaded, errors as red bars.

Plain SVG written by hand (no plotting library in the dependencies); opens in any browser.
"""

from __future__ import annotations

from html import escape
from typing import Any

WIDTH, HEIGHT = 900, 380
LEFT, RIGHT, TOP, BOTTOM = 60, 20, 40, 50


def _polyline(points: list[tuple[float, float]], colour: str, dash: str = "") -> str:
    if not points:
        return ""
    coords = " ".join(f"{x:.1f},{y:.1f}" for x, y in points)
    extra = f' stroke-dasharray="{dash}"' if dash else ""
    return f'<polyline fill="none" stroke="{colour}" stroke-width="2"{extra} points="{coords}"/>'


def render_svg(result: dict[str, Any]) -> str:
    rows = result.get("per_10s") or []
    duration = max(float(result.get("duration_s") or 1.0), 10.0)
    p95s = [r["all"]["p95_ms"] for r in rows if r["all"]["p95_ms"] is not None]
    top_ms = max(p95s + [1.0]) * 1.1
    max_errors = max([r["errors"] for r in rows] + [1])
    plot_w, plot_h = WIDTH - LEFT - RIGHT, HEIGHT - TOP - BOTTOM

    def x(seconds: float) -> float:
        return LEFT + plot_w * min(seconds, duration) / duration

    def y(ms: float) -> float:
        return TOP + plot_h * (1 - ms / top_ms)

    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{WIDTH}" height="{HEIGHT}" font-family="sans-serif" '
             f'font-size="12"><rect width="100%" height="100%" fill="white"/>']  # fmt: skip
    lo, hi = result.get("fault_window_s") or [0, 0]
    parts.append(f'<rect x="{x(lo):.1f}" y="{TOP}" width="{max(x(hi) - x(lo), 1):.1f}" height="{plot_h}" '
                 f'fill="#f6d6a8" opacity="0.6"/>')  # fmt: skip
    for r in rows:  # errors (5xx and no answer) per bucket, scaled to a quarter of the plot
        if r["errors"]:
            h = plot_h / 4 * r["errors"] / max_errors
            parts.append(f'<rect x="{x(r["from_s"]):.1f}" y="{TOP + plot_h - h:.1f}" width="6" height="{h:.1f}" '
                         f'fill="#c0392b"><title>{r["errors"]} errors</title></rect>')  # fmt: skip
    for fraction in (0, 0.25, 0.5, 0.75, 1.0):
        ms = top_ms * fraction
        parts.append(f'<line x1="{LEFT}" x2="{WIDTH - RIGHT}" y1="{y(ms):.1f}" y2="{y(ms):.1f}" stroke="#ddd"/>')
        parts.append(f'<text x="{LEFT - 6}" y="{y(ms) + 4:.1f}" text-anchor="end">{ms:.0f}</text>')
    step = 60 if duration > 180 else 10 if duration <= 120 else 30
    for s in range(0, int(duration) + 1, step):
        parts.append(f'<text x="{x(s):.1f}" y="{HEIGHT - BOTTOM + 18}" text-anchor="middle">{s}</text>')
    mid = [(x(r["from_s"] + 5), r["all"]) for r in rows]
    parts.append(_polyline([(px, y(v["p50_ms"])) for px, v in mid if v["p50_ms"] is not None], "#2c7fb8"))
    parts.append(_polyline([(px, y(v["p95_ms"])) for px, v in mid if v["p95_ms"] is not None], "#2c7fb8", "6 4"))
    rec = result.get("reconciliation", {})
    title = (f"{result.get('clients')} clients, {duration:.0f} s: accepted {rec.get('accepted_messages')}, stored "
             f"{rec.get('stored_messages')}, extracted {rec.get('extracted')}, duplicate facts "
             f"{rec.get('duplicate_facts')}, 5xx outside faults {rec.get('errors_outside_fault_window')}")  # fmt: skip
    parts += [
        f'<text x="{LEFT}" y="22" font-size="14">{escape(title)}</text>',
        f'<text x="{LEFT + plot_w / 2}" y="{HEIGHT - 12}" text-anchor="middle">seconds since the load started; '
        "shaded: fault window; red: errors; solid p50, dashed p95 (ms, all operations)</text>",
        f'<text x="14" y="{TOP + plot_h / 2}" transform="rotate(-90 14 {TOP + plot_h / 2})" '
        'text-anchor="middle">latency, ms</text>',
        "</svg>",
    ]
    return "\n".join(p for p in parts if p)
