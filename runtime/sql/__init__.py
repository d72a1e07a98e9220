"""SQL the Runtime runs on PostgreSQL, kept beside the Python it mirrors."""
