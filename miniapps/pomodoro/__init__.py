"""Pomodoro: one fixed-length focus, started and stopped by the Agent (SPEC §3)."""
