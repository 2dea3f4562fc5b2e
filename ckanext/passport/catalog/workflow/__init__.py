"""The editorial workflow of a record and the public's feedback on it.

states (states, transitions, roles, the state guard) · actions · auth · views (the queue, the dataset page's
forms) · helpers (the dataset page's workflow block, the queue count) · model (the workflow's tables) · notify
(mail about transitions) · feedback (what a message may hold, rate limits) · completeness (what a record still
lacks, said to whoever submits it) · visibility (who sees a record by its state) · unowned (a record of no
organization is its creator's).
"""
