"""Interact's write services: messages and interactions (one module each)."""
