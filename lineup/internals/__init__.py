"""Every use of a web server library's private internals, one module per library (decision 0052).

As in ``runtime.internals`` (the Django and Channels ones): each module says which versions it was
checked against (``CHECKED_AGAINST``) and has a test named for them (tests/lineup/internals/) that
fails on any other version and exercises each hook, so an upgrade fails loudly.
"""
