"""A harvest source's MR conformance, read from its harvest objects (no refetch).

report (a job's report and the score history) · fixed (corrected files of a harvested passport) · actions (the
report's actions and who may see them) · views (the source's Conformance tab, downloads, the record page's block).
"""
