"""People: no login published, and the publishers (organizations) with their IČO and INNs.

A portal user's login is not published: a visitor who is not signed in sees no user page, user list or member
list, and where CKAN names the user behind a change (activity streams, a record's history) reads "a portal user"
instead.

A record names the people to contact in fields its curator fills in; who edited it on the portal is the portal's
business, and a login is half of what an attacker needs to sign in. CKAN's ``ckan.auth.public_user_details``
(on by default) opens all of that to visitors; the extension closes it whatever the site's ini says. A signed-in
user gets what CKAN gives.

actions (the chained actions) · auth (the chained auth functions) · helpers (linked_user) · publishers (the
organization form's IČO and INNs, set by sysadmins only; which organization holds an INN or an IČO).
"""
