"""What every report shares: the house style, captions, and the writer that
saves one multi-page PDF plus one PNG per figure, byte for byte reproducibly.

Part of the report layer (the top layer: it reads ``solve``, ``policy`` and
``sim`` and is read only by the CLI and ``scripts/make_reports.py``). Figures
are built with :class:`matplotlib.figure.Figure` directly, never with pyplot,
so building a report changes no global matplotlib state (backend, open
figures) of the caller; the style is applied with :func:`style` as an
``rc_context`` only while a report is drawn.

Reproducible files: the PDF carries no creation or modification date and the
PNGs no time chunk, so the same inputs (rules, seed, turns) give byte-identical
files on the same software versions (each game's report tests check it).
"""

from __future__ import annotations

import csv
import math
import re
import textwrap
from collections.abc import Callable
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from tutto_sim.core.stats import wilson

from tutto_sim import __version__

#: Page sizes (inches): a landscape page and A4 upright.
LANDSCAPE = (10.5, 7.0)
PORTRAIT = (8.27, 11.69)
#: PNG resolution and palette size (files kept small; see :func:`save_png`).
PNG_DPI = 150
PNG_COLORS = 128

#: Styles that stay apart in black and white: line style and marker, with a
#: colour-blind safe palette (Okabe and Ito) on top.
INK = "#000000"
BLUE = "#0072B2"
ORANGE = "#D55E00"
GREEN = "#009E73"
GREY = "#666666"
LIGHT = "#BBBBBB"
HATCHES = ("", "///", "...", "xx", "\\\\", "++")
#: The box of a value label drawn where a reference line (a fair share) may run:
#: white behind the text, so the line stops at the label instead of striking it through.
LABEL_BOX = dict(fc="white", ec="none", pad=0.5)

_RC = {
    "font.size": 9.5,
    "axes.titlesize": 10.5,
    "axes.labelsize": 9.5,
    "legend.fontsize": 8.5,
    "xtick.labelsize": 8.5,
    "ytick.labelsize": 8.5,
    "axes.grid": True,
    "grid.color": "#DDDDDD",
    "grid.linewidth": 0.6,
    "axes.spines.top": False,
    "axes.spines.right": False,
    "hatch.linewidth": 0.6,
    "legend.frameon": True,
    "legend.framealpha": 0.92,
    # keep the PDF small and the text selectable in one font everywhere
    "pdf.fonttype": 42,
    "font.family": "DejaVu Sans",
    "svg.hashsalt": "tutto-sim",
    "path.simplify": True,
}


@contextmanager
def style():
    """The house style, for the duration of a report only."""
    with matplotlib.rc_context(_RC):
        yield




def pts(value: float) -> str:
    """Points as players write them: 1,250."""
    return f"{value:,.0f}"


def count(n: int, word: str, plural: str | None = None) -> str:
    """A number of things with the right noun: 1 die, 2 dice, 1 turn, 2,000 turns.

    >>> count(1, "die"), count(5, "die"), count(1, "turn"), count(200_000, "turn")
    ('1 die', '5 dice', '1 turn', '200,000 turns')
    >>> count(1, "series"), count(2, "series")
    ('1 series', '2 series')
    """
    if plural is None:
        plural = {"die": "dice", "series": "series"}.get(word, word + "s")
    return f"{n:,} {word if n == 1 else plural}"


def _decimals(ci: float) -> int:
    """Decimals that show a 95% CI with one significant digit (two if it starts with 1)."""
    if not math.isfinite(ci) or ci <= 0:
        return 2
    d = -math.floor(math.log10(ci))
    if round(ci * 10 ** d) < 2:  # 0.0012 -> 0.0012, not 0.001
        d += 1
    return max(0, min(d, 8))


def pm(mean: float, ci: float, percent: bool = False) -> str:
    """``mean ± ci`` with as many digits as the CI needs to be visible.

    ``percent``: both are shares (0..1) and are printed in per cent.

    >>> pm(0.07123, 0.00041), pm(357.43, 2.04), pm(430.8123, 1.02)
    ('0.0712 ± 0.0004', '357 ± 2', '430.8 ± 1.0')
    >>> pm(0.4534, 0.0022, percent=True)
    '45.3 ± 0.2%'
    """
    if percent:
        mean, ci = 100 * mean, 100 * ci
    if ci == 0:  # an exact value: nothing to show but the value
        return f"{mean:,.{2 if percent else 3}f} ± 0" + ("%" if percent else "")
    d = _decimals(ci)
    return f"{mean:,.{d}f} ± {ci:,.{d}f}" + ("%" if percent else "")


def estimate_text(e, percent: bool = False, sign: bool = False, stacked: bool = False,
                  unit: str | None = None) -> str:
    """An :class:`~tutto_sim.core.stats.Estimate` as the report pages print it,
    with :func:`pm`'s digits: a mean ``357 ± 2``, a proportion (a win rate,
    a chance) with its Wilson interval ``45.3 [45.1, 45.5]%``; minus signs
    as ``−``. ``sign``: ``+`` on a positive mean (never ``−0``); ``stacked``:
    the interval on a line of its own (narrow bars); ``unit``: instead of
    ``%`` (e.g. `` points`` for percentage points).

    >>> from tutto_sim.core.stats import Estimate
    >>> estimate_text(Estimate.proportion(1, 20), percent=True)
    '5 [1, 24]%'
    >>> estimate_text(Estimate(357.43, 2.04, 1000)), estimate_text(Estimate(-4.2, 0.9, 9), sign=True)
    ('357 ± 2', '−4.2 ± 0.9')
    >>> estimate_text(Estimate.proportion(9, 20).shift(-0.5), True, True, True,
    ...               " points").splitlines()
    ['−5', '[−24, 16] points']
    >>> estimate_text(Estimate(0.005, 0.0055, 28800, -0.0002, 0.0108, "wilson-95"), True, True,
    ...               unit=" points")  # a bound that rounds to zero has no sign either
    '+0.5 [0.0, 1.1] points'
    >>> estimate_text(Estimate(-0.007, 0.0075, 21600, -0.014, 0.001, "wilson-95"), True,
    ...               unit=" points")
    '−0.7 [−1.4, 0.1] points'
    """
    scale = 100 if percent else 1
    if e.ci95 == 0:
        return pm(e.mean, 0.0, percent)
    d = _decimals(e.ci95 * scale)
    text = e.text(d, percent, sign and round(e.mean * scale, d) != 0, unit)
    text = re.sub(r"(?<![\d.])-(0(?:\.0+)?)(?![\d.])", r"\1", text)  # never "−0", "−0.0"
    if stacked:
        text = text.replace(" [", "\n[", 1).replace(" ± ", "\n± ", 1)
    return text.replace("-", "−")


