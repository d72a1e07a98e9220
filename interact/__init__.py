"""Interact, the system MiniApp: conversations, messages, sub-session blocks, standard interactions."""
