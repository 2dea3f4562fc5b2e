"""The Conformance tab's charts as inline SVG, drawn on the server: no script, no library, no CDN.

Every text put into the SVG is escaped here (labels are the reader's words, counts and dates, but the markup is
returned as safe and goes into the page as it is). Bars and points carry a ``<title>``, which browsers show as a
tooltip. The drawing is hidden from assistive technology: each chart is followed by its numbers as a visually
hidden list named by the chart's title (WCAG 1.1.1), which screen readers read in the page's order.
"""
from __future__ import annotations

import datetime as dt
from typing import Any, Iterable, Mapping, Optional, Sequence

from markupsafe import Markup, escape

# Score buckets of the distribution: 0–9, 10–19, … 90–99, and 100 on its own (a conformant passport's score).
BUCKETS: tuple[tuple[int, int], ...] = tuple((low, low + 9) for low in range(0, 100, 10)) + ((100, 100),)
_COLOURS = {"low": "#c0392b", "mid": "#e67e22", "high": "#27ae60", "unread": "#7f8c8d", "line": "#2c6fbb"}


def distribution(scores: Iterable[Optional[int]]) -> list[dict[str, Any]]:
    """``[{"label", "count", "kind"}]``: one bucket per score range, then the passports that could not be read."""
    scores = list(scores)
    bars = []
    for low, high in BUCKETS:
        count = sum(1 for s in scores if s is not None and low <= s <= high)
        kind = "low" if high < 50 else "mid" if high < 80 else "high"
        bars.append({"label": str(low) if low == high else f"{low}–{high}", "count": count, "kind": kind})
    bars.append({"label": "—", "count": sum(1 for s in scores if s is None), "kind": "unread"})
    return bars


def distribution_svg(scores: Iterable[Optional[int]], title: str, unread_label: str) -> Markup:
    """A bar per score bucket (and one for unread passports), the count above each bar."""
    bars = distribution(scores)
    width, height, left, bottom, top = 560, 220, 36, 36, 20
    slot = (width - left - 8) / len(bars)
    tallest = max((bar["count"] for bar in bars), default=0) or 1
    plot = height - bottom - top
    parts = [_open(width, height, title), _axes(left, top, width, height - bottom)]
    numbers = []
    for index, bar in enumerate(bars):
        x = left + index * slot + slot * 0.15
        bar_height = plot * bar["count"] / tallest
        y = height - bottom - bar_height
        label = unread_label if bar["kind"] == "unread" else bar["label"]
        parts.append(
            f'<g class="passport-chart-bar" data-bucket="{escape(bar["label"])}" data-count="{bar["count"]}">'
            f'<title>{escape(label)}: {bar["count"]}</title>'
            f'<rect x="{x:.1f}" y="{y:.1f}" width="{slot * 0.7:.1f}" height="{bar_height:.1f}" '
            f'fill="{_COLOURS[bar["kind"]]}"/>'
            f'<text x="{x + slot * 0.35:.1f}" y="{y - 4:.1f}" text-anchor="middle" font-size="11">{bar["count"]}'
            f'</text>'
            f'<text x="{x + slot * 0.35:.1f}" y="{height - bottom + 14:.1f}" text-anchor="middle" font-size="10">'
            f'{escape(bar["label"])}</text></g>'
        )
        numbers.append(f"{label}: {bar['count']}")
    parts.append("</svg>")
    return Markup("".join(parts)) + numbers_list(title, numbers)


