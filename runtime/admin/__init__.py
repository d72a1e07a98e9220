"""The operators' admin for the Runtime: state (read-only, with the recovery sweep) and Agents."""

from runtime.admin import agents, state

__all__ = ["agents", "state"]
