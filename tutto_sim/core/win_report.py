"""Report pages of the two-player win tables, whatever the dice game.

Part of the report layer. A game's report computes, from its win table
(its docs page), a :class:`WinMap` per heat map (the chance
to win at the start of a turn over both scores) and a :class:`BankCurves`
(the smallest turn total at which the win-optimal player banks in one
situation, against the score difference, for a few opponent scores, beside
the points-optimal threshold); this module draws them on a page.
"""

from __future__ import annotations

from dataclasses import dataclass, field

import matplotlib
import numpy as np

from tutto_sim.core.report import BLUE, GREEN, GREY, INK, ORANGE, Sheet, landscape_page

_CURVE_STYLES = (dict(color=INK, marker="o"), dict(color=BLUE, marker="s"),
                 dict(color=ORANGE, marker="^"), dict(color=GREEN, marker="D"),
                 dict(color=GREY, marker="v"))


@dataclass(frozen=True)
class WinMap:
    """``W[i, j]``: the chance to win of the player to move with ``scores[i]``
    points against the opponent's ``scores[j]`` (both ascending), at the start
    of a turn."""

    label: str
    scores: np.ndarray
    W: np.ndarray


@dataclass(frozen=True)
class BankCurves:
    """One situation's bank threshold of the win-optimal player.

    ``curves[opp] = (own, threshold)``: for the opponent on ``opp`` points and
    the player on ``own`` points (arrays), the smallest turn total (points)
    from which the player banks at every larger total; NaN: it never banks
    there; ``ev``: the points-optimal player's threshold (None: never)."""

    label: str
    curves: dict
    ev: int | None
    lowest: int = 0  # the smallest turn total the situation can have
    notes: list = field(default_factory=list)


def threshold(totals, banks) -> float:
    """Smallest of ``totals`` above every total that does not bank (the player
    banks there and at every larger total listed); NaN if none is."""
    totals, banks = np.asarray(totals), np.asarray(banks, dtype=bool)
    if not banks.any():
        return float("nan")
    if banks.all():
        return float(totals.min())
    above = totals[totals > totals[~banks].max()]
    return float(above.min()) if len(above) else float("nan")


def heatmap_sheet(maps: list[WinMap], title: str, caption: str, number: int,
                  name: str) -> Sheet:
    """One heat map per :class:`WinMap`, side by side, with the 50% line."""
    fig = landscape_page(title, caption)
    axes = fig.subplots(1, len(maps), squeeze=False)[0]
    im = None
    for ax, m in zip(axes, maps):
        s = m.scores
        step = float(s[1] - s[0]) if len(s) > 1 else 50.0
        ext = (s[0] - step / 2, s[-1] + step / 2, s[0] - step / 2, s[-1] + step / 2)
        # rows: own score (y), columns: the opponent's (x)
        # 20 steps of 5%: the PNG's palette keeps every one of them
        cmap = matplotlib.colormaps["RdBu"].resampled(20)
        im = ax.imshow(m.W, origin="lower", extent=ext, cmap=cmap, vmin=0.0, vmax=1.0,
                       aspect="equal", interpolation="nearest")
        if len(s) > 2:
            cs = ax.contour(s, s, m.W, levels=[0.25, 0.5, 0.75], colors=[GREY, INK, GREY],
                            linewidths=[0.8, 1.4, 0.8])
            ax.clabel(cs, fmt=lambda v: f"{v:.0%}", fontsize=7.5)
        ax.set_xlabel("the opponent's score (points)")
        ax.set_ylabel("your score (points)")
        ax.set_title(m.label, loc="left")
        ax.grid(False)
    cb = fig.colorbar(im, ax=list(axes), shrink=0.85, label="your chance to win")
    cb.ax.yaxis.set_major_formatter(_percent())
    return Sheet(fig, f"{number:02d}-{name}", title, caption)


def _percent():
    from matplotlib.ticker import FuncFormatter

    return FuncFormatter(lambda v, _: f"{v:.0%}")


def thresholds_sheet(panels: list[BankCurves], title: str, caption: str, number: int,
                     name: str) -> Sheet:
    """Per :class:`BankCurves` a panel: threshold against your score minus the
    opponent's, one line per opponent score, the points-optimal threshold dashed."""
    fig = landscape_page(title, caption)
    axes = fig.subplots(1, len(panels), squeeze=False)[0]
    for ax, p in zip(axes, panels):
        finite = [float(np.nanmax(th)) for _, th in p.curves.values() if np.isfinite(th).any()]
        ymax = max(finite + [float(p.ev or 0), float(p.lowest)]) * 1.08 + 50
        for k, (opp, (own, th)) in enumerate(sorted(p.curves.items())):
            st = _CURVE_STYLES[k % len(_CURVE_STYLES)]
            ax.plot(own - opp, th, lw=1.3, ms=3.5, mfc="white", label=f"opponent on {opp:,}",
                    **st)
            never = np.isnan(th)  # never banks: a cross along the top
            ax.plot((own - opp)[never], np.full(int(never.sum()), ymax), ls="none", ms=4,
                    marker="x", color=st["color"])
        if p.ev is not None:
            ax.axhline(p.ev, color=GREY, ls="--", lw=1.2,
                       label=f"playing for points: {p.ev:,}")
        ax.axvline(0, color="#AAAAAA", lw=0.8)
        ax.set_ylim(0, ymax + 60)
        ax.set_xlabel("your score minus the opponent's (points)")
        ax.set_ylabel("banks from a turn total of (points)")
        ax.set_title(p.label, loc="left")
        ax.legend(loc="upper left", fontsize=7.5)
        for j, note in enumerate(p.notes):
            ax.text(0.99, 0.02 + 0.05 * j, note, transform=ax.transAxes, ha="right",
                    va="bottom", fontsize=7.5, color=GREY)
    return Sheet(fig, f"{number:02d}-{name}", title, caption)
