"""The names of this extension's two harvest source types, defined once: each harvester declares its own as
``SOURCE_TYPE`` from here, and every reader of a source's type (records, recovery, the conformance rooms, the
source form) compares with these, so no room has to import a harvester above it to know its name."""
from __future__ import annotations

# MR passports and registries (harvest/mr_harvester.py).
PASSPORT = "passport"
# LKOD catalog documents (lkod/harvester.py).
LKOD = "lkod"
# Every type whose harvester is this extension's.
OURS = (PASSPORT, LKOD)
