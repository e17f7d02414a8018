"""Benchmarks run by `make bench` (`python -m bench.run`): a real service, real HTTP, LoCoMo from ../shared."""
