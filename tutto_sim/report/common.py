"""What every report shares: the house style, captions, and the writer that
saves one multi-page PDF plus one PNG per figure, byte for byte reproducibly.

Part of ``tutto_sim.report`` (the top layer: it reads ``solve``, ``policy`` and
``sim`` and is read only by the CLI and ``scripts/make_reports.py``). Figures
are built with :class:`matplotlib.figure.Figure` directly, never with pyplot,
so building a report changes no global matplotlib state (backend, open
figures) of the caller; the style is applied with :func:`style` as an
``rc_context`` only while a report is drawn.

Reproducible files: the PDF carries no creation or modification date and the
PNGs no time chunk, so the same inputs (rules, seed, turns) give byte-identical
files on the same software versions (``tests/test_report.py`` checks it).
"""

from __future__ import annotations

import textwrap
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path

import matplotlib
from matplotlib.backends.backend_pdf import PdfPages
from matplotlib.figure import Figure

from .. import __version__
from ..rules.tutto import TuttoRules  # noqa: F401  (the doctests use it)

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


def rules_label(rules) -> str:
    """The rules in one short phrase: the flags that differ from RULES.md's
    defaults, and the first 12 hex digits of ``rules.digest()``. Any rules
    object with defaults, ``to_dict()`` and ``digest()`` will do.

    >>> rules_label(TuttoRules())
    'rules: RULES.md defaults (sha256 4ed213d666cd)'
    >>> rules_label(TuttoRules(x2_scope="card")).split(" (")[0]
    'rules: --x2-scope card'
    """
    default = type(rules)().to_dict()
    diff = [f"--{k.replace('_', '-')} {v}" for k, v in rules.to_dict().items()
            if default.get(k) != v]
    what = ", ".join(diff) if diff else "RULES.md defaults"
    return f"rules: {what} (sha256 {rules.digest()[:12]})"


def pts(value: float) -> str:
    """Points as players write them: 1,250."""
    return f"{value:,.0f}"


@dataclass
class Page:
    """One figure of a report, as written."""

    name: str  # file stem of the PNG
    title: str
    caption: str
    png: Path | None = None


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
    lines = textwrap.wrap(caption, chars) or [""]
    band = (len(lines) * size * 1.32 + 10) / 72 / height
    fig = Figure(figsize=(width, height), layout="constrained")
    fig.get_layout_engine().set(rect=(0, band, 1, 1 - band), h_pad=0.06, w_pad=0.06)
    fig.text(0.012, band - 4 / 72 / height, "\n".join(lines), ha="left", va="top",
             fontsize=size, color="#222222", linespacing=1.32)
    return fig, band


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
