"""Scratch notes: a user-launchable pad whose text is kept as instance state; no tools."""
