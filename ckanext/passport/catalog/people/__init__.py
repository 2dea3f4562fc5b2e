"""People: no login published.

users (who sees users, members and activity actors: the chained actions, auth functions and helper).
"""
