"""Plain-Python reference engines, read beside docs/rules.md and docs/macke.md;
the kernels are tested against them."""
