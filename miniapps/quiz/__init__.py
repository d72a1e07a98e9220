"""Practice quiz: a timed drill (e.g. mental arithmetic) the Agent sets and the Runtime times (docs/miniapps.md)."""
