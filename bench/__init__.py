"""Benchmarks and the bounded load script (docs/benchmarks.md).

Each benchmark measures one LineUp figure and, in the same run and on the same services, the
floor it is compared with, and prints both and their ratio. They start the processes they need
themselves (tests/support/processes.py) against a dedicated database; nothing here is imported
by the product.
"""
