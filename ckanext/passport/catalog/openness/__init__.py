"""The level-3 openness check of a record's distributions (Czech technical standards for open datasets).

assessment (the pure judgement of a file's bytes) · jobs (the background job that reads and stores) · actions
(``passport_openness_check``: rate limits, queue) · auth · validators (the stored result's guard) · views (the
dataset page's button) · helpers (the record page's results).
"""