def beside_exact(e, exact: float, exact_decimals: int, percent: bool = False) -> str:
    """:func:`estimate_text` of an estimate printed beside an exact value shown
    with ``exact_decimals``: more digits where the rounded figures would put
    the exact value on the wrong side of the interval (``stats.decimals_beside``).

    >>> from tutto_sim.core.stats import Estimate
    >>> beside_exact(Estimate(0.5560, 0.0196, 4000), 0.537962, 4, percent=True)
    '55.6 ± 2.0%'
    """
    from tutto_sim.core.stats import decimals_beside

    scale = 100 if percent else 1
    d = decimals_beside(e, exact, start=_decimals(e.ci95 * scale), exact_decimals=exact_decimals,
                        percent=percent)
    return e.text(d, percent)


def exact_and_estimate(e, exact: float, least: int = 0, percent: bool = False) -> tuple[str, str]:
    """An exact value and the estimate beside it, printed with the same
    decimals (at least ``least``, else what the estimate needs): as many as
    the printed interval needs to hold the printed exact value exactly when
    the unrounded one holds it (``stats.decimals_beside``); ``percent``: both
    in per cent, the exact one with ``%``.

    >>> from tutto_sim.core.stats import Estimate
    >>> e = Estimate(0.0168096, 0.0001395, 1080000, 0.0166706, 0.0169497, "wilson-95")
    >>> exact_and_estimate(e, 0.0167914, 1, percent=True)  # not "1.7%" beside [1.667, 1.695]
    ('1.679%', '1.681 [1.667, 1.695]%')
    """
    from tutto_sim.core.stats import decimals_beside

    scale = 100 if percent else 1
    d = decimals_beside(e, exact, start=max(least, _decimals(e.ci95 * scale)), percent=percent)
    return f"{exact * scale:.{d}f}" + ("%" if percent else ""), e.text(d, percent)


def pct(p: float) -> str:
    """A probability in per cent with at least two significant digits.

    >>> pct(0.402), pct(0.015), pct(0.0082), pct(0.00012), pct(0.0)
    ('40.2%', '1.5%', '0.82%', '0.012%', '0.0%')
    """
    x = 100 * p
    if x <= 0 or not math.isfinite(x):
        return f"{x:.1f}%"
    return f"{x:.{max(1, 1 - math.floor(math.log10(x)))}f}%"


def threshold_words(points, lowest: int = 0, never: int | None = None) -> str:
    """A bank threshold as a player says it: "always bank" when every total
    that can occur (``lowest`` and up) banks, "never bank" for ``None`` (or
    ``points >= never``), otherwise "bank at ≥ 1,250".

    >>> threshold_words(0), threshold_words(None), threshold_words(1250)
    ('always bank', 'never bank', 'bank at ≥ 1,250')
    >>> threshold_words(300, lowest=300)
    'always bank'
    """
    if points is None or (never is not None and points >= never):
        return "never bank"
    if points <= max(lowest, 0):
        return "always bank"
    return f"bank at ≥ {pts(points)}"


def threshold_cell(points, lowest: int = 0, never: int | None = None) -> str:
    """A bank threshold in a table cell: "1,250", "never bank", "always bank"
    (:func:`threshold_words` without "bank at ≥").

    >>> threshold_cell(1250), threshold_cell(None), threshold_cell(100, lowest=100)
    ('1,250', 'never bank', 'always bank')
    """
    words = threshold_words(points, lowest, never)
    return pts(points) if words.startswith("bank at") else words


def lowest_total(n_dice: int, dice_left: int, unit: int) -> int:
    """The smallest turn total with ``dice_left`` of ``n_dice`` dice left, each
    die set aside worth at least ``unit`` points.

    >>> lowest_total(6, 2, 50)
    200
    """
    return (n_dice - dice_left) * unit


def dice(n: int) -> str:
    """A number of dice: "1 die", "3 dice"."""
    return count(n, "die")


def signed(mean: float, ci: float) -> str:
    """A difference with its sign: "+12.3 ± 0.9", "−4 ± 2", and "0 ± 2" where
    the mean rounds to zero (never "−0").

    >>> signed(12.34, 0.9), signed(-4.2, 2), signed(-0.2, 2)
    ('+12.3 ± 0.9', '−4 ± 2', '0 ± 2')
    """
    text = pm(abs(mean), ci)
    if float(text.split(" ± ")[0].replace(",", "")) == 0:
        return text
    return ("+" if mean > 0 else "−") + text


def evenly(games: int, tournaments, what: str = "games") -> str:
    """How evenly ``games`` per tournament cover the seatings of each of
    ``tournaments`` (results with ``lineups`` and ``players``)."""
    if all(games % (len(r.lineups) * r.players) == 0 for r in tournaments):
        return "equally often"
    return f"as evenly as the number of {what} allows"


def source(data, sample: str | None = None) -> str:
    """The end of a caption: the rules of ``data`` (a report's data, with
    ``rules`` and ``seed``); for a simulation (``sample``: its size in words,
    empty if the caption says it already) the seed; the software version."""
    tail = sentence(rules_label(data.rules))
    if sample is not None:
        tail = f"{tail}; seed {data.seed}" + (f", {sample}" if sample else "")
    return f"{tail}; tutto-sim {__version__}."


