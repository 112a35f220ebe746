# SPDX-License-Identifier: GPL-2.0 OR BSD-2-Clause
"""bench/svgplot.py - line charts as SVG, and least-squares fits, for the
bench's curves (agent cost against locks, ns per run against event rate).

Plain Python, no plotting library: a chart is a few panels side by side,
each with its axes (linear or log10), ticks, one polyline and its markers
per series, and a legend.  fit_line() and fit_power() give the figures the
bench prints beside the plot.
"""
import math
from xml.sax.saxutils import escape

COLOURS = ("#1f77b4", "#d62728", "#2ca02c", "#9467bd", "#ff7f0e",
           "#8c564b")
PANEL_W, PANEL_H = 420, 312
MARGIN_L, MARGIN_R, MARGIN_T, MARGIN_B = 64, 16, 34, 78


def fit_line(points):
    """Least squares y = a + b*x over [(x, y), ...]: (a, b, r2); None
    with fewer than two distinct x."""
    pts = [(float(x), float(y)) for x, y in points]
    n = len(pts)
    if n < 2:
        return None
    mx = sum(x for x, _ in pts) / n
    my = sum(y for _, y in pts) / n
    sxx = sum((x - mx) ** 2 for x, _ in pts)
    if sxx == 0:
        return None
    sxy = sum((x - mx) * (y - my) for x, y in pts)
    b = sxy / sxx
    a = my - b * mx
    syy = sum((y - my) ** 2 for _, y in pts)
    r2 = 1.0 if syy == 0 else (sxy * sxy) / (sxx * syy)
    return a, b, r2


def fit_two(rows):
    """Least squares y = a + b*u + c*v over [(u, v, y), ...]: (a, b, c),
    or None when u and v do not vary independently."""
    n = float(len(rows))
    if n < 3:
        return None
    su = sum(u for u, _, _ in rows)
    sv = sum(v for _, v, _ in rows)
    m = [[n, su, sv],
         [su, sum(u * u for u, _, _ in rows), sum(u * v for u, v, _ in rows)],
         [sv, sum(u * v for u, v, _ in rows), sum(v * v for _, v, _ in rows)]]
    r = [sum(y for _, _, y in rows), sum(u * y for u, _, y in rows),
         sum(v * y for _, v, y in rows)]

    def det(a):
        return (a[0][0] * (a[1][1] * a[2][2] - a[1][2] * a[2][1]) -
                a[0][1] * (a[1][0] * a[2][2] - a[1][2] * a[2][0]) +
                a[0][2] * (a[1][0] * a[2][1] - a[1][1] * a[2][0]))
    d = det(m)
    scale = max(abs(x) for row in m for x in row) ** 3
    if abs(d) <= 1e-12 * scale:
        return None
    out = []
    for col in range(3):  # Cramer's rule
        mc = [row[:] for row in m]
        for i in range(3):
            mc[i][col] = r[i]
        out.append(det(mc) / d)
    return tuple(out)


def fit_power(points):
    """y = c * x^k fitted on log-log (positive points only): (c, k, r2);
    k near 1 is linear growth, near 0 flat.  None when it cannot fit."""
    pts = [(math.log(x), math.log(y)) for x, y in points if x > 0 and y > 0]
    f = fit_line(pts)
    if not f:
        return None
    return math.exp(f[0]), f[1], f[2]


def nice_ticks(lo, hi, count=5):
    """Round tick values covering [lo, hi]."""
    if hi <= lo:
        hi = lo + (abs(lo) or 1.0)
    raw = (hi - lo) / count
    mag = 10 ** math.floor(math.log10(raw))
    step = next(m * mag for m in (1, 2, 2.5, 5, 10) if m * mag >= raw)
    first = math.floor(lo / step) * step
    ticks, v = [], first
    while v <= hi + step * 1e-9:
        ticks.append(round(v, 12))
        v += step
    if ticks[-1] < hi:
        ticks.append(ticks[-1] + step)
    return ticks


def fmt_num(v):
    if v == 0:
        return "0"
    a = abs(v)
    for div, suf in ((1e9, "G"), (1e6, "M"), (1e3, "k")):
        if a >= div:
            s = "%.3g" % (v / div)
            return s + suf
    return "%.3g" % v


class Axis:
    """Maps data to pixels along one axis, linear or log10."""

    def __init__(self, vals, lo_px, hi_px, log, zero):
        self.log = log and all(v > 0 for v in vals)
        self.lo_px, self.hi_px = lo_px, hi_px
        if self.log:
            lo = math.floor(math.log10(min(vals)))
            hi = math.ceil(math.log10(max(vals)))
            if hi == lo:
                hi = lo + 1
            self.ticks = [10.0 ** e for e in range(lo, hi + 1)]
            self.lo, self.hi = float(lo), float(hi)
        else:
            lo, hi = min(vals), max(vals)
            if zero:
                lo = min(0.0, lo)
            self.ticks = nice_ticks(lo, hi)
            self.lo, self.hi = self.ticks[0], self.ticks[-1]

    def px(self, v):
        t = math.log10(v) if self.log else v
        span = (self.hi - self.lo) or 1.0
        return self.lo_px + (t - self.lo) / span * (self.hi_px - self.lo_px)


