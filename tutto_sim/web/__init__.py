"""The tables outside Python: the JavaScript policy reader (``policy.mjs``) and
the exporter of sampled situations with the Python answers (``export``) that
its tests compare against. See docs/advisor.md, "JavaScript policy reader"."""

from importlib import resources
from pathlib import Path


def policy_module_path() -> Path:
    """Where the shipped JavaScript module ``policy.mjs`` is."""
    return Path(str(resources.files(__package__).joinpath("policy.mjs")))