def turns_cover_caption(data, solver_doc: str, simulator: str = "") -> str:
    """The cover's caption of a report of exact and simulated turns: the
    version, where the exact figures (the solver of ``solver_doc``) and the
    simulated ones (``data.turns`` per point) come from, the rules."""
    return (f"tutto-sim {__version__}. Exact figures come from the dynamic-programming "
            f"solver ({solver_doc}); simulated ones from the turn simulator{simulator}, "
            f"{count(data.turns, 'turn')} per point, seed {data.seed}. "
            f"{sentence(rules_label(data.rules))}.")


def report_footer(rules, game: str = "") -> str:
    """The end of a page's caption that speaks of the report rather than of
    its own sample (the tournament page): ``game``, the rules, the version."""
    return f"Report: {game + ', ' if game else ''}{rules_label(rules)}; tutto-sim {__version__}."


def reproduce_command(game: str, data, size: str, tournament=None) -> str:
    """The command that writes the report of ``data`` again (the cover):
    ``size`` the report's sample-size option with its value (``--turns
    200000``), ``tournament`` the :class:`Tournament` of ``--tournament``. A
    rule flag that ``--game game`` implies (a variant preset's ``--variant``) is left out."""
    flags = "".join(" " + f for f in rules_flags(data.rules) if f != f"--variant {game}")
    cmd = f"tutto-sim report --game {game} --seed {data.seed} {size}{flags}"
    if tournament is not None:
        cmd += f" --tournament {tournament.file}"
    return cmd + " --out DIR"


