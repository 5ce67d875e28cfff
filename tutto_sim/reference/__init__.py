"""Plain-Python reference engines, read beside RULES.md; the kernels are tested against them."""
