"""MR conformance shown in the portal: a harvest source's report, a record's findings, a publisher's site check.

shape (the one report document both kinds share, its summary and CSV) · downloads and charts (both kinds') ·
harvest/ (a source's report from its harvest jobs) · site_check/ (the publisher's check of a live site, run as a
CKAN background job).
"""