def join_words(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _words(rules):
    """The module that puts the game of ``rules`` in words (its ``words`` hook)."""
    from tutto_sim.core import registry

    return registry.for_rules(rules).hooks.words()


def changed_rules(rules) -> list[str]:
    """The rules that differ from the game's defaults, in the players' words."""
    return _words(rules).changed_rules(rules)


def rules_words(rules) -> str:
    """The rules in one phrase, without the fingerprint: the docs page that
    states them and the options that differ from the defaults."""
    return _words(rules).rules_words(rules)


def rules_label(rules) -> str:
    """The rules in one short phrase for captions: :func:`rules_words` and a
    short fingerprint (the first 12 hex digits of the rules' SHA-256, as in
    the CSVs and policy files)."""
    return f"{rules_words(rules)}, rules fingerprint {rules.digest()[:12]}"


def sentence(text: str) -> str:
    """``text`` as the start of a sentence: its first letter upper-case."""
    return text[:1].upper() + text[1:]


def rules_flags(rules) -> list[str]:
    """The command-line flags that give ``rules`` (the options that differ
    from the game's defaults), for the command that reproduces a report."""
    return _words(rules).rules_flags(rules)


def rules_lines(rules) -> list[str]:
    """Every rule option of ``rules`` as a line in the players' words (the cover)."""
    return _words(rules).rules_lines(rules)


def merge_same(entries: list[tuple[str, object]], same) -> list[tuple[str, object]]:
    """Entries ``(name, value)`` with those whose values are ``same`` shown once,
    under both names ("optimal = bank at 300").

    >>> merge_same([("a", 1), ("b", 2), ("c", 1)], lambda x, y: x == y)
    [('a = c', 1), ('b', 2)]
    """
    out: list[list] = []
    for name, value in entries:
        for e in out:
            if same(e[1], value):
                e[0] += f" = {name}"
                break
        else:
            out.append([name, value])
    return [(n, v) for n, v in out]


@dataclass
class Page:
    """One figure of a report, as written."""

    name: str  # file stem of the PNG
    title: str
    caption: str
    png: Path | None = None


@dataclass
class Sheet:
    """One drawn page before it is written: the figure, its PNG stem (None:
    PDF only), title and caption."""

    fig: Figure
    name: str | None
    title: str
    caption: str


@dataclass
class ReportFiles:
    """What a report wrote: the PDF, one PNG per figure, the index page."""

    pdf: Path
    index: Path
    pages: list[Page] = field(default_factory=list)

    @property
    def pngs(self) -> list[Path]:
        return [p.png for p in self.pages if p.png is not None]


def new_figure(width: float, height: float, caption: str,
               caption_chars: int | None = None) -> tuple[Figure, float]:
    """A figure with the caption set in a band along its bottom edge, and the
    height of that band (figure fraction).

    The axes are laid out (constrained layout) above the band, so the caption
    never overlaps them. ``caption_chars`` is the line length to wrap at
    (default: what fits the width at the caption's font size).
    """
    size = 8.0
    chars = caption_chars or int(width * 72 / (size * 0.55))
    lines = textwrap.wrap(caption, chars, break_on_hyphens=False) or [""]
    band = (len(lines) * size * 1.32 + 10) / 72 / height
    fig = Figure(figsize=(width, height), layout="constrained")
    fig.get_layout_engine().set(rect=(0, band, 1, 1 - band), h_pad=0.06, w_pad=0.06)
    fig.text(0.012, band - 4 / 72 / height, "\n".join(lines), ha="left", va="top",
             fontsize=size, color="#222222", linespacing=1.32)
    return fig, band


def landscape_page(title: str, caption: str) -> Figure:
    """A landscape page (:data:`LANDSCAPE`): ``title`` on top, the ``caption``
    along the bottom edge (:func:`new_figure`)."""
    fig, _ = new_figure(*LANDSCAPE, caption)
    fig.suptitle(title, fontsize=13, weight="bold")
    return fig


class SheetPage:
    """An upright page set by hand from the top down (a cheat sheet): lines of
    wrapped text, headings and tables; :attr:`cur` is how far down the page
    (axes fraction, 1 at the top) they reach. ``char_width`` is a character's
    width in font sizes for the wrap; ``indent_narrows``: an indented line
    wraps shorter."""

    LINE = 0.0175

    def __init__(self, caption: str, char_width: float = 0.5, indent_narrows: bool = False):
        fig, band = new_figure(*PORTRAIT, caption, caption_chars=125)
        fig.set_layout_engine("none")  # tables placed by hand below
        ax = fig.add_axes((0.045, band + 0.01, 0.91, 0.97 - band))
        ax.set_axis_off()
        ax.set_xlim(0, 1)
        ax.set_ylim(0, 1)
        self.fig, self.ax, self.cur = fig, ax, 1.0
        self.char_width, self.indent_narrows = char_width, indent_narrows

    def text(self, s, size=9.5, weight="normal", gap=1.0, x=0.0, **kw) -> None:
        narrow = (1 - x) if self.indent_narrows else 1
        chars = int(PORTRAIT[0] * 0.91 * narrow * 72 / (size * self.char_width))
        for line in textwrap.wrap(s, chars, break_on_hyphens=False) or [""]:
            self.ax.text(x, self.cur, line, fontsize=size, weight=weight, va="top", **kw)
            self.cur -= self.LINE * gap * size / 9.5

    def heading(self, s) -> None:
        self.cur -= 0.006
        self.text(s, size=12, weight="bold", gap=1.38)

    def table(self, cells, col_labels, widths, row_h=0.0185, size=8.5, shade=None) -> None:
        """A table of ``cells`` under bold ``col_labels``; ``shade(row, col)``: a cell
        set off in grey and bold."""
        h = row_h * (len(cells) + 1)
        tab = self.ax.table(cellText=cells, colLabels=col_labels, colWidths=widths,
                            bbox=[0, self.cur - h, sum(widths), h], cellLoc="center")
        tab.auto_set_font_size(False)
        tab.set_fontsize(size)
        for (r, c), cell in tab.get_celld().items():
            cell.set_linewidth(0.5)
            if r == 0:
                cell.set_text_props(weight="bold")
                cell.set_facecolor("#E6E6E6")
            elif shade is not None and shade(r - 1, c):
                cell.set_facecolor("#CFCFCF")
                cell.set_text_props(weight="bold")
        self.cur -= h + 0.012


def largest_fit(draw, counts) -> Sheet:
    """``draw(n)`` -> (sheet, bottom) for each ``n`` of ``counts`` (largest
    first) until the page's bottom is on the page (``bottom >= 0``): the
    sheet with as many rows as fit (the last one tried if none does)."""
    for n in counts:
        sheet, bottom = draw(n)
        if bottom >= 0:
            break
    return sheet


def save_png(fig: Figure, path: Path, text: dict[str, str]) -> None:
    """``fig`` as a PNG of ``PNG_COLORS`` colours at ``PNG_DPI``, with ``text``
    as its text chunks and no time chunk.

    The charts use a handful of colours plus their anti-aliased edges, so a
    palette loses nothing visible and the file is about a third of the RGBA
    one. Median cut without dithering is deterministic.
    """
    from matplotlib.backends.backend_agg import FigureCanvasAgg
    from PIL import Image, PngImagePlugin

    # draw on an Agg canvas and take its pixels: no RGBA PNG to encode and decode
    canvas = FigureCanvasAgg(fig)
    fig.set_dpi(PNG_DPI)
    canvas.draw()
    rgba = Image.frombuffer("RGBA", canvas.get_width_height(), canvas.buffer_rgba(),
                            "raw", "RGBA", 0, 1)
    pal = rgba.convert("RGB").quantize(colors=PNG_COLORS, method=Image.Quantize.MEDIANCUT,
                                       dither=Image.Dither.NONE)
    info = PngImagePlugin.PngInfo()
    for key, value in text.items():
        info.add_text(key, value)  # iTXt (UTF-8) where latin-1 will not do
    pal.save(path, format="PNG", pnginfo=info, dpi=(PNG_DPI, PNG_DPI))


class ReportWriter:
    """Collects figures into ``<out>/<stem>.pdf`` and ``<out>/<name>.png``.

    The PDF is written to a temporary name and renamed at the end, so an
    interrupted run never leaves a truncated report under the final name.
    """

    def __init__(self, out_dir: Path, stem: str, title: str, rules,
                 seed: int, extra_keywords: str = ""):
        self.out_dir = Path(out_dir)
        self.out_dir.mkdir(parents=True, exist_ok=True)
        self.pdf_path = self.out_dir / f"{stem}.pdf"
        self._tmp = self.out_dir / f".{stem}.pdf.partial"
        self.title = title
        self.rules = rules
        self.seed = seed
        keywords = f"rules_sha256={rules.digest()} seed={seed} {extra_keywords}".strip()
        self._pdf = PdfPages(self._tmp, metadata={
            "Title": title,
            "Author": None,
            "Subject": rules_label(rules),
            "Keywords": keywords,
            "Creator": f"tutto-sim {__version__}",
            "CreationDate": None,
            "ModDate": None,
        })
        self.pages: list[Page] = []

    def add(self, fig: Figure, name: str | None, title: str, caption: str) -> None:
        """Append ``fig`` to the PDF and, if ``name`` is given, save its PNG."""
        page = Page(name or "", title, caption)
        if name:
            page.png = self.out_dir / f"{name}.png"
            save_png(fig, page.png, {"Software": f"tutto-sim {__version__}",
                                     "Title": title, "Description": caption})
            # the layout is in figure fractions, the same at every dpi: keep
            # it rather than solve it again for the PDF page
            fig.set_layout_engine("none")
        self._pdf.savefig(fig)
        self.pages.append(page)

    def close(self, intro: str = "") -> ReportFiles:
        self._pdf.close()
        self._tmp.replace(self.pdf_path)
        index = self.out_dir / "README.md"
        index.write_text(self._index_text(intro), encoding="utf-8")
        return ReportFiles(self.pdf_path, index, self.pages)

    def abort(self) -> None:
        self._pdf.close()
        self._tmp.unlink(missing_ok=True)

    def _index_text(self, intro: str) -> str:
        lines = [f"# {self.title}", ""]
        if intro:
            lines += [intro, ""]
        lines += [f"All pages: [{self.pdf_path.name}]({self.pdf_path.name}) "
                  f"({len(self.pages)} pages). Generated by tutto-sim {__version__}; "
                  f"{rules_label(self.rules)}; seed {self.seed}. "
                  "Regenerate: `python scripts/make_reports.py` (see docs/reports.md).", ""]
        for i, p in enumerate(self.pages, 1):
            if p.png is None:  # PDF-only pages (the cover)
                continue
            lines += [f"## {p.title}", "", f"![{p.title}]({p.png.name})", "",
                      f"{p.caption} (PDF page {i}.)", ""]
        return "\n".join(lines)


def cover_sheet(title: str, summary: str, contents: list[str], rules, rules_doc: str,
                command: str, caption: str, name: str, gap: float = 0.03) -> Sheet:
    """A report's cover page (A4, PDF only): ``title``, the ``summary``, the
    contents (the other pages' titles, numbered from 2), every rule of
    ``rules`` in words (:func:`rules_lines`) with the full fingerprint, and
    the ``command`` that reproduces the report. ``name`` is the sheet's title;
    ``gap`` the space below the summary."""
    fig, band = new_figure(*PORTRAIT, caption)
    fig.set_layout_engine("none")
    ax = fig.add_axes((0.07, band + 0.02, 0.86, 0.95 - band))
    ax.set_axis_off()
    y = 0.97

    def line(s, size=10, dy=0.028, x=0.02, **kw):
        nonlocal y
        ax.text(x, y, s, fontsize=size, va="top", transform=ax.transAxes, **kw)
        y -= dy

    line(title, size=20, x=0, weight="bold", dy=0.05)
    for s in textwrap.wrap(summary, 90):
        line(s, size=11, x=0, dy=0.024)
    y -= gap
    line("Contents", size=13, x=0, weight="bold", dy=0.035)
    for i, c in enumerate(contents, 2):
        line(f"{i:>2}.  {c}")
    y -= 0.03
    line(f"Rules ({rules_doc})", size=13, x=0, weight="bold", dy=0.035)
    for k in rules_lines(rules):
        for s in textwrap.wrap(k, 95, subsequent_indent="    "):
            line(s, size=9.5, dy=0.022)
    line(f"rules fingerprint (SHA-256): {rules.digest()}", size=7.5,
         family="DejaVu Sans Mono", dy=0.05)
    line("Reproduce", size=13, x=0, weight="bold", dy=0.035)
    for s in textwrap.wrap(command, 85):
        line(s, size=9.5, family="DejaVu Sans Mono", dy=0.022)
    return Sheet(fig, None, name, caption)


@dataclass(frozen=True)
class ReportSize:
    """What a report's one sample-size number counts: the report command's
    option for it (``--turns``, ``--games``; the keyword of the report's
    ``build`` without the dashes), its default and what it counts in words."""

    option: str
    default: int
    words: str  # "turns per point", "games per table"

    @property
    def keyword(self) -> str:
        return self.option.removeprefix("--")


@dataclass
class ReportPages:
    """A report as its game lays it out: the file stem, the title, the PDF's
    keywords, ``makers[i](number)`` drawing page ``number``, ``cover(titles)``
    and the index's intro (:func:`write_report`)."""

    stem: str
    title: str
    keywords: str
    makers: list
    cover: object
    intro: str


#: A report's progress hook: ``phase(label, total)`` starts a phase of
#: ``total`` steps and returns ``advance(n)``.
PhaseHook = Callable[[str, int], Callable[[int], None]]


def figure_report(game: str, compute, figures, size: ReportSize, keyword: str):
    """The ``pages`` (:func:`build_report`) of the report of ``game`` whose
    numbers ``compute(rules, seed, n, phase)`` returns (an object with
    ``rules``, ``seed`` and ``tournament``) and whose module ``figures`` draws
    it: its ``TITLE``, ``intro(data)``, ``PAGES`` (each ``page(data,
    number)``) and, after them when a tournament is given,
    ``tournament(data, number)``; the cover (:func:`cover_sheet`) with its
    ``summary(data)``, ``cover_caption(data)`` and the rules' page ``DOC``.
    ``keyword``: the name of ``n`` (``size``) in the PDF's keywords. Options of
    the game's own (``build``'s ``**extra``, e.g. a table size) go
    to ``compute`` and into the cover's command as ``--name value``."""
    def pages(rules, seed: int, n: int, phase, tournament, **extra) -> ReportPages:
        data = compute(rules, seed, n, phase, **extra)
        data.tournament = tournament
        drawn = list(figures.PAGES) + ([figures.tournament] if tournament is not None else [])
        options = "".join(f" --{k.replace('_', '-')} {v}" for k, v in extra.items())
        command = reproduce_command(game, data, f"{size.option} {n}{options}", tournament)
        name = figures.TITLE.split(":")[0] + " report"

        def cover(titles):
            return cover_sheet(figures.TITLE, figures.summary(data), titles, data.rules,
                               figures.DOC, command, figures.cover_caption(data), name)

        keywords = f"{keyword}={n}" + "".join(f", {k}={v}" for k, v in extra.items())
        return ReportPages(f"{game}-report", figures.TITLE, keywords,
                           [lambda number, f=f: f(data, number) for f in drawn], cover,
                           figures.intro(data))

    return pages


def no_phase(label: str, total: int):
    """The progress hook that shows nothing."""
    return lambda n: None


def build_report(pages, size: ReportSize, out_dir: Path, rules, seed: int, n: int,
                 phase=None, tournament=None, **extra) -> ReportFiles:
    """Compute and write a report: ``n`` (``size``) must be positive; the
    ``tournament`` (None, a :class:`Tournament` or the path of its CSV) is read
    and checked to be of the game of ``rules`` before anything is computed
    (:func:`report_tournament`); ``pages(rules, seed, n, phase, tournament,
    **extra)`` computes the game's numbers and lays out its
    :class:`ReportPages`, which :func:`write_report` draws and writes."""
    if n < 1:
        raise ValueError(f"{size.keyword} must be a positive number, not {n}")
    tournament = report_tournament(tournament, rules)
    phase = phase or no_phase
    p = pages(rules, seed, n, phase, tournament, **extra)
    return write_report(out_dir, p.stem, p.title, rules, seed, p.keywords, p.makers, p.cover,
                        p.intro, phase)


def write_report(out_dir: Path, stem: str, title: str, rules, seed: int, keywords: str,
                 makers: list, cover, intro: str, phase) -> ReportFiles:
    """Draw and write a report: ``makers[i](number)`` draws page ``number``
    (from 1) as a :class:`Sheet`, ``cover(titles)`` the cover from the pages'
    titles; the cover comes first in the PDF, then the pages. ``phase`` is the
    progress hook; an error or Ctrl-C leaves no PDF behind."""
    advance = phase("drawing the figures", len(makers) + 1)
    with style():
        writer = ReportWriter(out_dir, stem, title, rules, seed, extra_keywords=keywords)
        try:
            sheets = [make(n) for n, make in enumerate(makers, 1)]
            for sheet in [cover([s.title for s in sheets]), *sheets]:
                writer.add(sheet.fig, sheet.name, sheet.title, sheet.caption)
                advance(1)
        except BaseException:
            writer.abort()
            raise
        return writer.close(intro)


# --------------------------------------------------------------------------
# tournament results (the CSV `tutto-sim tournament` writes), for any game
# --------------------------------------------------------------------------


class TournamentFileError(ValueError):
    """A --tournament file that is missing or is not a tournament CSV (one line)."""


#: Columns a tournament CSV must have (docs/games.md); ``ci95`` or ``games`` too.
TOURNAMENT_COLUMNS = ("kind", "name", "win_rate")


@dataclass(frozen=True)
class WinRate:
    """One row of a tournament CSV: a bot, a seat or an ordered pair."""

    name: str
    opponent: str
    win_rate: float
    ci95: float
    games: int | None
    #: the 95% CI: the CSV's ``low``/``high`` (Wilson), else Wilson's from
    #: ``games``, else ``win_rate ± ci95`` (an old CSV without games)
    low: float | None = None
    high: float | None = None

    @property
    def estimate(self):
        """The win rate as an :class:`~tutto_sim.core.stats.Estimate` (its interval kept)."""
        from tutto_sim.core.stats import WILSON, Estimate

        if self.low is None or self.high is None:
            return Estimate(self.win_rate, self.ci95, self.games or 0)
        return Estimate(self.win_rate, self.ci95, self.games or 0, self.low, self.high, WILSON)


@dataclass(frozen=True)
class Tournament:
    """The win rates of a tournament CSV (``kind`` bot / seat / pair rows)."""

    file: str  # the file's name (not its directory: reports stay reproducible)
    game: str
    variant: str
    players: int | None
    seed: int | None
    rules_sha256: str
    bots: tuple[WinRate, ...]
    seats: tuple[WinRate, ...]
    pairs: tuple[WinRate, ...]


def _number(text, kind=float):
    try:
        value = kind(float(text)) if kind is int else kind(text)
    except (TypeError, ValueError, OverflowError):
        return None
    return None if isinstance(value, float) and not math.isfinite(value) else value


def tournament_game(rules) -> str:
    """The game label a tournament CSV of ``rules`` carries in its ``game``
    column (as ``tutto-sim tournament`` writes it; the game's ``label`` hook)."""
    from tutto_sim.core import registry

    return registry.for_rules(rules).hooks.label(rules)


def game_title(label: str) -> str:
    """A game label (the ``label`` hook's, as in file names) as
    players name the game (the ``title_of_label`` hooks); unknown: as given."""
    from tutto_sim.core import registry

    for e in registry.entries():
        title = e.hooks.title_of_label(label.strip().lower())
        if title:
            return title
    return label


def variant_words(label: str, variant: str) -> str:
    """A variant of the game of ``label`` in the players' words (as given if unknown)."""
    from tutto_sim.core import registry

    for e in registry.entries():
        if e.hooks.title_of_label(label.strip().lower()):
            return e.hooks.variant_words(variant)
    return variant


def check_tournament_game(t: "Tournament", game: str | None) -> None:
    """Raise :class:`TournamentFileError` if the tournament ``t`` was played
    in another game than ``game`` (a label as :func:`tournament_game` gives).
    A CSV without a ``game`` column cannot be checked and passes."""
    if game is None or t.game in ("", "?"):
        return
    if t.game.strip().lower() != game.strip().lower():
        raise TournamentFileError(
            f"--tournament: {t.file} holds games of {game_title(t.game)} (game {t.game}), "
            f"but this report is about {game_title(game)} (game {game})")


def report_tournament(tournament, rules) -> Tournament | None:
    """A report's ``tournament`` argument (None, a :class:`Tournament` or the
    path of a CSV) read and checked to be of the report's game
    (:class:`TournamentFileError` otherwise), before anything is computed."""
    if tournament is None:
        return None
    game = tournament_game(rules)
    if not isinstance(tournament, Tournament):
        tournament = read_tournament(tournament, game=game)
    check_tournament_game(tournament, game)
    return tournament


def read_tournament(path, game: str | None = None) -> Tournament:
    """The win rates in a CSV written by ``tutto-sim tournament`` (any game).

    Needs the columns ``kind``, ``name``, ``win_rate`` and ``ci95`` (or
    ``games``) and at least one ``kind=bot`` row; the 95% CI is the file's
    ``low``/``high`` (Wilson), else the Wilson interval from ``games``, else
    ``win_rate ± ci95``; reads
    ``opponent``, ``games``, ``game``, ``variant``, ``players``, ``seed`` and
    ``rules_sha256`` when present and ignores any other column.

    ``game``: the game label of the report the tournament is for (the
    ``label`` hook's; :func:`tournament_game` of the report's rules). A CSV whose ``game`` column names another game is
    refused; None checks nothing.

    Raises :class:`TournamentFileError` (one line) for a missing file, a file
    that is not such a CSV (binary, not UTF-8, damaged, wrong columns or
    values) or a CSV of another game, and no other exception.
    """
    path = Path(path)
    if not path.is_file():
        raise TournamentFileError(f"--tournament: no such file: {path}")
    bad = f"--tournament: {path} is not a tournament CSV from `tutto-sim tournament`"
    try:
        with open(path, newline="", encoding="utf-8-sig") as f:
            reader = csv.DictReader(f)
            cols = [c.strip() if isinstance(c, str) else "" for c in reader.fieldnames or []]
            reader.fieldnames = cols
            rows = list(reader)
    except (OSError, UnicodeError, csv.Error, ValueError, MemoryError) as e:
        raise TournamentFileError(f"{bad} ({type(e).__name__})") from None
    try:
        t = _parse_tournament(path, cols, rows, bad)
    except TournamentFileError:
        raise
    except Exception as e:  # a damaged file must never end in a traceback
        raise TournamentFileError(f"{bad} ({type(e).__name__})") from None
    check_tournament_game(t, game)
    return t


def _players(n: int | None) -> int | None:
    return n if n is not None and 1 <= n <= 1000 else None


def _text(value) -> str:
    """A CSV cell as text: missing cells (short rows) are None, extra ones lists."""
    return value.strip() if isinstance(value, str) else ""


def _parse_tournament(path: Path, cols: list[str], rows: list[dict], bad: str) -> Tournament:
    missing = [c for c in TOURNAMENT_COLUMNS if c not in cols]
    if not missing and "ci95" not in cols and "games" not in cols:
        missing = ["ci95"]
    if missing:
        raise TournamentFileError(f"{bad} (no column {', '.join(missing)})")
    groups: dict[str, list[WinRate]] = {"bot": [], "seat": [], "pair": []}
    for i, r in enumerate(rows, 2):
        kind = _text(r.get("kind"))
        if kind not in groups:
            continue
        rate = _number(_text(r.get("win_rate")))
        games = _number(_text(r.get("games")), int)
        if games is not None and games < 0:
            games = None
        ci = _number(_text(r.get("ci95")))
        low, high = _number(_text(r.get("low"))), _number(_text(r.get("high")))
        if rate is not None and 0 <= rate <= 1 and games and (
                low is None or high is None or not 0 <= low <= rate <= high <= 1):
            low, high = wilson(rate * games, games)  # a CSV from before the Wilson columns
            ci = (high - low) / 2 if ci is None else ci
        if rate is None or ci is None or not 0 <= rate <= 1 or ci < 0:
            raise TournamentFileError(f"{bad} (line {i}: win_rate {_text(r.get('win_rate'))!r}, "
                                      f"ci95 {_text(r.get('ci95'))!r})")
        if not games:  # no count to build an interval from: the file's ± ci95
            low, high = None, None
        groups[kind].append(WinRate(_text(r.get("name")), _text(r.get("opponent")), rate, ci,
                                    games, low, high))
    if not groups["bot"]:
        raise TournamentFileError(f"{bad} (no kind=bot row)")
    first = rows[0]
    return Tournament(
        file=path.name, game=_text(first.get("game")) or "?",
        variant=_text(first.get("variant")),
        players=_players(_number(_text(first.get("players")), int)),
        seed=_number(_text(first.get("seed")), int),
        rules_sha256=_text(first.get("rules_sha256")),
        bots=tuple(groups["bot"]), seats=tuple(groups["seat"]), pairs=tuple(groups["pair"]))


def tournament_sheet(t: Tournament, report_rules, number: int, footer: str) -> Sheet:
    """Win rates with 95% CIs: per bot, per seat and (2 players) per pair.

    ``footer`` ends the caption (rules label, software version).
    """
    import numpy as np

    fair = 1 / t.players if t.players else None
    game = game_title(t.game) if t.game != "?" else "not given"
    if t.variant and t.variant != "standard" and t.variant not in t.game:
        game += f" ({variant_words(t.game, t.variant)})"
    same = t.rules_sha256 and t.rules_sha256 == report_rules.digest()
    whose = ("the report's rules" if same else
             "the tournament's own rules" + (f", rules fingerprint {t.rules_sha256[:12]}"
                                             if t.rules_sha256 else " (not given in the file)")
             + ", not the report's")
    n_games = max((b.games or 0 for b in t.seats), default=0)
    title = "Tournament: win rates with 95% CIs"
    players = count(t.players, "player") if t.players else "? players"
    caption = (
        f"Whole games from {t.file} (written by `tutto-sim tournament`: {game}, {players}, "
        f"seed {t.seed if t.seed is not None else '?'}"
        + (f", {count(n_games, 'game')}" if n_games else "") + f"; {whose}). "
        "Win rate = mean share of the win per seat held (1, 1/k in a k-way tie, 0); bars and "
        "[low, high]: 95% CI (Wilson score interval, on the effective count of wins). Dotted line: 1/players, the fair share. Seats: seat 0 moves first; the "
        "first-player advantage is seat 0's rate minus the fair share."
        + (" Right: row's win rate against the column in two-player games." if t.pairs else "")
        + f" {footer}")
    fig = landscape_page(title, caption)
    panels = 3 if t.pairs else 2
    axes = fig.subplots(1, panels, width_ratios=[1.3, 1.0, 1.3][:panels])
    for ax, rows, what in ((axes[0], t.bots, "bot"), (axes[1], t.seats, "seat")):
        if not rows:
            ax.set_axis_off()
            ax.text(0.5, 0.5, f"no {what} rows", ha="center", transform=ax.transAxes)
            continue
        y = np.arange(len(rows))[::-1]
        rate = np.array([r.win_rate for r in rows])
        est = [r.estimate for r in rows]
        ax.barh(y, rate, color=LIGHT, edgecolor=INK, lw=0.6, height=0.6,
                hatch=HATCHES[1] if what == "seat" else "")
        ax.errorbar(rate, y, xerr=[[e.mean - e.low for e in est], [e.high - e.mean for e in est]],
                    fmt="o", color=INK, ms=3.5, capsize=3, lw=1.0)
        for yi, e in zip(y, est):
            ax.text(e.high + 0.01, yi, estimate_text(e), va="center", fontsize=8)
        ax.set_yticks(y, [r.name if what == "bot" else f"seat {r.name}" for r in rows])
        if fair is not None:
            ax.axvline(fair, ls=":", color=GREY, lw=1.4)
        right = max(e.high for e in est) * 1.35 + 0.02  # room for the labels, past 1 if need be
        ax.set_xlim(0, right)
        ax.set_xticks([x for x in np.arange(0, 1.01, 0.2) if x <= right])
        ax.set_xlabel("win rate (share of games won)")
        ax.set_title("by bot" if what == "bot" else "by seat (all bots)", loc="left")
        ax.grid(axis="y", visible=False)
        ax.set_axisbelow(True)
    if t.pairs:
        ax = axes[2]
        names = list(dict.fromkeys([p.name for p in t.pairs] + [p.opponent for p in t.pairs]))
        grid = np.full((len(names), len(names)), np.nan)
        text = {}
        for p in t.pairs:
            i, j = names.index(p.name), names.index(p.opponent)
            grid[i, j] = p.win_rate
            text[i, j] = estimate_text(p.estimate, stacked=True)
        ax.imshow(np.ma.masked_invalid(grid), cmap="Greys", vmin=-0.1, vmax=1.6,
                  aspect="auto")
        for i in range(len(names)):
            if (i, i) not in text:
                text[i, i] = "–"
        for (i, j), s in text.items():
            ax.text(j, i, s, ha="center", va="center", fontsize=7.5,
                    weight="bold" if grid[i, j] > 0.5 else "normal")  # NaN > 0.5: False
        ax.set_xticks(range(len(names)), names, rotation=30, ha="right")
        ax.set_yticks(range(len(names)), names)
        ax.set_title("pairwise: row against column", loc="left")
        ax.grid(False)
    return Sheet(fig, f"{number:02d}-tournament", title, caption)


def report_games() -> tuple[str, ...]:
    """The ``--game`` names whose report ``tutto-sim report`` can write."""
    from tutto_sim.core import registry

    return tuple(n for e in registry.entries() if e.hooks.offers("report_module")
                 for n in e.names)


def sample_games() -> tuple[str, ...]:
    """The games whose sample report is committed under ``reports/``."""
    from tutto_sim.core import registry

    return tuple(e.name for e in registry.entries() if e.extra.get("sample_report"))


def report_module(game: str):
    """The module that builds the report of ``--game`` ``game`` (the game's
    ``report_module`` hook): its :class:`ReportSize` ``SIZE``,
    ``build(out_dir, rules, seed, <SIZE.keyword>, phase, tournament)`` (on
    :func:`build_report`) and, where one module serves several names (a
    variant preset's too), ``default_rules(game)``.

    >>> report_module("tutto").SIZE.option, report_module("tutti").SIZE.option
    ('--turns', '--games')
    >>> report_module("Volle-Lotte").default_rules("volle-lotte").n_dice
    6
    >>> report_module("kniffel")
    Traceback (most recent call last):
    ...
    ValueError: unknown game 'kniffel'; valid: tutto, macke, volle-lotte, rutsmieter, tutti
    """
    from tutto_sim.core import registry

    return registry.by_name(game).hooks.report_module()


def ladder_panels(fig, d: dict) -> None:
    """A ladder's two panels on ``fig`` from its JSON (``tutto-sim ladder
    --json``: ``ranking``, ``ratings``, ``matrix``): left each bot's rating
    with its 95% CI, best on top; right the head-to-head win rates as a heat
    map with the numbers (and their Wilson intervals) in the cells."""
    import numpy as np

    from .stats import Estimate

    names = list(d["ranking"])
    ratings = [d["ratings"][n] for n in names]
    left, right = fig.subplots(1, 2, width_ratios=[1.0, 1.2])
    y = np.arange(len(names))[::-1]
    rate = np.array([r["rating"] for r in ratings])
    left.errorbar(rate, y, xerr=[[r["rating"] - r["low"] for r in ratings],
                                 [r["high"] - r["rating"] for r in ratings]],
                  fmt="o", color=INK, ms=4, capsize=3, lw=1.0)
    for yi, r in zip(y, ratings):
        left.text(r["rating"], yi + 0.18, f"{r['rating']:+.0f}".replace("-", "−"), ha="center",
                  fontsize=8)
    left.axvline(0, ls=":", color=GREY, lw=1.2)
    left.set_yticks(y, names)
    left.set_ylim(-0.6, len(names) - 0.4)
    left.set_xlabel("rating (Elo scale)")
    left.set_title("rating of each bot, 95% CI", loc="left")
    left.grid(axis="y", visible=False)
    m = d["matrix"]
    grid = np.full((len(names), len(names)), np.nan)
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if b in m.get(a, {}):
                grid[i, j] = m[a][b]["win_rate"]
    right.imshow(np.ma.masked_invalid(grid), cmap="Greys", vmin=-0.1, vmax=1.6, aspect="auto")
    for i, a in enumerate(names):
        for j, b in enumerate(names):
            if b in m.get(a, {}):
                c = m[a][b]
                e = Estimate(c["win_rate"], (c["high"] - c["low"]) / 2, c["games"], c["low"],
                             c["high"], "wilson-95")
                text = estimate_text(e, percent=True, stacked=True)
            else:
                text = "–"
            right.text(j, i, text, ha="center", va="center", fontsize=7.5,
                       weight="bold" if grid[i, j] > 0.5 else "normal")
    right.set_xticks(range(len(names)), names, rotation=30, ha="right")
    right.set_yticks(range(len(names)), names)
    right.set_title("win rate of the row bot against the column bot", loc="left")
    right.grid(False)
    right.tick_params(length=0)
    for spine in right.spines.values():
        spine.set_color(LIGHT)
