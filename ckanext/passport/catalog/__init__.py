"""The Czech catalog record, sliced by feature as ``conformance/`` is, with CKAN's file names in each folder.

record (the record's own fields: validators, identity, mapping, series, display, conditions, the row lock) ·
vocabularies (the controlled lists, their search and the licences, with their data files) · workflow (states,
actions, auth, views, tables, mail, visibility) · people (who sees users; the publishers) · openness (the level-3
check: assessment, job, action, auth, validator, views, helpers). At the top, what every feature shares: ownership
(the ownership engine), user_checks (the rule of every check a user starts), problems.toml (the room's problem
codes), schemas/ (the scheming YAML, named in portals' configs as ``ckanext.passport.catalog:schemas/…``).
"""
