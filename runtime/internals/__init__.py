"""Every use of a library's private internals, one module per library (decision 0052).

Each module says which versions it was checked against (``CHECKED_AGAINST``) and has a test named
for them (tests/runtime/internals/) that fails when the installed version is another one, and that
exercises each trick, so an upgrade fails loudly here rather than quietly somewhere else. The rest
of the code calls the short functions below and never touches a library's private attribute itself.

What the Runtime uses lives here; the Daphne/Twisted hooks of the composition root live in
``lineup.internals`` (the Runtime knows no web server).
"""
