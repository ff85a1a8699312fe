"""Writes of the lab, one module a concern (callers import the module they need):

- ``submissions``: a new submission's checks, storing it, sending its grading job; staff re-run, flag;
- ``results``: phases and results from workers, the score, the gradebook sync, a score override;
- ``rescore``: recompute stored results under the current scoring rule (nothing re-run);
- ``reaper``: re-send stuck or lost jobs, give up after MAX_DISPATCHES;
- ``workers``: worker credentials and heartbeats;
- ``problem_sync``: problem packages into the database, the publishing check's record.
"""
