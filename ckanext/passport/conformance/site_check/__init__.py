"""The publishers' site check: a live site read as a CKAN background job, its report kept bounded.

model (the check's tables) · job (the background job) · report (mr.report.SiteReport as the report document, and
as kept) · actions (start/show/list, the private-address guard, rate limits) · history (a user's earlier checks)
· views (the pages) · problems (site_check.* codes).
"""
