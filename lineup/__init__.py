"""The LineUp Django project: settings, ASGI entry point, Celery app, URLs."""

from lineup.celery import app as celery_app

__all__ = ["celery_app"]
