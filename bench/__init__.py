"""Benchmarks and load drivers (`loveletter bench ...`), apart from the product: they may use
every layer, and nothing of the product imports them."""