def _panel(out, ox, panel):
    """One panel at x offset @ox: dict title, xlabel, ylabel, series
    [(name, [(x, y), ...])], optional logx, logy, note."""
    def keep(p):  # a log axis cannot show 0 or below: left out, counted
        return p[1] is not None and \
            (not panel.get("logx") or p[0] > 0) and \
            (not panel.get("logy") or p[1] > 0)
    series = [(n, [p for p in pts if keep(p)]) for n, pts in panel["series"]]
    dropped = sum(len(pts) for _, pts in panel["series"]) - \
        sum(len(pts) for _, pts in series)
    xs = [x for _, pts in series for x, _ in pts]
    ys = [y for _, pts in series for _, y in pts]
    left, right = ox + MARGIN_L, ox + PANEL_W - MARGIN_R
    top, bottom = MARGIN_T, PANEL_H - MARGIN_B
    out.append('<text x="%.1f" y="18" font-size="13" font-weight="bold" '
               'text-anchor="middle">%s</text>' %
               ((left + right) / 2, escape(panel["title"])))
    out.append('<rect x="%d" y="%d" width="%d" height="%d" fill="none" '
               'stroke="#888"/>' % (left, top, right - left, bottom - top))
    if not xs:
        out.append('<text x="%.1f" y="%.1f" font-size="12" '
                   'text-anchor="middle">no data</text>' %
                   ((left + right) / 2, (top + bottom) / 2))
        return
    ax = Axis(xs, left, right, panel.get("logx"), False)
    ay = Axis(ys, bottom, top, panel.get("logy"), True)
    for t in ax.ticks:
        x = ax.px(t)
        out.append('<line x1="%.1f" y1="%d" x2="%.1f" y2="%d" '
                   'stroke="#ddd"/>' % (x, top, x, bottom))
        out.append('<text x="%.1f" y="%d" font-size="10" '
                   'text-anchor="middle">%s</text>' %
                   (x, bottom + 13, fmt_num(t)))
    for t in ay.ticks:
        y = ay.px(t)
        out.append('<line x1="%d" y1="%.1f" x2="%d" y2="%.1f" '
                   'stroke="#ddd"/>' % (left, y, right, y))
        out.append('<text x="%d" y="%.1f" font-size="10" '
                   'text-anchor="end">%s</text>' %
                   (left - 4, y + 3, fmt_num(t)))
    out.append('<text x="%.1f" y="%d" font-size="11" '
               'text-anchor="middle">%s</text>' %
               ((left + right) / 2, bottom + 28,
                escape(panel["xlabel"])))
    out.append('<text transform="translate(%d,%.1f) rotate(-90)" '
               'font-size="11" text-anchor="middle">%s</text>' %
               (ox + 14, (top + bottom) / 2, escape(panel["ylabel"])))
    ly = bottom + 42
    for i, (name, pts) in enumerate(series):
        col = COLOURS[i % len(COLOURS)]
        pts = sorted(pts)
        coords = " ".join("%.1f,%.1f" % (ax.px(x), ay.px(y))
                          for x, y in pts)
        if len(pts) > 1:
            out.append('<polyline points="%s" fill="none" stroke="%s" '
                       'stroke-width="1.5"/>' % (coords, col))
        for x, y in pts:
            out.append('<circle cx="%.1f" cy="%.1f" r="3" fill="%s"/>' %
                       (ax.px(x), ay.px(y), col))
        lx = left + (i % 2) * (right - left) // 2
        if i and i % 2 == 0:
            ly += 13
        out.append('<rect x="%d" y="%d" width="10" height="3" '
                   'fill="%s"/>' % (lx, ly - 4, col))
        out.append('<text x="%d" y="%d" font-size="10">%s</text>' %
                   (lx + 14, ly, escape(name)))
    notes = [panel["note"]] if panel.get("note") else []
    if dropped:
        notes.append("%d point(s) at 0 not drawn (log axis)" % dropped)
    for i, note in enumerate(notes):
        out.append('<text x="%d" y="%d" font-size="9" fill="#555">%s'
                   '</text>' % (left, ly + 14 + 11 * i, escape(note)))


def chart(title, panels):
    """An SVG document: @title above the @panels side by side."""
    w, h = PANEL_W * len(panels), PANEL_H + 24
    out = ['<?xml version="1.0" encoding="UTF-8"?>',
           '<svg xmlns="http://www.w3.org/2000/svg" width="%d" height="%d" '
           'viewBox="0 0 %d %d" font-family="sans-serif">' % (w, h, w, h),
           '<rect width="100%" height="100%" fill="white"/>',
           '<text x="6" y="%d" font-size="10" fill="#555">%s</text>' %
           (h - 6, escape(title)),
           '<g>']
    for i, p in enumerate(panels):
        _panel(out, i * PANEL_W, p)
    out.append("</g></svg>")
    return "\n".join(out) + "\n"
