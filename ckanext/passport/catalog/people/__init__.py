"""People: no login published, and the publishers (organizations) with their IČO and INNs.

users (who sees users, members and activity actors: the chained actions, auth functions and helper) · publishers
(the organization form's IČO and INNs, set by sysadmins only; which organization holds an INN or an IČO).
"""
