"""The Celery app: eta tasks and the beat sweep that settle deadlines (see runtime.tasks)."""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "lineup.settings")

app = Celery("lineup")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
