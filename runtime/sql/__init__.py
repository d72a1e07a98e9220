"""SQL the Runtime runs on PostgreSQL, kept beside the Python it mirrors.

The rule for these modules and the migrations that create their functions:

- A module here holds the current, commented, readable text of a function (``runtime.sql.settle``); the code that calls the function imports its call text from here.
- A migration never imports from here. It runs a frozen copy of the text it created, kept beside
  it in ``runtime/migrations/_<function>_<number>.py`` (``_settle_0018``, ``_start_0019``,
  ``_start_0020``, ``_settle_0021``, …), so a migration keeps creating what it created when it was
  applied, and a database migrated from scratch passes through the same functions as one migrated
  step by step. Its ``backwards`` restores the previous frozen copy.
- So a change to a function is a change here **plus** a new migration with its own frozen copy of
  the new text (``CREATE OR REPLACE``; never an edit of an applied migration or of a frozen copy).
  ``tests/runtime/test_sql_migrations.py`` fails when the function a migrated database holds is not
  the text here, or when a migration imports from this package.
"""
