"""The Runtime: the final authority on MiniApp instances, focus, deadline operations and results."""
