"""Server-side SVG charts: marks proportional to values, every text escaped, empty data drawn without error."""

from __future__ import annotations

import re

from memory_site import charts


def test_columns_stack_series_and_scale_to_a_round_maximum() -> None:
    svg = charts.columns(["01-01", "01-02"], {"kept": [30, 10], "dropped": [10, 0]}, label="Messages")
    heights = [float(h) for h in re.findall(r'<rect [^>]*height="([\d.]+)"', svg)]
    assert len(heights) == 3  # a zero is not drawn
    assert abs(heights[0] - 3 * heights[1]) < 0.2 and heights[1] == heights[2]  # 30 against 10 and 10
    assert ">50<" in svg and "01-02 kept: 10" in svg  # axis up to 50; a tooltip per mark


def test_every_text_is_escaped() -> None:
    svg = charts.bars([("<script>alert(1)</script>", 3)], label='x" onload="alert(1)')
    assert "<script>" not in svg and "&lt;script&gt;" in svg
    assert 'onload="alert(1)"' not in svg
    legend = charts.legend(["<b>bold</b>"])
    assert "<b>" not in legend and "&lt;b&gt;" in legend


def test_empty_data_and_gaps_render() -> None:
    assert "no data" in charts.bars([], label="Facts")
    assert charts.columns([], {}, label="Nothing").endswith("</svg>")
    svg = charts.lines(["a", "b", "c", "d"], {"p50": [5, None, 7, 8]}, label="Latency", unit=" ms")
    assert svg.count("<circle") == 3 and svg.count("<polyline") == 1  # the gap breaks the line; one point alone
