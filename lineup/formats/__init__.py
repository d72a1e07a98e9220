"""Date and time formats: times to the second, ISO order, in both languages (the admin's lists and
pages show ``settled_at`` and ``ends_at`` this way, so a settlement lag of seconds is visible)."""
