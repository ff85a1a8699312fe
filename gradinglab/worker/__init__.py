"""Everything that runs on a grading host (GPU or CPU), Django-free and without DB credentials.

    celery -A gradinglab.worker worker -Q grade-gpu-h100 --pool prefork --concurrency 1

- ``celery``: the Celery app of a grading host (what ``-A gradinglab.worker`` finds);
- ``tasks``: the grade task and the heartbeat, put on an app by ``register(app)``;
- ``jobs``: the job message, built by the web side (``make_payload``), checked on arrival;
- ``client``: the one HTTP boundary to the web app (results, phases, heartbeats);
- ``config``: the host's environment, through the strict parsers of ``pdcenv``;
- ``queues``: the grading queue names (the web side and the settings use them too).

Nothing is imported here, so the web side can import ``jobs`` or ``queues`` without Celery's app.
"""