def history_svg(history: Sequence[Mapping[str, Any]], title: str, score_label: str) -> Markup:
    """The mean score of each finished job as a line over the jobs' finishing times (y: 0–100)."""
    points = [(when, job["mean_score"], job) for job in history
              if job.get("mean_score") is not None and (when := _time(job.get("finished"))) is not None]
    width, height, left, bottom, top, right = 560, 200, 36, 36, 14, 16
    plot_w, plot_h = width - left - right, height - bottom - top
    parts = [_open(width, height, title), _axes(left, top, width - right, height - bottom)]
    numbers = [f'{when.strftime("%Y-%m-%d %H:%M")}: {score_label} {mean}' for when, mean, _ in points]
    for value in (0, 50, 100):
        y = top + plot_h * (1 - value / 100)
        parts.append(f'<text x="{left - 4}" y="{y + 4:.1f}" text-anchor="end" font-size="10">{value}</text>'
                     f'<line x1="{left}" y1="{y:.1f}" x2="{width - right}" y2="{y:.1f}" stroke="#ddd"/>')
    if points:
        first, last = points[0][0], points[-1][0]
        span = (last - first).total_seconds()

        def x_of(when: dt.datetime) -> float:
            return left + (plot_w * (when - first).total_seconds() / span if span else plot_w / 2)

        coordinates = [(x_of(when), top + plot_h * (1 - mean / 100), when, mean, job) for when, mean, job in points]
        path = " ".join(f"{x:.1f},{y:.1f}" for x, y, *_ in coordinates)
        parts.append(f'<polyline class="passport-chart-line" points="{path}" fill="none" '
                     f'stroke="{_COLOURS["line"]}" stroke-width="2"/>')
        for x, y, when, mean, job in coordinates:
            parts.append(
                f'<g class="passport-chart-point" data-job="{escape(job["job_id"])}" data-mean="{mean}">'
                f'<title>{escape(when.strftime("%Y-%m-%d %H:%M"))}: {escape(score_label)} {mean}</title>'
                f'<circle cx="{x:.1f}" cy="{y:.1f}" r="4" fill="{_COLOURS["line"]}"/></g>'
            )
        for when, anchor, x in ((first, "start", left), (last, "end", width - right)):
            parts.append(f'<text x="{x}" y="{height - bottom + 14}" text-anchor="{anchor}" font-size="10">'
                         f'{escape(when.strftime("%Y-%m-%d"))}</text>')
    parts.append("</svg>")
    return Markup("".join(parts)) + numbers_list(title, numbers)


def sparkline_svg(means: Sequence[Optional[float]], title: str) -> Markup:
    """A small line of mean scores (0–100), one point per job in order, for a table row; the last point marked.
    Jobs without a mean (nothing read) are left out; no line at all without two points."""
    values = [mean for mean in means if mean is not None]
    width, height, pad = 100, 24, 3
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" class="passport-sparkline" viewBox="0 0 {width} {height}" '
             f'width="{width}" height="{height}" aria-hidden="true" focusable="false"><title>{escape(title)}</title>']
    if values:
        step = (width - 2 * pad) / max(len(values) - 1, 1)
        coordinates = [(pad + index * step if len(values) > 1 else width / 2,
                        pad + (height - 2 * pad) * (1 - value / 100)) for index, value in enumerate(values)]
        if len(coordinates) > 1:
            path = " ".join(f"{x:.1f},{y:.1f}" for x, y in coordinates)
            parts.append(f'<polyline points="{path}" fill="none" stroke="{_COLOURS["line"]}" stroke-width="1.5"/>')
        x, y = coordinates[-1]
        parts.append(f'<circle cx="{x:.1f}" cy="{y:.1f}" r="2.5" fill="{_COLOURS["line"]}"/>')
    parts.append("</svg>")
    shown = ", ".join(f"{value:g}" for value in values) or "—"
    return Markup("".join(parts)) + Markup('<span class="visually-hidden">{}: {}</span>').format(title, shown)


def numbers_list(title: str, numbers: Sequence[str]) -> Markup:
    """A chart's text equivalent: its numbers, one item each, as a list named by the chart's title that only
    assistive technology reads (the drawing shows them)."""
    items = Markup("").join(Markup("<li>{}</li>").format(number) for number in numbers)
    return Markup('<div class="visually-hidden passport-chart-numbers"><p>{}</p><ul>{}</ul></div>').format(
        title, items)


def _open(width: int, height: int, title: str) -> str:
    return (f'<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 {width} {height}" width="100%" '
            f'style="max-width:{width}px" aria-hidden="true" focusable="false"><title>{escape(title)}</title>')


def _axes(left: float, top: float, right: float, bottom: float) -> str:
    return (f'<line x1="{left}" y1="{top}" x2="{left}" y2="{bottom}" stroke="#555"/>'
            f'<line x1="{left}" y1="{bottom}" x2="{right}" y2="{bottom}" stroke="#555"/>')


def _time(text: Optional[str]) -> Optional[dt.datetime]:
    try:
        return dt.datetime.fromisoformat(text) if text else None
    except ValueError:
        return None
