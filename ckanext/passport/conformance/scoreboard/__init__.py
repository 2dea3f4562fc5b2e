"""The scoreboard: every publisher's MR conformance over time, read from each finished job's summary.

model (the table ``passport_job_summary``) · summary (a finished job summarized once: summarize, previous) ·
actions (``passport_scoreboard`` and ``passport_scoreboard_history``, one SQL query each).
"""
