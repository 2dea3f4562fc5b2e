"""The record itself: what its fields hold and how they are checked, kept, shown and mapped.

validators (the ``passport_*`` field validators of the scheming YAML) · ico, media_type (pure rules the LKOD reads
too) · conditions (the conditions of use, the one rule of which value holds) · identity (one MR identifier, one
record) · harvested_fields (the MR identity's edit guard) · series (dataset series) · mapping (passport ⇄ dataset
dict) · display (the record page's helpers) · record_lock (the row lock every write holds).
"""
