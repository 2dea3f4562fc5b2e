"""Link checks of published records: every distribution, schema, terms-of-use and documentation URL of a record
asked for its status through the fetch guard, the answers kept per record and URL (see docs/lkod.md, Link checks).
"""
